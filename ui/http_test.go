package ui

import (
	"strings"
	"testing"

	"github.com/mcptui/mcptui/internal/testkit/uitest"
	"github.com/mcptui/mcptui/model"
)

// An HTTP server: the header names the transport and the URL where a pid
// would be, and pane 5 is the network view (exchanges, or the transport's
// log).
func TestHeaderShowsHTTPTransport(t *testing.T) {
	const url = "http://127.0.0.1:8123/mcp"
	m, _ := newTest(t, 140, 30,
		model.Started{Stamp: model.Stamp{Time: uitest.At(0), Gen: 1}, Command: []string{url}},
		model.Ready{Stamp: model.Stamp{Time: uitest.At(0.1), Gen: 1}, ServerName: "gosdk-http", ServerVersion: "1", Protocol: "2025-11-25"},
		model.Stderr{Stamp: model.Stamp{Time: uitest.At(0.1), Gen: 1}, Line: "http POST 200 OK 1.2ms application/json"},
	)
	s := screen(m)
	header := strings.SplitN(s, "\n", 2)[0]
	if !strings.Contains(header, "HTTP "+url) || strings.Contains(header, "pid") {
		t.Errorf("header: %q", header)
	}
	if !strings.Contains(s, "5 Network (0)") {
		t.Errorf("no network pane:\n%s", s)
	}
	// The transport's log (what mcp writes where stderr would be) is one
	// key away.
	press(m, "5", "v")
	if s := screen(m); !strings.Contains(s, "5 Network log (1)") || !strings.Contains(s, "http POST 200 OK") {
		t.Errorf("no transport log:\n%s", s)
	}
}
