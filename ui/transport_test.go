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
