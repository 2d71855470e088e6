package hostconfig

import (
	"reflect"
	"strings"
	"testing"
)

// VS Code's oauth block (clientId, with the editor's variables), and the
// coding agent's callbackPort and scopes; what mcptui does not read, a
// wrong type and a block on a stdio server are problems, not failures.
func TestOAuthBlock(t *testing.T) {
	vars := Vars{Getenv: env(map[string]string{"CLIENT": "c-123"}), Home: "/home/u"}
	servers, err := Parse([]byte(`{"servers": {
		"remote": {"type": "http", "url": "https://example.test/mcp", "oauth": {"clientId": "${env:CLIENT}"}},
		"agent": {"url": "https://example.test/mcp", "oauth": {"clientId": "a", "callbackPort": 8123, "scopes": "mcp:read  mcp:write", "authServerMetadataUrl": "https://as.test/x"}},
		"bad": {"type": "sse", "url": "https://example.test/sse", "oauth": {"clientId": 7, "callbackPort": 70000}},
		"local": {"command": "srv", "oauth": {"clientId": "x"}},
		"none": {"type": "http", "url": "https://example.test/mcp"}
	}}`), VSCode, vars)
	if err != nil {
		t.Fatal(err)
	}
	if r := one(t, servers, "remote"); !reflect.DeepEqual(r.OAuth, &OAuth{ClientID: "c-123"}) || len(r.Problems) != 0 {
		t.Errorf("remote: %+v, problems %v", r.OAuth, r.Problems)
	}
	a := one(t, servers, "agent")
	if !reflect.DeepEqual(a.OAuth, &OAuth{ClientID: "a", CallbackPort: 8123, Scopes: []string{"mcp:read", "mcp:write"}}) {
		t.Errorf("agent: %+v", a.OAuth)
	}
	if len(a.Problems) != 1 || !strings.Contains(a.Problems[0], "oauth.authServerMetadataUrl is not read by mcptui") {
		t.Errorf("agent problems %v", a.Problems)
	}
	b := one(t, servers, "bad")
	if !reflect.DeepEqual(b.OAuth, &OAuth{}) || len(b.Problems) != 2 || !strings.Contains(b.Problems[0], "oauth.callbackPort: 70000 is not a port") || !strings.Contains(b.Problems[1], "oauth.clientId:") {
		t.Errorf("bad: %+v, problems %q", b.OAuth, b.Problems)
	}
	if l := one(t, servers, "local"); l.OAuth != nil || len(l.Problems) != 1 || !strings.Contains(l.Problems[0], "oauth block on a stdio server") {
		t.Errorf("local: %+v, problems %v", l.OAuth, l.Problems)
	}
	if n := one(t, servers, "none"); n.OAuth != nil {
		t.Errorf("none: %+v", n.OAuth)
	}
}
