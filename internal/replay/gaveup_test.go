package replay

import (
	"strings"
	"testing"

	"github.com/mcptui/mcptui/internal/record"
	"github.com/mcptui/mcptui/model"
)

// A recording's "gaveUp" reaches the replayed session's call: the replay's
// post-mortem can say which timer fired, as the live inspector's does.
func TestReplayKeepsWhichTimerFired(t *testing.T) {
	t.Parallel()
	rec, err := record.Read(strings.NewReader(strings.Join([]string{
		`{"type":"header","format":"mcptui-recording","version":1,"t":"2026-12-03T10:00:00Z","ms":0,"mode":"call","command":"./server"}`,
		`{"type":"sent","t":"2026-12-03T10:00:00.001Z","ms":1,"size":1,"msg":{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"mcptui","version":"dev"}}}}`,
		`{"type":"received","t":"2026-12-03T10:00:00.002Z","ms":2,"size":1,"msg":{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-11-25","capabilities":{},"serverInfo":{"name":"s","version":"1"}}}}`,
		`{"type":"sent","t":"2026-12-03T10:00:00.100Z","ms":100,"size":1,"msg":{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"slow"}}}`,
		`{"type":"sent","t":"2026-12-03T10:00:01.100Z","ms":1100,"size":1,"gaveUp":{"why":"timeout","timeout":"1s","afterMs":1000},"msg":{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":2,"reason":"Request timed out"}}}`,
	}, "\n") + "\n"))
	if err != nil {
		t.Fatal(err)
	}
	s := model.New(Config(rec, 0))
	s.ApplyAll(Events(rec))
	for _, c := range s.Recent() {
		if c.Method == "tools/call" {
			if c.GaveUp == nil || c.GaveUp.Why != "timeout" || c.GaveUp.Timeout.String() != "1s" {
				t.Errorf("the replayed call gave up: %+v", c.GaveUp)
			}
			return
		}
	}
	t.Fatal("no tools/call in the replayed session")
}
