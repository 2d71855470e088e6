package mcp

import (
	"strings"
	"testing"
)

func TestExplainOldStyleQuestion(t *testing.T) {
	refusal := `"elicitation/create" cannot be sent while serving a request on protocol version 2026-07-28: return an InputRequests map instead`
	for _, tc := range []struct {
		version string
		offered []string
		text    string
		want    string // "" for no explanation
	}{
		{Version20260728, []string{Version20260728, Version20250618, Version20250326}, refusal, "Reconnect at 2025-06-18"},
		{Version20260728, nil, refusal, "Reconnect at 2025-11-25"},
		{Version20260728, nil, refusal, "asked elicitation/create"},
		{Version20251125, nil, refusal, ""},
		{Version20260728, nil, "sampling/createMessage failed: the model is busy", ""},
		{Version20260728, nil, "input_required but no method named", ""},
	} {
		got := ExplainOldStyleQuestion(tc.version, tc.offered, tc.text)
		if (tc.want == "") != (got == "") || !strings.Contains(got, tc.want) {
			t.Errorf("ExplainOldStyleQuestion(%s, %v, %q) = %q, want %q", tc.version, tc.offered, tc.text, got, tc.want)
		}
	}
}

// HasEveryFeature is one comparison with the newest dated feature
// (internal/protocol keeps that revision in step with its table).
func TestHasEveryFeature(t *testing.T) {
	if HasEveryFeature(Version20250326) || !HasEveryFeature(Version20250618) || !HasEveryFeature(Version20260728) {
		t.Error("HasEveryFeature disagrees with the table")
	}
}
