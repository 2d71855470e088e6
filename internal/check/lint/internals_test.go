package lint

import (
	"encoding/json"
	"slices"
	"testing"
)

// An error carrying a stack frame or a private address is a finding; the
// usual messages, loopback addresses and version numbers are not.
func TestErrorInternals(t *testing.T) {
	for _, c := range []struct {
		message string
		leak    bool
	}{
		{"TypeError: x is undefined\n    at Server.handle (/srv/app/node_modules/sdk/dist/server.js:412:17)", true},
		{"boom\n    at /srv/app/index.js:3:9", true},
		{"Traceback (most recent call last):\n  File \"/app/main.py\", line 3, in <module>", true},
		{"panic: nil map\n\ngoroutine 1 [running]:\nmain.main()\n\t/src/main.go:9 +0x1d", true},
		{"\tat com.example.Server.handle(Server.java:42)", true},
		{"connect ECONNREFUSED 10.1.2.3:5432", true},
		{"upstream 192.168.0.12 refused", true},
		{"Method not found", false},
		{"Tool mcptui-check-no-such-tool not found", false},
		{"connect ECONNREFUSED 127.0.0.1:5432", false},
		{"needs version 10.2.3.4.5 or newer", false},
		{"Access denied - path outside allowed directories: /tmp/x", false},
	} {
		m, _ := json.Marshal(c.message)
		lines := append(splitLines(initLines), `>{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x"}}`,
			`<{"jsonrpc":"2.0","id":1,"error":{"code":-32603,"message":`+string(m)+`}}`)
		if got := slices.Contains(ids(feed(t, lines...)), "errors.no-internals"); got != c.leak {
			t.Errorf("%q: finding %v, want %v", c.message, got, c.leak)
		}
	}
}
