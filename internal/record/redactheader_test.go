package record

import (
	"strings"
	"testing"
)

func TestRedactHeader(t *testing.T) {
	sid := "3f2a9c1e-77b0-4d1a-9e55-0c8d2b7f6a41"
	for _, c := range []struct{ name, value, want string }{
		{"Authorization", "Bearer s3cret", Redacted},
		{"Proxy-Authorization", "Basic dXNlcjpwYXNz", Redacted},
		{"Cookie", "sid=abc", Redacted},
		{"Set-Cookie", "sid=abc; HttpOnly", Redacted},
		{"X-Api-Key", "k-123", Redacted},
		{"X-Auth-Token", "t-123", Redacted},
		{"Mcp-Session-Id", sid, "3f2a… (36 chars, " + Redacted + ")"},
		{"Mcp-Session-Id", "short-id", Redacted},
		{"WWW-Authenticate", `Bearer resource_metadata="https://a.example/.well-known/oauth-protected-resource", scope="mcp"`,
			`Bearer resource_metadata="https://a.example/.well-known/oauth-protected-resource", scope="mcp"`},
		{"Content-Type", "text/event-stream", "text/event-stream"},
		{"X-Debug", "token ghp_abcdefghijklmnopqrstuvwxyz here", "token " + Redacted + " here"},
		{"Location", "https://u:pw@h.example/cb?code=1&access_token=zz", "https://u:" + strings.ReplaceAll(Redacted, "[", "%5B")},
	} {
		got := RedactHeader(c.name, c.value)
		if c.name == "Location" {
			if strings.Contains(got, "pw@") || strings.Contains(got, "zz") {
				t.Errorf("%s: %q keeps a secret", c.name, got)
			}
			continue
		}
		if got != c.want {
			t.Errorf("%s: %q → %q, want %q", c.name, c.value, got, c.want)
		}
	}
	if got := RedactURL("https://h.example/mcp?api_key=k123&x=1"); strings.Contains(got, "k123") || !strings.Contains(got, "x=1") {
		t.Errorf("RedactURL: %q", got)
	}
}
