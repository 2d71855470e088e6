package mcp

import (
	"fmt"
	"strings"

	"github.com/mcptui/mcptui/internal/protocol"
)

// Features of the protocol that arrived after 2024-11-05. A server may send
// one on an older session anyway; an inspector shows it and says it is
// not in the negotiated version (NotIn).
const (
	FeatureAudioContent      = protocol.FeatureAudioContent
	FeatureToolAnnotations   = protocol.FeatureToolAnnotations
	FeatureProgressMessage   = protocol.FeatureProgressMessage
	FeatureCompletions       = protocol.FeatureCompletions
	FeatureStructuredContent = protocol.FeatureStructuredContent
	FeatureOutputSchema      = protocol.FeatureOutputSchema
	FeatureTitle             = protocol.FeatureTitle
	FeatureResourceLink      = protocol.FeatureResourceLink
	FeatureElicitation       = protocol.FeatureElicitation
)

// Introduced is the version that brought feature ("" for one this package
// does not date, taken as present in every version).
func Introduced(feature string) string { return protocol.Introduced(feature) }

// HasEveryFeature reports whether version has every feature this package
// dates: nothing a peer sends on it gets a NotIn mark.
// It is one comparison: the model asks it for every line.
func HasEveryFeature(version string) bool { return protocol.HasEveryFeature(version) }

// NotIn is the mark for a feature a peer used on a session of version
// that predates it — "(not in 2024-11-05)" — or "" when version has it.
func NotIn(version, feature string) string { return protocol.NotIn(version, feature) }

// ExplainOldStyleQuestion explains an error a server's own SDK raised
// because the server asked a question the pre-2026 way (a request of its
// own) on a stateless session, where questions come back as an
// input_required result. text is the error's words (a tool's isError
// text or a JSON-RPC error message); offered the versions the server
// speaks. It is "" when text is not such an error or version is not
// stateless. The go-sdk (v1.7 and later) says: "sampling/createMessage"
// cannot be sent while serving a request on protocol version 2026-07-28:
// return an InputRequests map instead.
func ExplainOldStyleQuestion(version string, offered []string, text string) string {
	if !Stateless(version) {
		return ""
	}
	method := ""
	for _, m := range protocol.QuestionMethods() {
		if strings.Contains(text, m) {
			method = m
			break
		}
	}
	if method == "" || !(strings.Contains(text, "cannot be sent") || strings.Contains(text, "InputRequests") ||
		strings.Contains(text, "input_required") || strings.Contains(text, "SEP-2322")) {
		return ""
	}
	older := OlderWorking(offered)
	return fmt.Sprintf("the server asked %s as a request of its own, the way of versions before %s, and its SDK refused: "+
		"on %s a server asks by returning an input_required result. Reconnect at %s to answer it "+
		"(V in the inspector, --protocol %s headless), or have the server return the question as input requests",
		method, Version20260728, CanonicalVersion(version), older, older)
}

// OlderWorking is the newest version before 2026-07-28 among offered,
// where a server still asks its questions as requests; 2025-11-25 when the
// server offered none.
func OlderWorking(offered []string) string {
	best := ""
	for _, v := range offered {
		if !Stateless(v) && CanonicalVersion(v) > best {
			best = CanonicalVersion(v)
		}
	}
	if best == "" {
		return Version20251125
	}
	return best
}

// NotInAll is the mark for several features a peer used on a session of
// version that predates them — "(not in 2024-11-05: audio content, title)"
// — or "" when version has them all. Each feature is named once, in the
// order given.
func NotInAll(version string, features ...string) string {
	return protocol.NotInAll(version, features...)
}
