package httpconn_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/mcptui/mcptui/conn"
	"github.com/mcptui/mcptui/httpconn"
	"github.com/mcptui/mcptui/internal/jsonscan"
)

// scripted serves fn on 127.0.0.1; fn gets the request's body.
func scripted(t *testing.T, fn func(w http.ResponseWriter, r *http.Request, body []byte)) string {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		fn(w, r, body)
	}))
	t.Cleanup(srv.Close)
	return srv.URL + "/mcp"
}

func isNotification(body []byte) bool { return jsonscan.Member(body, "id") == nil }

func sse(w http.ResponseWriter) {
	w.Header().Set("Content-Type", "text/event-stream")
	w.WriteHeader(http.StatusOK)
}

func response(body []byte, result string) string {
	return fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"result":%s}`, jsonscan.Member(body, "id"), result)
}

func TestEndlessStreamTimesOut(t *testing.T) {
	ended := make(chan struct{})
	url := scripted(t, func(w http.ResponseWriter, r *http.Request, body []byte) {
		if isNotification(body) {
			w.WriteHeader(http.StatusAccepted)
			return
		}
		sse(w)
		defer close(ended)
		for i := 0; r.Context().Err() == nil; i++ {
			if _, err := fmt.Fprintf(w, "data: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\",\"params\":{\"n\":%d}}\n\n", i); err != nil {
				return
			}
			w.(http.Flusher).Flush()
		}
	})
	c, _ := dial(t, url, httpconn.Options{OnNotification: func(conn.Notification) {}})
	_, err := c.Call(t.Context(), "tools/call", nil, conn.WithTimeout(300*time.Millisecond))
	var e *conn.Error
	if !errors.As(err, &e) || e.Code != conn.CodeTimeout {
		t.Fatalf("got %v, want -32001", err)
	}
	select {
	case <-ended:
	case <-time.After(30 * time.Second):
		t.Fatal("the endless stream was never closed by the client")
	}
}

func TestHugeEventDiscarded(t *testing.T) {
	const huge = 1 << 30
	url := scripted(t, func(w http.ResponseWriter, r *http.Request, body []byte) {
		sse(w)
		chunk := bytes.Repeat([]byte("x"), 1<<20)
		_, _ = io.WriteString(w, "data: ")
		for range huge / len(chunk) {
			if _, err := w.Write(chunk); err != nil {
				return
			}
		}
		_, _ = io.WriteString(w, "\n\ndata: "+response(body, `{"ok":true}`)+"\n\n")
	})
	c, x := dial(t, url, httpconn.Options{MaxMessageBytes: 1 << 20})
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	res, err := c.Call(t.Context(), "ping", nil, conn.WithTimeout(0))
	runtime.ReadMemStats(&after)
	if err != nil || string(res) != `{"ok":true}` {
		t.Fatalf("after the huge event: %s, %v", res, err)
	}
	if grew := after.TotalAlloc - before.TotalAlloc; grew > 64<<20 {
		t.Errorf("allocated %d MiB reading a 1 GiB event", grew>>20)
	}
	var discarded []conn.Event
	for _, e := range x.events() {
		if e.Kind == conn.Discarded {
			discarded = append(discarded, e)
		}
	}
	if len(discarded) != 1 || discarded[0].Size != huge || discarded[0].Line != nil || discarded[0].Err == nil {
		t.Fatalf("discarded: %+v", discarded)
	}
	t.Logf("1 GiB event: %d MiB allocated while it streamed", (after.TotalAlloc-before.TotalAlloc)>>20)
}

func TestGarbageIsDiscarded(t *testing.T) {
	url := scripted(t, func(w http.ResponseWriter, r *http.Request, body []byte) {
		if jsonscan.Unquote(jsonscan.Member(body, "method")) == "bad/json" {
			w.Header().Set("Content-Type", "application/json")
			_, _ = io.WriteString(w, "{not json")
			return
		}
		sse(w)
		_, _ = io.WriteString(w, "data: \x00\x1b[2Jgarbage\n\n: comment\nevent: odd\ndata: [1,2\n\ndata: {\"jsonrpc\":\"2.0\",\"id\":999,\"result\":{}}\n\nid: 7\n\nretry: x\n\n")
		_, _ = io.WriteString(w, "data: "+response(body, `{"ok":1}`)+"\n\n")
	})
	c, x := dial(t, url, httpconn.Options{})
	res, err := c.Call(t.Context(), "ping", nil)
	if err != nil || string(res) != `{"ok":1}` {
		t.Fatalf("ping: %s, %v", res, err)
	}
	if n := countKind(x.events(), conn.Discarded); n != 3 {
		t.Errorf("%d discarded, want 3 (not JSON, not JSON, matching no request)", n)
	}
	_, err = c.Call(t.Context(), "bad/json", nil)
	var e *conn.Error
	if !errors.As(err, &e) || e.Code != conn.CodeConnection {
		t.Fatalf("a JSON answer that is not JSON: %v, want -32000", err)
	}
}

func countKind(evs []conn.Event, k conn.EventKind) int {
	n := 0
	for _, e := range evs {
		if e.Kind == k {
			n++
		}
	}
	return n
}

func TestResumeWithLastEventID(t *testing.T) {
	resumed := make(chan string, 1)
	var pending []byte
	url := scripted(t, func(w http.ResponseWriter, r *http.Request, body []byte) {
		switch r.Method {
		case http.MethodPost:
			pending = body
			sse(w)
			// A priming event with an id and a short retry, then the server
			// closes the stream before the response.
			_, _ = io.WriteString(w, "id: ev-1\nretry: 10\ndata:\n\n")
		case http.MethodGet:
			resumed <- r.Header.Get(httpconn.HeaderLastEventID)
			sse(w)
			_, _ = io.WriteString(w, "id: ev-2\ndata: "+response(pending, `{"resumed":true}`)+"\n\n")
		}
	})
	c, _ := dial(t, url, httpconn.Options{})
	res, err := c.Call(t.Context(), "tools/call", nil)
	if err != nil || string(res) != `{"resumed":true}` {
		t.Fatalf("resumed call: %s, %v", res, err)
	}
	if got := <-resumed; got != "ev-1" {
		t.Errorf("Last-Event-ID %q, want ev-1", got)
	}
}

func TestHTTPStatusErrors(t *testing.T) {
	url := scripted(t, func(w http.ResponseWriter, r *http.Request, body []byte) {
		switch jsonscan.Unquote(jsonscan.Member(body, "method")) {
		case "unauthorized":
			w.Header().Set("WWW-Authenticate", `Bearer resource_metadata="x"`)
			w.WriteHeader(http.StatusUnauthorized)
		case "rpcerror":
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusBadRequest)
			fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"error":{"code":-32022,"message":"unsupported","data":{"supported":["2026-07-28"]}}}`, jsonscan.Member(body, "id"))
		default:
			http.NotFound(w, r)
		}
	})
	c, _ := dial(t, url, httpconn.Options{})
	for method, want := range map[string]int{"unauthorized": 401, "missing": 404} {
		_, err := c.Call(t.Context(), method, nil)
		var se *httpconn.StatusError
		if !errors.As(err, &se) || se.Status != want {
			t.Errorf("%s: %v, want HTTP %d", method, err, want)
		}
	}
	_, err := c.Call(t.Context(), "rpcerror", json.RawMessage(`{}`))
	var e *conn.Error
	if !errors.As(err, &e) || e.Code != -32022 || !strings.Contains(string(e.Data), "2026-07-28") {
		t.Errorf("a JSON-RPC error with a 400: %v", err)
	}
}
