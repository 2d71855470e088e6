package ui

import (
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/exp/golden"

	"github.com/mcptui/mcptui/internal/testkit/uitest"
	"github.com/mcptui/mcptui/model"
	"github.com/mcptui/mcptui/ui/viewer"
)

const netURL = "http://127.0.0.1:3001/mcp"

// hdr is headers from name, value pairs.
func hdr(kv ...string) []model.Header {
	var out []model.Header
	for i := 0; i+1 < len(kv); i += 2 {
		out = append(out, model.Header{Name: kv[i], Value: kv[i+1]})
	}
	return out
}

// netSession is a scripted session with an HTTP server: initialize
// answered with JSON and a session id, the initialized notification, the
// GET stream (open, two events), a tools/call answered on an SSE stream
// (progress, then the result), a refused POST, a 404, and a header whose
// value holds an escape sequence; the transport's log beside.
func netSession() []model.Event {
	st := func(sec float64) model.Stamp { return model.Stamp{Time: uitest.At(sec), Gen: 1} }
	reqH := hdr("Accept", "application/json, text/event-stream", "Authorization", "[redacted]", "Content-Type", "application/json", "Mcp-Protocol-Version", "2025-11-25", "Mcp-Session-Id", "3f2a… (36 chars, [redacted])")
	sse := hdr("Cache-Control", "no-cache", "Content-Type", "text/event-stream", "Mcp-Session-Id", "3f2a… (36 chars, [redacted])")
	var evs []model.Event
	wire := func(sec float64, dir model.Direction, line string) {
		evs = append(evs, model.Wire{Stamp: st(sec), Dir: dir, Line: []byte(line), Size: len(line)})
	}
	exch := func(sec float64, id uint64, method string, status int, ms float64, resp []model.Header, body string) {
		e := model.Exchange{Stamp: st(sec), ID: id, Method: method, URL: netURL, Transport: "http", Status: status,
			Duration: time.Duration(ms * float64(time.Millisecond)), RequestHeader: reqH, ResponseHeader: resp, ResponseBytes: -1}
		if body != "" {
			e.Body, e.RequestBytes = []byte(body), len(body)
		}
		evs = append(evs, e)
	}
	carried := func(sec float64, id uint64, n int, bytes int64, line string) {
		wire(sec, model.In, line)
		evs = append(evs, model.ExchangeUpdate{Stamp: st(sec), ID: id, Messages: n, Bytes: bytes, Message: []byte(line), Size: len(line)})
	}
	end := func(sec float64, id uint64, n int, bytes int64) {
		evs = append(evs, model.ExchangeUpdate{Stamp: st(sec), ID: id, Messages: n, Bytes: bytes, End: true})
	}
	evs = append(evs, model.Started{Stamp: st(0), Command: []string{netURL}})
	init := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"mcptui","version":"dev"}}}`
	wire(0.1, model.Out, init)
	exch(0.1, 1, "POST", 200, 12.4, hdr("Content-Length", "171", "Content-Type", "application/json", "Mcp-Session-Id", "3f2a… (36 chars, [redacted])", "Set-Cookie", "[redacted]", "X-Evil", "\x1b]52;c;cHduZWQ=\x07boom"), init)
	carried(0.12, 1, 1, 171, `{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-11-25","capabilities":{"tools":{}},"serverInfo":{"name":"everything","version":"2.0.0"}}}`)
	end(0.12, 1, 1, 171)
	evs = append(evs, model.Ready{Stamp: st(0.2), ServerName: "mcp-servers/everything", ServerVersion: "2.0.0", Protocol: "2025-11-25"})
	note := `{"jsonrpc":"2.0","method":"notifications/initialized"}`
	wire(0.2, model.Out, note)
	exch(0.2, 2, "POST", 202, 1.9, hdr("Content-Length", "0"), note)
	end(0.21, 2, 0, 0)
	exch(0.3, 3, "GET", 200, 3.1, sse, "")
	carried(5, 3, 1, 140, `{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"tick"}}`)
	carried(10, 3, 2, 280, `{"jsonrpc":"2.0","method":"notifications/resources/updated","params":{"uri":"demo://1"}}`)
	call := `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"longRunningOperation","arguments":{"duration":2,"steps":2},"_meta":{"progressToken":2}}}`
	wire(12, model.Out, call)
	exch(12, 4, "POST", 200, 4.2, sse, call)
	carried(13, 4, 1, 120, `{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":2,"progress":1,"total":2}}`)
	carried(14, 4, 2, 240, `{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":2,"progress":2,"total":2}}`)
	carried(14.01, 4, 3, 420, `{"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"text","text":"Long running operation completed."}]}}`)
	end(14.02, 4, 3, 420)
	ping := `{"jsonrpc":"2.0","id":3,"method":"ping"}`
	wire(20, model.Out, ping)
	evs = append(evs, model.Exchange{Stamp: st(20), ID: 5, Method: "POST", URL: netURL, Transport: "http", Duration: 800 * time.Microsecond,
		RequestHeader: reqH, Body: []byte(ping), RequestBytes: len(ping), ResponseBytes: -1,
		Err: `dial tcp 127.0.0.1:3001: connect: connection refused`})
	// httpconn shows the observer an answer of its own for a request whose
	// exchange failed, so that it ends in pane 1.
	wire(20, model.In, `{"jsonrpc":"2.0","id":3,"error":{"code":-32000,"message":"no JSON-RPC answer (shown by mcptui): The HTTP request failed"}}`)
	list := `{"jsonrpc":"2.0","id":4,"method":"tools/list"}`
	wire(25, model.Out, list)
	exch(25, 6, "POST", 404, 2.2, hdr("Content-Type", "text/plain"), list)
	end(25.01, 6, 0, 19)
	wire(25.01, model.In, `{"jsonrpc":"2.0","id":4,"error":{"code":-32000,"message":"no JSON-RPC answer (shown by mcptui): HTTP POST answered 404 Not Found"}}`)
	for i, l := range []string{"http POST 200 OK 12.4ms application/json", "http POST 202 Accepted 1.9ms",
		"http GET 200 OK 3.1ms text/event-stream", "oauth: token refreshed (expires in 3600s)"} {
		evs = append(evs, model.Stderr{Stamp: st(0.1 + float64(i)*0.1), Line: l})
	}
	return evs
}

// Pane 5 of an HTTP server lists the exchanges: status, method, time,
// what each carried; the stream still open says so; failures are counted
// in the title. A stdio server's pane 5 stays its stderr.
func TestNetworkViewLists(t *testing.T) {
	m, _ := newTest(t, 160, 48, netSession()...)
	press(m, "5", "z")
	s := screen(m)
	for _, want := range []string{
		"5 Network (6) · 1 open · 2 failed",
		"200 POST   20ms", "initialize #1 · → response",
		"202 POST   10ms", "notifications/initialized",
		"GET", "stream · 2 events · open",
		"tools/call longRunningOperation #2 · 3 events",
		"ERR POST   0.8ms", "connection refused",
		"404 POST", "tools/list #4",
	} {
		if !strings.Contains(s, want) {
			t.Errorf("the network view lacks %q:\n%s", want, s)
		}
	}
	stdio, _ := newTest(t, 160, 48, uitest.Session()...)
	if s := screen(stdio); !strings.Contains(s, "5 Stderr (") || strings.Contains(s, "5 Network") {
		t.Errorf("a stdio server's pane 5 is not its stderr:\n%s", s)
	}
}

// enter opens the exchange in the viewer: URL, status, timing, headers
// (already redacted; a server's escape sequence made visible), the
// messages it carried with their traffic lines.
func TestNetworkViewOpensExchange(t *testing.T) {
	m, _ := newTest(t, 160, 48, netSession()...)
	press(m, "5", "g", "enter")
	if !topIs[*viewer.Viewer[*Model]](m) {
		t.Fatal("enter did not open the viewer")
	}
	press(m, "O") // unfold all
	s := screen(m)
	for _, want := range []string{`"url": "http://127.0.0.1:3001/mcp"`, `"status": "200 OK"`, `"headers": "12.4ms"`,
		`"Authorization": "[redacted]"`, `"Mcp-Session-Id": "3f2a… (36 chars, [redacted])"`, `"Set-Cookie": "[redacted]"`,
		`"traffic": "#1"`, `"method": "initialize"`, `"state": "complete"`} {
		if !strings.Contains(s, want) {
			t.Errorf("the exchange lacks %s:\n%s", want, s)
		}
	}
	if raw := m.render(); strings.Contains(raw, "\x1b]52") {
		t.Error("a header's escape sequence reached the terminal raw")
	}
	if !strings.Contains(s, `\x1b]52;c;cHduZWQ=\x07boom`) && !strings.Contains(s, `\u001b]52;c;cHduZWQ=\u0007boom`) {
		t.Errorf("the hostile header is not shown escaped:\n%s", s)
	}
}

// i and o open the request's and the response's message; t puts the
// traffic pane's cursor on the request's line; f follows again; v shows
// the transport's log and back.
func TestNetworkViewKeys(t *testing.T) {
	m, _ := newTest(t, 160, 48, netSession()...)
	press(m, "5", "g", "j", "j", "j") // the tools/call
	if x := m.selectedExchange(); x == nil || x.ID != 4 {
		t.Fatalf("selected %+v", x)
	}
	press(m, "i")
	if !topIs[*viewer.Viewer[*Model]](m) || topAs[*viewer.Viewer[*Model]](m).Entry().Method != "tools/call" || topAs[*viewer.Viewer[*Model]](m).Entry().Dir != model.Out {
		t.Fatalf("i opened %+v", topAs[*viewer.Viewer[*Model]](m))
	}
	press(m, "esc", "o")
	if !topIs[*viewer.Viewer[*Model]](m) || topAs[*viewer.Viewer[*Model]](m).Entry().Method != "notifications/progress" {
		t.Fatalf("o opened %+v", topAs[*viewer.Viewer[*Model]](m).Entry())
	}
	press(m, "esc", "t")
	if e := m.selectedEntry(); m.focus != paneTraffic || e == nil || e.Method != "tools/call" || e.Dir != model.Out {
		t.Fatalf("t: focus %d, entry %+v", m.focus, e)
	}
	press(m, "5", "j", "i") // the refused ping: its request is in the traffic
	if !topIs[*viewer.Viewer[*Model]](m) || topAs[*viewer.Viewer[*Model]](m).Entry().Method != "ping" {
		t.Fatalf("i on the refused exchange opened %+v", topAs[*viewer.Viewer[*Model]](m))
	}
	press(m, "esc", "f")
	if x := m.selectedExchange(); x == nil || x.ID != 6 {
		t.Errorf("f did not follow the newest: %+v", x)
	}
	press(m, "v")
	if s := screen(m); !strings.Contains(s, "5 Network log (4)") || !strings.Contains(s, "oauth: token refreshed") {
		t.Errorf("v did not show the transport's log:\n%s", s)
	}
	press(m, "v")
	if s := screen(m); !strings.Contains(s, "5 Network (6)") {
		t.Errorf("v did not come back:\n%s", s)
	}
	press(m, "?")
	if s := screen(m); !strings.Contains(s, "its traffic line") || !strings.Contains(s, "exchanges/log") {
		t.Errorf("help lacks the network keys:\n%s", s)
	}
}

// The network view at the smallest and the usual size: pane 5 focused,
// zoomed, and an exchange open.
func TestNetworkScreens(t *testing.T) {
	evs := netSession()
	cases := []screenCase{
		{name: "network", events: evs, msgs: []tea.Msg{kp("5")}},
		{name: "network_zoom", events: evs, msgs: []tea.Msg{kp("5"), kp("z")}},
		{name: "network_exchange", events: evs, msgs: []tea.Msg{kp("5"), kp("k"), kp("k"), kp("enter")}},
	}
	for _, c := range cases {
		for _, size := range [][2]int{{80, 24}, {160, 48}} {
			t.Run(c.name+"_"+sizeName(size), func(t *testing.T) {
				styled, plain := runScreen(t, c, size[0], size[1])
				t.Run("plain", func(t *testing.T) { golden.RequireEqual(t, plain) })
				t.Run("styled", func(t *testing.T) { golden.RequireEqual(t, styled) })
			})
		}
	}
}
