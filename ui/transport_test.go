package ui

import (
	"strings"
	"testing"

	"github.com/mcptui/mcptui/internal/testkit/uitest"
	"github.com/mcptui/mcptui/model"
)

// The header says which HTTP transport: HTTP+SSE for 2024-11-05's, HTTP
// for Streamable HTTP (and while it is not known yet).
func TestHeaderNamesTheHTTPTransport(t *testing.T) {
	const url = "http://127.0.0.1:8123/sse"
	for _, tc := range []struct{ transport, want string }{
		{"HTTP+SSE", "HTTP+SSE " + url},
		{"HTTP", "HTTP " + url},
		{"", "HTTP " + url},
	} {
		m, _ := newTest(t, 140, 30,
			model.Started{Stamp: model.Stamp{Time: uitest.At(0), Gen: 1}, Command: []string{url}},
			model.Ready{Stamp: model.Stamp{Time: uitest.At(0.1), Gen: 1}, ServerName: "old-sse", ServerVersion: "1", Protocol: "2024-11-05", Transport: tc.transport},
		)
		header := strings.SplitN(screen(m), "\n", 2)[0]
		if !strings.Contains(header, tc.want) || tc.transport != "HTTP+SSE" && strings.Contains(header, "HTTP+SSE") {
			t.Errorf("transport %q: header %q, want %q", tc.transport, header, tc.want)
		}
	}
}

// An OAuth step after the screen opened (more scopes, a refresh, a new
// login): the status line says "authorizing…" and what it waits for, the
// URL to open among it, until the authorization ends.
func TestStatusSaysAuthorizing(t *testing.T) {
	const url = "http://127.0.0.1:8123/mcp"
	stamp := func(at float64) model.Stamp { return model.Stamp{Time: uitest.At(at), Gen: 1} }
	events := []model.Event{
		model.Started{Stamp: stamp(0), Command: []string{url}},
		model.Ready{Stamp: stamp(0.1), ServerName: "protected", ServerVersion: "1", Protocol: "2025-11-25", Transport: "HTTP"},
		model.Authorizing{Stamp: stamp(0.2), Text: "the server wants the scope mcp:admin: authorizing again"},
		model.Authorizing{Stamp: stamp(0.3), Text: "open this URL to authorize mcptui at http://127.0.0.1:9000 (waiting 5m0s for the browser):",
			URL: "http://127.0.0.1:9000/authorize?client_id=c1"},
	}
	m, _ := newTest(t, 200, 30, events...)
	m.notice = "sent tools/call…" // what the request that needed it left
	status := strings.Split(screen(m), "\n")[1]
	for _, want := range []string{"authorizing… open this URL to authorize mcptui", "(waiting 5m0s for the browser): http://127.0.0.1:9000/authorize?client_id=c1"} {
		if !strings.Contains(status, want) {
			t.Errorf("status %q lacks %q", status, want)
		}
	}
	m, _ = newTest(t, 200, 30, append(events, model.Authorizing{Stamp: stamp(0.4)})...)
	if status := strings.Split(screen(m), "\n")[1]; strings.Contains(status, "authorizing") {
		t.Errorf("status %q after the authorization ended", status)
	}
}
