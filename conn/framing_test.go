package conn_test

// Rules 4-6: framing of outgoing and incoming lines, the line limit, and
// lines that are not JSON-RPC messages.

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcptui/mcptui/conn"
)

// Rule 4: lines written from many goroutines at once never interleave, even
// when each is far larger than the pipe's atomic write size.
func TestWritesNeverInterleave(t *testing.T) {
	t.Parallel()
	h := start(t, conn.Options{})
	const goroutines, calls = 16, 4
	var wg sync.WaitGroup
	for g := range goroutines {
		wg.Go(func() {
			for i := range calls {
				params := map[string]string{
					"who": fmt.Sprintf("%d/%d", g, i),
					"pad": strings.Repeat(string(rune('a'+g)), 64<<10+g*100+i),
				}
				res, err := h.call("echo", params)
				if err != nil {
					t.Errorf("call %d/%d: %v", g, i, err)
					return
				}
				var got map[string]string
				if err := json.Unmarshal(res, &got); err != nil || got["who"] != params["who"] || got["pad"] != params["pad"] {
					t.Errorf("call %d/%d: wrong result (%d bytes, err %v)", g, i, len(res), err)
				}
			}
		})
	}
	wg.Wait()
	h.ping()
	if s := h.stderr.String(); strings.Contains(s, "bad line") {
		t.Fatalf("the server read corrupt lines: %s", s)
	}
	for _, e := range h.eventsOf(conn.Sent) {
		if !json.Valid(e.Line) || bytes.IndexByte(e.Line, '\n') >= 0 || e.Size != len(e.Line) {
			t.Fatalf("a Sent line is not one whole JSON value: size %d, %.200q", e.Size, e.Line)
		}
	}
}

// Rule 4: incoming lines may end in \r\n.
func TestIncomingCRLF(t *testing.T) {
	t.Parallel()
	h := start(t, conn.Options{})
	res := h.mustCall("writeonly", map[string]string{"data": "" +
		`{"jsonrpc":"2.0","method":"crlf/note","params":{"a":1}}` + "\r\n" +
		`{"jsonrpc":"2.0","id":$ID,"result":{"crlf":true}}` + "\r\n"})
	jsonEq(t, res, `{"crlf":true}`)
	notes := h.notes.waitFor(t, "crlf/note", func(ns []conn.Notification) bool { return len(ns) > 0 })
	if notes[0].Method != "crlf/note" || string(notes[0].Params) != `{"a":1}` {
		t.Fatalf("notification %q %q", notes[0].Method, notes[0].Params)
	}
	if d := h.eventsOf(conn.Discarded); len(d) != 0 {
		t.Fatalf("discarded: %s", dump(d))
	}
}

// Rule 4: a UTF-8 BOM before the first line is ignored.
func TestIncomingBOM(t *testing.T) {
	t.Parallel()
	h := start(t, conn.Options{}, "-bom")
	h.ping()
	h.ping()
	if d := h.eventsOf(conn.Discarded); len(d) != 0 {
		t.Fatalf("discarded: %s", dump(d))
	}
}

// Rule 4: empty lines are ignored.
func TestIncomingEmptyLines(t *testing.T) {
	t.Parallel()
	h := start(t, conn.Options{})
	res := h.mustCall("writeonly", map[string]string{"data": "\n\n\r\n" + `{"jsonrpc":"2.0","id":$ID,"result":{"after":"empty lines"}}` + "\n\n"})
	jsonEq(t, res, `{"after":"empty lines"}`)
	h.ping()
	if d := h.eventsOf(conn.Discarded); len(d) != 0 {
		t.Fatalf("empty lines were reported as discarded: %s", dump(d))
	}
}

// paddedResponse is a response to id (the literal $ID for the fake server to
// fill in, standing for a one-digit id) of exactly n bytes.
func paddedResponse(t *testing.T, n int) string {
	t.Helper()
	const prefix, suffix = `{"jsonrpc":"2.0","id":$ID,"result":"`, `"}`
	pad := n - (len(prefix) - len("$ID") + 1) - len(suffix)
	if pad < 0 {
		t.Fatalf("paddedResponse(%d) is too short", n)
	}
	return prefix + strings.Repeat("x", pad) + suffix
}

// Rule 5: a line of exactly MaxLineBytes is accepted (also before \r\n), one
// byte more is discarded with its full size reported, its request times
// out, and the next line is unaffected.
func TestLineLimitExact(t *testing.T) {
	t.Parallel()
	const limit = 200
	for _, ending := range []string{"\n", "\r\n"} {
		t.Run(fmt.Sprintf("%q", ending), func(t *testing.T) {
			t.Parallel()
			h := start(t, conn.Options{MaxLineBytes: limit})
			// The first call gets id 1: paddedResponse counts one digit.
			res, err := h.call("writeonly", map[string]string{"data": paddedResponse(t, limit) + ending})
			if err != nil {
				t.Fatalf("a line of exactly the limit: %v", err)
			}
			if want := `"` + strings.Repeat("x", limit-len(`{"jsonrpc":"2.0","id":1,"result":""}`)) + `"`; string(res) != want {
				t.Fatalf("result %s, want %s", res, want)
			}

			// Id 2: one byte over the limit.
			_, err = h.call("writeonly", map[string]string{"data": paddedResponse(t, limit+1) + ending}, conn.WithTimeout(50*time.Millisecond))
			wantErr(t, err, conn.CodeTimeout, "Request timed out")
			d := h.events.waitFor(t, "the discarded line", func(es []conn.Event) bool { return len(discarded(es)) > 0 })
			e := discarded(d)[0]
			if e.Line != nil || e.Size < limit+1 || e.Size > limit+len(ending) || e.Err == nil {
				t.Fatalf("Discarded event: line %q size %d err %v, want nil line, size %d, an error", e.Line, e.Size, e.Err, limit+1)
			}
			h.ping()
		})
	}
}

// discarded are the Discarded events in es.
func discarded(es []conn.Event) []conn.Event {
	var out []conn.Event
	for _, e := range es {
		if e.Kind == conn.Discarded {
			out = append(out, e)
		}
	}
	return out
}

// Rule 5: lines spanning many reads: over MaxLineBytes is discarded (the
// Observer gets its full size), the request times out with its data, and
// the next call is answered; exactly the limit is accepted.
func TestLongLineDiscarded(t *testing.T) {
	t.Parallel()
	const limit = 1 << 20
	h := start(t, conn.Options{MaxLineBytes: limit})
	_, err := h.call(fmt.Sprintf("long/%d", limit+1), nil, conn.WithTimeout(50*time.Millisecond))
	e := wantErr(t, err, conn.CodeTimeout, "Request timed out")
	jsonEq(t, e.Data, `{"timeoutMs":50}`)
	d := h.events.waitFor(t, "the discarded line", func(es []conn.Event) bool { return len(discarded(es)) > 0 })
	if ev := discarded(d)[0]; ev.Line != nil || ev.Size != limit+1 || ev.Err == nil {
		t.Fatalf("Discarded event: line %d bytes, size %d, err %v; want nil, %d, an error", len(ev.Line), ev.Size, ev.Err, limit+1)
	}
	h.ping()
	res := h.mustCall(fmt.Sprintf("long/%d", limit), nil)
	if len(res) != limit-len(`{"jsonrpc":"2.0","id":3,"result":}`) {
		t.Fatalf("the line of exactly the limit gave a result of %d bytes", len(res))
	}
	if n := len(h.eventsOf(conn.Discarded)); n != 1 {
		t.Fatalf("%d lines discarded, want 1", n)
	}
}

// Rule 5: the default limit is 16 MiB.
func TestDefaultLineLimit(t *testing.T) {
	t.Parallel()
	const limit = 16 << 20
	h := start(t, conn.Options{})
	_, err := h.call(fmt.Sprintf("long/%d", limit+1), nil, conn.WithTimeout(50*time.Millisecond))
	wantErr(t, err, conn.CodeTimeout, "Request timed out")
	d := h.events.waitFor(t, "the discarded line", func(es []conn.Event) bool { return len(discarded(es)) > 0 })
	if ev := discarded(d)[0]; ev.Size != limit+1 {
		t.Fatalf("Discarded size %d, want %d", ev.Size, limit+1)
	}
	res := h.mustCall(fmt.Sprintf("long/%d", limit), nil)
	if len(res) != limit-len(`{"jsonrpc":"2.0","id":2,"result":}`) {
		t.Fatalf("the 16 MiB line gave a result of %d bytes", len(res))
	}
}

// Rule 6: lines that are not JSON-RPC messages are dropped, each reported to
// the Observer as Discarded (with the line, its size and a reason), and the
// connection keeps going.
func TestGarbageLinesDiscarded(t *testing.T) {
	t.Parallel()
	h := start(t, conn.Options{})
	garbage := []string{
		`not json`,
		`{"jsonrpc":"2.0","id":1,`,
		`[{"jsonrpc":"2.0","method":"in/a/batch"}]`,
		`42`,
		`"a string"`,
		`null`,
		`{"jsonrpc":"2.0"}`,
		`{"jsonrpc":"2.0","method":"dup","method":"dup"}`,
		`{"jsonrpc":"2.0","method":7}`,
		"{\"jsonrpc\":\"2.0\",\"method\":\"bad/utf8\",\"params\":{\"s\":\"\xff\xfe\"}}",
		`{"jsonrpc":"2.0","id":424242,"result":{},"error":{"code":1,"message":"both, unknown id"}}`,
		`{"jsonrpc":"2.0","id":424243,"result":{}}`,
		`{"jsonrpc":"2.0","id":null,"result":{}}`,
		`{"jsonrpc":"2.0","id":"not-ours","result":{}}`,
		`{"jsonrpc":"2.0","method":"n"} trailing`,
	}
	data := strings.Join(garbage, "\n") + "\n"
	jsonEq(t, h.mustCall("write", map[string]string{"b64": base64.StdEncoding.EncodeToString([]byte(data))}), `{}`)
	h.ping()
	d := discarded(h.events.all())
	if len(d) != len(garbage) {
		t.Fatalf("%d lines discarded, want %d:\n%s", len(d), len(garbage), dump(d))
	}
	for i, e := range d {
		if string(e.Line) != garbage[i] || e.Size != len(garbage[i]) || e.Err == nil {
			t.Errorf("Discarded #%d: line %q size %d err %v; want %q size %d and a reason", i, e.Line, e.Size, e.Err, garbage[i], len(garbage[i]))
		}
	}
	for _, n := range h.notes.all() {
		t.Errorf("a discarded line reached OnNotification: %s %s", n.Method, n.Params)
	}
}

// Rule 6: a response to a pending call with both result and error fails the
// call with -32000 saying so.
func TestResponseWithResultAndError(t *testing.T) {
	t.Parallel()
	h := start(t, conn.Options{})
	_, err := h.call("writeonly", lines(`{"jsonrpc":"2.0","id":$ID,"result":{"ok":true},"error":{"code":-1,"message":"no"}}`))
	wantErr(t, err, conn.CodeConnection, "The server sent both a result and an error")
	h.ping()
}

// Rule 6: a malformed error object fails the call with -32000 saying so.
func TestMalformedErrorObject(t *testing.T) {
	t.Parallel()
	h := start(t, conn.Options{})
	for _, errObj := range []string{
		`"nope"`,
		`null`,
		`42`,
		`[]`,
		`{}`,
		`{"message":"no code"}`,
		`{"code":-32000}`,
		`{"code":"-32000","message":"string code"}`,
		`{"code":1.5,"message":"fractional code"}`,
		`{"code":-32000,"message":17}`,
	} {
		_, err := h.call("writeonly", lines(`{"jsonrpc":"2.0","id":$ID,"error":`+errObj+`}`))
		var e *conn.Error
		if !errors.As(err, &e) || e.Code != conn.CodeConnection || e.Message != "The server sent an invalid JSON-RPC response" {
			t.Errorf("error %s: got %v, want -32000 \"The server sent an invalid JSON-RPC response\"", errObj, err)
		}
	}
	h.ping()
}
