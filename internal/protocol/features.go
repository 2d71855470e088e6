package protocol

import (
	"slices"
	"strings"
)

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

// NotIn is the mark for a feature a peer used on a session of version
// that predates it — "(not in 2024-11-05)" — or "" when version has it.
func NotIn(version, feature string) string {
	since := Introduced(feature)
	if since == "" || version == "" || !Before(version, since) {
		return ""
	}
	return "(not in " + Canonical(version) + ")"
}

// NotInAll is the mark for several features a peer used on a session of
// version that predates them — "(not in 2024-11-05: audio content, title)"
// — or "" when version has them all. Each feature is named once, in the
// order given.
func NotInAll(version string, features ...string) string {
	var names []string
	for _, f := range features {
		if NotIn(version, f) != "" && !slices.Contains(names, f) {
			names = append(names, f)
		}
	}
	if len(names) == 0 {
		return ""
	}
	return "(not in " + Canonical(version) + ": " + strings.Join(names, ", ") + ")"
}

// HasEveryFeature reports whether version has every feature dated here:
// nothing a peer sends on it gets a NotIn mark. It is one comparison: the
// model asks it for every line.
func HasEveryFeature(version string) bool { return !Before(version, NewestFeature) }

// The types of content blocks (tool results, prompt messages, sampling).
const (
	ContentText         = "text"
	ContentImage        = "image"
	ContentAudio        = "audio"
	ContentResourceLink = "resource_link"
	ContentResource     = "resource"
)
