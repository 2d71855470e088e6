//go:build unix

package app

import (
	"path/filepath"
	"testing"

	"github.com/mcptui/mcptui/internal/record"
	"github.com/mcptui/mcptui/internal/testkit/tmuxtest"
)

// TestInspectorRecordsAFailedStart: the inspector's recording of a server
// silent on initialize holds the failure, and that mcptui stopped the
// server ("stopped"), so that its replay says what the live screen said.
func TestInspectorRecordsAFailedStart(t *testing.T) {
	tmuxtest.Require(t)
	rec := filepath.Join(t.TempDir(), "failed.jsonl")
	line := shell("env", "TERM=xterm-256color", bin, "--record", rec, "--timeout", "1s", "--protocol", "2025-11-25", "--", "sh", "-c", "cat >/dev/null")
	x := tmuxtest.Start(t, "startfailed", 100, 30, "sh -c "+shell(line))
	x.WaitFor("the start failed and mcptui stopped the server")
	x.Keys("q")
	x.WaitExit()
	r, err := record.Open(rec)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range r.Entries {
		if e.Type == record.TypeFailed {
			if !e.Stopped || e.Error == "" {
				t.Errorf("the failed entry: %+v; want the error, and stopped", e)
			}
			return
		}
	}
	var types []string
	for _, e := range r.Entries {
		types = append(types, e.Type)
	}
	t.Errorf("no failed entry in the recording, only %q", types)
}
