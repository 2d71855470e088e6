package ui

import (
	"strings"
	"testing"

	"github.com/mcptui/mcptui/internal/testkit/uitest"
	"github.com/mcptui/mcptui/model"
)

// TestHeaderKeepsTheStateWhole: at 80 and 60 columns the connection's
// state is never cut, whatever else the header carries (a long name and
// version, a long command, a long URL, a negotiation step, a restart,
// offered versions); what gives way is the pid or URL, the offered list,
// then the name.
func TestHeaderKeepsTheStateWhole(t *testing.T) {
	at := func(s float64) model.Stamp { return model.Stamp{Time: uitest.At(s), Gen: 1} }
	long := "an-mcp-server-with-a-rather-long-descriptive-name"
	cases := []struct {
		name  string
		evs   []model.Event
		state string
	}{
		{"long name and version", []model.Event{
			model.Started{Stamp: at(0), Command: []string{"node", "server.js"}, PID: 4242},
			model.Ready{Stamp: at(1), ServerName: long, ServerVersion: "2026.8.31-beta.4-with-build-metadata", Protocol: "2025-11-25", PID: 4242, Offered: []string{"2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"}},
		}, "● ready"},
		{"long command, no name yet", []model.Event{
			model.Started{Stamp: at(0), Command: []string{"npx", "-y", "@modelcontextprotocol/server-everything@2026.8.31", "stdio", "--verbose"}, PID: 4242},
		}, "● starting"},
		{"negotiation step", []model.Event{
			model.Started{Stamp: at(0), Command: []string{"npx", "-y", "@modelcontextprotocol/server-everything@2026.8.31"}, PID: 4242},
			model.Negotiating{Stamp: at(1), Step: "probe answered in 81ms with error -32601: an initialize-era server"},
		}, "● negotiating"},
		{"a name of escape sequences", []model.Event{
			model.Started{Stamp: at(0), Command: []string{"./hostile"}, PID: 4242},
			model.Ready{Stamp: at(1), ServerName: "hostile\x1b[2J\x1b[H\x1b]0;pwned\x07\x1b]52;c;cm0gLXJmIC8=\x07", ServerVersion: "6.6.6\x1b[2J\x1b[H", Protocol: "2025-11-25", PID: 4242},
		}, "● ready"},
		{"long URL", []model.Event{
			model.Started{Stamp: at(0), Command: []string{"https://mcp.example.com/a/rather/long/path/to/the/mcp/endpoint"}},
			model.Ready{Stamp: at(1), ServerName: long, ServerVersion: "1.0.0", Protocol: "2025-11-25"},
		}, "● ready"},
	}
	for _, c := range cases {
		for _, w := range []int{160, 80, 60} {
			m, _ := newTest(t, w, 24, c.evs...)
			head := strings.SplitN(screen(m), "\n", 2)[0]
			if !strings.Contains(head, c.state) {
				t.Errorf("%s at %d columns cuts the state %q:\n%s", c.name, w, c.state, head)
			}
			if !strings.Contains(head, "errors 0") {
				t.Errorf("%s at %d columns lost the counters:\n%s", c.name, w, head)
			}
		}
	}
}
