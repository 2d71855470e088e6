package conn_test

// Rule 14: requests the server sends to the client.

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mcptui/mcptui/conn"
)

// ask makes the fake server send line (a request to the client) and returns
// the client's answer as the server received it.
func (h *harness) ask(line string) json.RawMessage {
	h.t.Helper()
	return h.mustCall("ask", map[string]string{"line": line})
}

// answerID is the raw id of an answer line.
func answerID(t *testing.T, answer []byte) string {
	t.Helper()
	var m map[string]json.RawMessage
	if err := json.Unmarshal(answer, &m); err != nil {
		t.Fatalf("answer %s: %v", answer, err)
	}
	return string(m["id"])
}

// Rule 14: the handler gets the request (id verbatim, method, params); its
// result is sent as {"result": …} under the server's id, verbatim.
func TestServerRequestResult(t *testing.T) {
	t.Parallel()
	reqs := make(chan *conn.Request, 10)
	h := start(t, conn.Options{OnServerRequest: func(ctx context.Context, req *conn.Request) (json.RawMessage, error) {
		reqs <- req
		return json.RawMessage(`{"model":"person","content":{"type":"text","text":"hi"}}`), nil
	}})
	for _, id := range []string{`"srv-1"`, `7`, `123456789012345678901234567890`, `"ü \"quoted\""`} {
		answer := h.ask(fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"method":"sampling/createMessage","params":{"maxTokens":5}}`, id))
		req := recv(t, reqs, "the handler")
		if string(req.ID) != id || req.Method != "sampling/createMessage" || string(req.Params) != `{"maxTokens":5}` {
			t.Errorf("handler got id %s method %q params %s", req.ID, req.Method, req.Params)
		}
		if got := answerID(t, answer); got != id {
			t.Errorf("answer id %s, want %s verbatim", got, id)
		}
		jsonEq(t, answer, fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"result":{"model":"person","content":{"type":"text","text":"hi"}}}`, id))
	}
}

// Rule 14: an *Error from the handler is sent as that error; any other error
// or a panic is -32603 with a message naming it.
func TestServerRequestErrors(t *testing.T) {
	t.Parallel()
	h := start(t, conn.Options{OnServerRequest: func(ctx context.Context, req *conn.Request) (json.RawMessage, error) {
		switch req.Method {
		case "rpc-error":
			return nil, &conn.Error{Code: -32042, Message: "Declined", Data: json.RawMessage(`{"why":"user said no"}`)}
		case "wrapped-rpc-error":
			return nil, fmt.Errorf("wrapped: %w", &conn.Error{Code: -32602, Message: "Bad form"})
		case "plain-error":
			return nil, errors.New("disk on fire")
		default:
			panic("handler exploded")
		}
	}})
	answer := h.ask(`{"jsonrpc":"2.0","id":"a","method":"rpc-error"}`)
	jsonEq(t, answer, `{"jsonrpc":"2.0","id":"a","error":{"code":-32042,"message":"Declined","data":{"why":"user said no"}}}`)
	answer = h.ask(`{"jsonrpc":"2.0","id":"b","method":"wrapped-rpc-error"}`)
	jsonEq(t, answer, `{"jsonrpc":"2.0","id":"b","error":{"code":-32602,"message":"Bad form"}}`)

	for _, tc := range []struct{ method, naming string }{{"plain-error", "disk on fire"}, {"panic", "handler exploded"}} {
		var a struct {
			ID    string
			Error struct {
				Code    int
				Message string
			}
		}
		json.Unmarshal(h.ask(`{"jsonrpc":"2.0","id":"c","method":"`+tc.method+`"}`), &a)
		if a.ID != "c" || a.Error.Code != -32603 || !strings.Contains(a.Error.Message, tc.naming) {
			t.Errorf("%s: answered %+v, want -32603 naming %q", tc.method, a, tc.naming)
		}
	}
	h.ping()
}

// Rule 14: without OnServerRequest every server request is answered -32601
// "Method not found: <method>".
func TestServerRequestNoHandler(t *testing.T) {
	t.Parallel()
	h := start(t, conn.Options{})
	answer := h.ask(`{"jsonrpc":"2.0","id":"srv-9","method":"elicitation/create","params":{}}`)
	jsonEq(t, answer, `{"jsonrpc":"2.0","id":"srv-9","error":{"code":-32601,"message":"Method not found: elicitation/create"}}`)
}

// Rule 14: handlers run in their own goroutines, never in the reader: while
// one blocks, calls are answered and other handlers run.
func TestServerRequestHandlersDoNotBlockReader(t *testing.T) {
	t.Parallel()
	release := make(chan struct{})
	started := make(chan string, 2)
	h := start(t, conn.Options{OnServerRequest: func(ctx context.Context, req *conn.Request) (json.RawMessage, error) {
		started <- string(req.ID)
		if req.Method == "block" {
			<-release
		}
		return json.RawMessage(`{}`), nil
	}}, "-report")
	h.mustCall("write", lines(`{"jsonrpc":"2.0","id":"blocked","method":"block"}`))
	recv(t, started, "the blocking handler")
	h.ping()
	jsonEq(t, h.ask(`{"jsonrpc":"2.0","id":"free","method":"quick"}`), `{"jsonrpc":"2.0","id":"free","result":{}}`)
	close(release)
	h.waitGot(`{"jsonrpc":"2.0","id":"blocked","result":{}}`)
}

// Rule 14: with MaxServerRequests handlers running, another request is
// answered at once with -32603 "Too many server requests in flight (N)" and
// its handler does not run; a slot frees once a handler is done.
func TestMaxServerRequests(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ option, limit int }{{2, 2}, {0, 16}} {
		t.Run(fmt.Sprintf("MaxServerRequests=%d", tc.option), func(t *testing.T) {
			t.Parallel()
			release := make(chan struct{})
			var ran atomic.Int32
			started := make(chan struct{}, 100)
			h := start(t, conn.Options{MaxServerRequests: tc.option, OnServerRequest: func(ctx context.Context, req *conn.Request) (json.RawMessage, error) {
				ran.Add(1)
				started <- struct{}{}
				if strings.HasPrefix(string(req.ID), `"block`) {
					<-release
				}
				return json.RawMessage(`{"ok":true}`), nil
			}}, "-report")
			var reqs []string
			for i := 1; i <= tc.limit; i++ {
				reqs = append(reqs, fmt.Sprintf(`{"jsonrpc":"2.0","id":"block-%d","method":"m"}`, i))
			}
			h.mustCall("write", lines(reqs...))
			for range tc.limit {
				recv(t, started, "the handlers to start")
			}
			h.mustCall("write", lines(`{"jsonrpc":"2.0","id":"over","method":"m"}`))
			h.waitGot(fmt.Sprintf(`{"jsonrpc":"2.0","id":"over","error":{"code":-32603,"message":"Too many server requests in flight (%d)"}}`, tc.limit))
			if n := ran.Load(); n != int32(tc.limit) {
				t.Fatalf("%d handlers ran, want %d", n, tc.limit)
			}
			close(release)
			for i := 1; i <= tc.limit; i++ {
				h.waitGot(fmt.Sprintf(`{"jsonrpc":"2.0","id":"block-%d","result":{"ok":true}}`, i))
			}
			// A slot frees once the answer is written and the handler has
			// exited, which may be a moment after the server has the answer.
			deadline := time.Now().Add(waitTimeout)
			for i := 0; ; i++ {
				answer := h.ask(fmt.Sprintf(`{"jsonrpc":"2.0","id":"after-%d","method":"m"}`, i))
				if !strings.Contains(string(answer), `"error"`) {
					jsonEq(t, answer, fmt.Sprintf(`{"jsonrpc":"2.0","id":"after-%d","result":{"ok":true}}`, i))
					break
				}
				if time.Now().After(deadline) {
					t.Fatalf("no slot freed: %s", answer)
				}
			}
		})
	}
}

// Rule 14: when the connection stops (Close, or the server exits) running
// handlers' contexts are cancelled and their answers are never written.
func TestServerRequestHandlersCancelledOnStop(t *testing.T) {
	t.Parallel()
	for _, how := range []string{"close", "exit"} {
		t.Run(how, func(t *testing.T) {
			t.Parallel()
			started, returned := make(chan struct{}), make(chan error, 1)
			h := start(t, conn.Options{OnServerRequest: func(ctx context.Context, req *conn.Request) (json.RawMessage, error) {
				close(started)
				select {
				case <-ctx.Done():
					returned <- ctx.Err()
				case <-time.After(waitTimeout):
					returned <- nil
				}
				return json.RawMessage(`{"too":"late"}`), nil
			}})
			h.mustCall("write", lines(`{"jsonrpc":"2.0","id":"srv-stop","method":"m"}`))
			recv(t, started, "the handler")
			if how == "close" {
				h.c.Close()
			} else {
				h.call("exit/0", nil)
			}
			if err := recv(t, returned, "the handler to return"); err == nil {
				t.Fatal("the handler's context was not cancelled when the connection stopped")
			}
			closed(t, h.c.Done(), "Done")
			for _, e := range h.eventsOf(conn.Sent) {
				var m wire
				if json.Unmarshal(e.Line, &m) == nil && string(m.ID) == `"srv-stop"` {
					t.Fatalf("the answer was written: %s", e.Line)
				}
			}
		})
	}
}
