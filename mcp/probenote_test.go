package mcp

import (
	"errors"
	"strings"
	"testing"
	"time"
)

func TestExplainSilentProbe(t *testing.T) {
	silent := Negotiation{Version: Version20251125, Spawns: 2, Steps: []Step{
		{Kind: StepProbe, Err: newError(CodeTimeout, "Request timed out", nil)},
		{Kind: StepAbandon}, {Kind: StepInitialize},
	}}
	got := ExplainSilentProbe(silent, 10*time.Second)
	for _, want := range []string{"within 10s", "initialized at 2025-11-25", "--probe-timeout 1m0s", "--protocol 2026-07-28"} {
		if !strings.Contains(got, want) {
			t.Errorf("%q lacks %q", got, want)
		}
	}
	if got := ExplainSilentProbe(silent, 90*time.Second); !strings.Contains(got, "--probe-timeout 3m0s") {
		t.Errorf("a long timeout doubles: %q", got)
	}
	for name, n := range map[string]Negotiation{
		"answered":  {Version: Version20260728, Spawns: 1, Steps: []Step{{Kind: StepProbe}}},
		"an error":  {Version: Version20251125, Spawns: 1, Steps: []Step{{Kind: StepProbe, Err: newError(-32601, "no", nil)}}},
		"exited":    {Version: Version20251125, Spawns: 2, Steps: []Step{{Kind: StepProbe, Err: errors.New("exited")}, {Kind: StepAbandon}}},
		"no answer": {Version: "", Spawns: 2, Steps: []Step{{Kind: StepProbe, Err: newError(CodeTimeout, "t", nil)}}},
	} {
		if got := ExplainSilentProbe(n, 10*time.Second); got != "" {
			t.Errorf("%s: %q", name, got)
		}
	}
}
