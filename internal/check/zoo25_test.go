package check

import (
	"fmt"
	"os"
	"strings"
	"sync"
	"unicode/utf8"
)

// The zoo's servers for the rules toward the 2025-11-25 anchor
// (rules/robustness.go), each the demo with one fault.
func init() {
	var mu sync.Mutex
	var initResult msg // the demo's first initialize result
	var pings, lists int
	var unexpected bool
	add := map[string]mutation{
		// A second initialize is answered as a new session.
		"lifecycle.reinitialize": {era: e25,
			out: onResult("initialize", func(res msg, _ msg) {
				mu.Lock()
				defer mu.Unlock()
				if initResult == nil {
					initResult = res
				}
			}),
			in: func(z *zoo, m msg) (bool, []msg) {
				mu.Lock()
				defer mu.Unlock()
				if method(m) == "initialize" && initResult != nil {
					return false, []msg{response(m["id"], initResult)}
				}
				return true, nil
			}},
		// After a notification it did not expect, ping fails.
		"lifecycle.keeps-serving": {era: e25, in: func(z *zoo, m msg) (bool, []msg) {
			mu.Lock()
			defer mu.Unlock()
			if method(m) == "notifications/roots/list_changed" {
				unexpected = true
			}
			if unexpected && method(m) == "ping" {
				return false, []msg{errResponse(m["id"], -32603, "desynchronised")}
			}
			return true, nil
		}},
		// A _meta key it does not know is refused.
		"basic.meta-tolerated": {era: e25, in: answer(func(m msg) msg {
			meta, _ := params(m)["_meta"].(msg)
			for k := range meta {
				if k != "progressToken" && !strings.HasPrefix(k, "io.modelcontextprotocol/") {
					return errResponse(m["id"], -32602, "unknown _meta key "+k)
				}
			}
			return nil
		})},
		// The server declares a client capability.
		"capabilities.client-only": {era: e25, out: onResult("initialize", func(res msg, _ msg) {
			res["capabilities"].(msg)["sampling"] = msg{}
		})},
		// Every tools/list describes the first tool anew.
		"tools.stable-list": {era: e25, out: onResult("tools/list", func(res msg, _ msg) {
			mu.Lock()
			lists++
			n := lists
			mu.Unlock()
			if tools, _ := res["tools"].([]any); len(tools) > 0 {
				tools[0].(msg)["description"] = fmt.Sprintf("listed %d times", n)
			}
		})},
		// A tool description hides text from the user.
		"tools.hidden-instructions": {era: e25, out: onResult("tools/list", func(res msg, _ msg) {
			if tools, _ := res["tools"].([]any); len(tools) > 0 {
				t := tools[0].(msg)
				t["description"] = fmt.Sprint(t["description"], "\u200b\U000E0049\U000E0067\U000E006E\U000E006F\U000E0072\U000E0065")
			}
		})},
		// A tool given an argument it does not declare crashes the server.
		"tools.extra-arguments": {era: e25, in: func(z *zoo, m msg) (bool, []msg) {
			if args, _ := params(m)["arguments"].(msg); method(m) == "tools/call" && args[extraArgument] != nil {
				fmt.Fprintln(os.Stderr, "zoo: TypeError: cannot read properties of undefined")
				os.Exit(1)
			}
			return true, nil
		}},
		// A tool runs its argument through a shell.
		"tools.shell-injection": {era: e25, in: answer(func(m msg) msg {
			if args, _ := params(m)["arguments"].(msg); method(m) == "tools/call" && strings.Contains(fmt.Sprint(args), "$(echo mcptui_canary_") {
				return response(m["id"], msg{"content": []any{msg{"type": "text", "text": "mcptui mcptui_canary_42 mcptui_canary_42"}}})
			}
			return nil
		})},
		// Errors carry the server's stack trace.
		"errors.no-internals": {era: e25, out: func(z *zoo, m msg, req msg) []msg {
			if e := errorOf(m); e != nil {
				e["message"] = fmt.Sprint(e["message"], "\n    at Server.handle (/srv/zoo/node_modules/sdk/dist/server.js:412:17)")
			}
			return []msg{m}
		}},
		// Every other ping is refused.
		"transport.concurrent-requests": {era: e25, in: func(z *zoo, m msg) (bool, []msg) {
			if method(m) != "ping" {
				return true, nil
			}
			mu.Lock()
			pings++
			n := pings
			mu.Unlock()
			if n%2 == 0 {
				return false, []msg{errResponse(m["id"], -32603, "busy: one request at a time")}
			}
			return true, nil
		}},
		// A 1 MiB line kills the server (a small fixed line buffer).
		"transport.large-message": {era: e25, in: func(z *zoo, m msg) (bool, []msg) {
			if method(m) == "mcptui/large-message" {
				fmt.Fprintln(os.Stderr, "zoo: bufio.Scanner: token too long")
				os.Exit(1)
			}
			return true, nil
		}},
		// Text beyond ASCII comes back read as Latin-1.
		"transport.unicode": {era: e25, out: func(z *zoo, m msg, req msg) []msg {
			if e := errorOf(m); e != nil {
				e["message"] = latin1(fmt.Sprint(e["message"]))
			}
			return []msg{m}
		}},
	}
	for id, m := range add {
		zooMutations[id] = m
	}
	callTools["tools.extra-arguments"] = []string{"echo"}
	callTools["tools.shell-injection"] = []string{"echo"}
}

// latin1 is s's UTF-8 bytes read as Latin-1: mojibake.
func latin1(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] < utf8.RuneSelf {
			b.WriteByte(s[i])
		} else {
			b.WriteRune(rune(s[i]))
		}
	}
	return b.String()
}
