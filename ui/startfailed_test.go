package ui

import (
	"regexp"
	"strings"
	"testing"

	"github.com/mcptui/mcptui/internal/testkit/uitest"
	"github.com/mcptui/mcptui/model"
)

// TestFailedStartSaysMcptuiStoppedTheServer: a server silent on
// initialize, whose timer fires, is stopped by mcptui: pane 1 says the
// start failed and that mcptui then stopped the server, not "the server
// stopped: exit status 0" as if it had quit; the initialize's row says
// "timed out", not "conn died". So does one that answers initialize with
// an error, counted once. In either order of the two events (the
// session stops the server, then reports the failure; the exit can come
// later). Over HTTP, mcptui closed the connection. A server that exits
// during the start still reads as stopping.
func TestFailedStartSaysMcptuiStoppedTheServer(t *testing.T) {
	const failure = `initialize: jsonrpc error -32001: Request timed out (data {"timeoutMs":2000})`
	initialize := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"mcptui","version":"1"}}}`
	start := []model.Event{
		model.Started{Stamp: model.Stamp{Time: uitest.At(0)}, Command: []string{"./silent"}, PID: 7},
		model.Wire{Stamp: model.Stamp{Time: uitest.At(0.1)}, Dir: model.Out, Line: []byte(initialize), Size: len(initialize)},
	}
	exited := model.Exited{Stamp: model.Stamp{Time: uitest.At(2.1)}, Status: "exit status 0"}
	failed := model.Failed{Stamp: model.Stamp{Time: uitest.At(2.1)}, Err: failure, Stopped: true}
	for name, evs := range map[string][]model.Event{
		"exit first":    append(append([]model.Event{}, start...), exited, failed),
		"failure first": append(append([]model.Event{}, start...), failed, exited),
	} {
		t.Run(name, func(t *testing.T) {
			m, _ := newTest(t, 120, 30, evs...)
			s := screen(m)
			for _, want := range []string{"✗ the start failed and mcptui stopped the server", "initialize: jsonrpc error -32001: Request timed out"} {
				if !strings.Contains(s, want) {
					t.Errorf("want %q:\n%s", want, s)
				}
			}
			if !regexp.MustCompile(`→1\s+initialize\s+2s timed out`).MatchString(s) {
				t.Errorf("the initialize's row does not say it timed out:\n%s", s)
			}
			for _, not := range []string{"the server stopped", "conn died"} {
				if strings.Contains(s, not) {
					t.Errorf("says %q:\n%s", not, s)
				}
			}
		})
	}
	// At 80 columns the sentence wraps, its second row under its first
	// word (the prefix's width in cells: "✗" is one cell, three bytes).
	m, _ := newTest(t, 80, 24, append(append([]model.Event{}, start...), exited, failed)...)
	if s := screen(m); !regexp.MustCompile(`[┃│] ✗ the start failed and mcptui stopped the *[┃│][^\n]*\n[┃│]   server \(exit status 0\)`).MatchString(s) {
		t.Errorf("at 80 columns:\n%s", s)
	}
	// An error answer to initialize: the start failed once (one error,
	// not the answer and the failure both), mcptui stopped the server.
	answer := `{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"no initialize for you"}}`
	m, _ = newTest(t, 120, 30, append(append([]model.Event{}, start...),
		model.Wire{Stamp: model.Stamp{Time: uitest.At(0.2)}, Dir: model.In, Line: []byte(answer), Size: len(answer)},
		model.Exited{Stamp: model.Stamp{Time: uitest.At(0.3)}, Status: "exit status 0"},
		model.Failed{Stamp: model.Stamp{Time: uitest.At(0.3)}, Err: "initialize: jsonrpc error -32602: no initialize for you", Stopped: true})...)
	if s := screen(m); !strings.Contains(s, "✗ the start failed and mcptui stopped the server") ||
		!regexp.MustCompile(`→1\s+initialize\s+\S+\s+error -32602`).MatchString(s) || !strings.Contains(s, "errors 1 ") {
		t.Errorf("an error answer to initialize:\n%s", s)
	}
	// Over HTTP there is no process: mcptui closed the connection.
	m, _ = newTest(t, 120, 30,
		model.Started{Stamp: model.Stamp{Time: uitest.At(0)}, Command: []string{"http://127.0.0.1:1/mcp"}},
		model.Wire{Stamp: model.Stamp{Time: uitest.At(0.1)}, Dir: model.Out, Line: []byte(initialize), Size: len(initialize)},
		model.Failed{Stamp: model.Stamp{Time: uitest.At(2.1)}, Err: "mcp: connecting to http://127.0.0.1:1/mcp: " + failure, Stopped: true})
	if s := screen(m); !strings.Contains(s, "✗ the start failed and mcptui closed the connection") || strings.Contains(s, "stopped the server") {
		t.Errorf("over HTTP:\n%s", s)
	}
	crashed := append(append([]model.Event{}, start...),
		model.Exited{Stamp: model.Stamp{Time: uitest.At(0.5)}, Status: "exit status 3"},
		model.Failed{Stamp: model.Stamp{Time: uitest.At(0.5)}, Err: "initialize: jsonrpc error -32000: the stdio server exited"})
	m, _ = newTest(t, 120, 30, crashed...)
	if s := screen(m); !strings.Contains(s, "✗ the server stopped: exit status 3") || strings.Contains(s, "mcptui stopped") {
		t.Errorf("a server that exited during its start:\n%s", s)
	}
}
