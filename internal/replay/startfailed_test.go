package replay

import (
	"strings"
	"testing"

	"github.com/mcptui/mcptui/internal/record"
	"github.com/mcptui/mcptui/model"
)

// A recording's failed start with "stopped" replays as the live session
// folded it: mcptui stopped the server, and the initialize it gave up on
// timed out rather than died with the connection.
func TestReplayKeepsThatMcptuiStoppedTheServer(t *testing.T) {
	t.Parallel()
	rec, err := record.Read(strings.NewReader(strings.Join([]string{
		`{"type":"header","format":"mcptui-recording","version":1,"t":"2026-12-03T10:00:00Z","ms":0,"mode":"inspect","command":"./silent"}`,
		`{"type":"sent","t":"2026-12-03T10:00:00.001Z","ms":1,"size":1,"msg":{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"mcptui","version":"dev"}}}}`,
		`{"type":"exit","t":"2026-12-03T10:00:01.010Z","ms":1010,"status":"exit status 0"}`,
		`{"type":"failed","t":"2026-12-03T10:00:01.011Z","ms":1011,"error":"initialize: jsonrpc error -32001: Request timed out","stopped":true}`,
	}, "\n") + "\n"))
	if err != nil {
		t.Fatal(err)
	}
	s := model.New(Config(rec, 0))
	s.ApplyAll(Events(rec))
	if !s.Conn().StoppedByUs {
		t.Errorf("the replayed connection: %+v; want stopped by mcptui", s.Conn())
	}
	if r := s.Recent(); len(r) != 1 || r[0].Outcome.Kind != model.FailedLocally {
		t.Errorf("the replayed initialize: %+v; want failed with the start", r)
	}
}
