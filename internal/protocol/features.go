package protocol

// Features of the protocol that arrived after 2024-11-05. A server may
// send one on an older session anyway; an inspector shows it and says it
// is not in the negotiated revision.
const (
	FeatureAudioContent      = "audio content"
	FeatureToolAnnotations   = "tool annotations"
	FeatureProgressMessage   = "progress message"
	FeatureCompletions       = "completions capability"
	FeatureStructuredContent = "structuredContent"
	FeatureOutputSchema      = "outputSchema"
	FeatureTitle             = "title"
	FeatureResourceLink      = "resource links"
	FeatureElicitation       = "elicitation"
)

// Introduced is the revision that brought feature ("" for one not dated
// here, taken as present in every revision).
func Introduced(feature string) string {
	switch feature {
	case FeatureAudioContent, FeatureToolAnnotations, FeatureProgressMessage, FeatureCompletions:
		return Rev20250326
	case FeatureStructuredContent, FeatureOutputSchema, FeatureTitle, FeatureResourceLink, FeatureElicitation:
		return Rev20250618
	}
	return ""
}

// NewestFeature is the latest revision Introduced names: a session of it
// or later has every dated feature (a test keeps the two in step).
const NewestFeature = Rev20250618
