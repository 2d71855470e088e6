package mcp

// Features of the protocol that arrived after 2024-11-05. A server may send
// one on an older session anyway; an inspector shows it and says it is
// not in the negotiated version (NotIn).
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

// introduced is the version each feature arrived in.
var introduced = map[string]string{
	FeatureAudioContent:      Version20250326,
	FeatureToolAnnotations:   Version20250326,
	FeatureProgressMessage:   Version20250326,
	FeatureCompletions:       Version20250326,
	FeatureStructuredContent: Version20250618,
	FeatureOutputSchema:      Version20250618,
	FeatureTitle:             Version20250618,
	FeatureResourceLink:      Version20250618,
	FeatureElicitation:       Version20250618,
}

// Introduced is the version that brought feature ("" for one this package
// does not date, taken as present in every version).
func Introduced(feature string) string { return introduced[feature] }

// NotIn is the mark for a feature a peer used on a session of version
// that predates it — "(not in 2024-11-05)" — or "" when version has it.
func NotIn(version, feature string) string {
	since := introduced[feature]
	if since == "" || version == "" || !Before(version, since) {
		return ""
	}
	return "(not in " + CanonicalVersion(version) + ")"
}
