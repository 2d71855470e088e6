package httpconn_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcptui/mcptui/conn"
	"github.com/mcptui/mcptui/httpconn"
)

// startSDKSSE is go-sdk's 2024-11-05 HTTP+SSE handler with the test tools.
func startSDKSSE(t *testing.T) *sdkServer {
	t.Helper()
	return startSDKWith(t, "/sse", func(s *sdk.Server) http.Handler {
		return sdk.NewSSEHandler(func(*http.Request) *sdk.Server { return s }, nil)
	})
}

// An old HTTP+SSE server, opened as one (Mode SSE) or found by the
// fallback (Auto: the initialize POST to the stream's URL is refused),
// carries the whole session: responses, progress and server requests on
// the stream, answers POSTed to the endpoint the first event named.
func TestSSESession(t *testing.T) {
	for _, mode := range []httpconn.Mode{httpconn.SSE, httpconn.Auto} {
		t.Run(mode.String(), func(t *testing.T) {
			srv := startSDKSSE(t)
			c, x := dial(t, srv.url, httpconn.Options{Mode: mode, Header: http.Header{"Authorization": {"Bearer s3cret"}},
				OnServerRequest: func(ctx context.Context, req *conn.Request) (json.RawMessage, error) {
					return json.RawMessage(`{"action":"accept","content":{"name":"Ada"}}`), nil
				}})
			initialize(t, c)
			if got := c.Mode(); got != httpconn.SSE {
				t.Fatalf("Mode %v after initialize, want sse", got)
			}
			var got []conn.Progress
			res, err := c.Call(t.Context(), "tools/call", json.RawMessage(`{"name":"progress","arguments":{}}`),
				conn.WithProgress(func(p conn.Progress) error { got = append(got, p); return nil }))
			if err != nil || !strings.Contains(string(res), "progressed") {
				t.Fatalf("tools/call progress: %s, %v", res, err)
			}
			if len(got) != 3 || got[2].Message != "step 3" {
				t.Errorf("progress: %+v", got)
			}
			res, err = c.Call(t.Context(), "tools/call", json.RawMessage(`{"name":"ask","arguments":{}}`))
			if err != nil || !strings.Contains(string(res), "accept: Ada") {
				t.Fatalf("ask: %s, %v", res, err)
			}
			ex := x.list()
			first := 0
			if mode == httpconn.Auto {
				if ex[0].Method != http.MethodPost || ex[0].Status != http.StatusBadRequest || ex[0].URL != srv.url {
					t.Fatalf("first exchange %+v, want the refused Streamable POST", ex[0])
				}
				first = 1
			}
			if e := ex[first]; e.Method != http.MethodGet || e.Status != 200 || e.URL != srv.url || e.Transport != "sse" {
				t.Fatalf("exchange %d %+v, want the stream's GET", first, e)
			}
			for i, e := range ex[first+1:] {
				if e.Method != http.MethodPost || !strings.Contains(e.URL, "sessionid=") || e.Status != http.StatusAccepted {
					t.Errorf("exchange %d: %s %s %d, want a POST to the endpoint answered 202", i, e.Method, e.URL, e.Status)
				}
				if e.RequestHeader.Get("Authorization") != httpconn.Redacted || e.RequestHeader.Get(httpconn.HeaderProtocolVersion) != "" {
					t.Errorf("exchange %d headers %v", i, e.RequestHeader)
				}
			}
		})
	}
}

// A timeout over HTTP+SSE fails the call with -32001 and tells the server,
// which cancels the handler.
func TestSSETimeoutCancels(t *testing.T) {
	srv := startSDKSSE(t)
	c, _ := dial(t, srv.url, httpconn.Options{Mode: httpconn.SSE})
	initialize(t, c)
	_, err := c.Call(t.Context(), "tools/call", json.RawMessage(`{"name":"slow","arguments":{}}`), conn.WithTimeout(300*time.Millisecond))
	var e *conn.Error
	if !errors.As(err, &e) || e.Code != conn.CodeTimeout {
		t.Fatalf("slow call: %v, want -32001", err)
	}
	select {
	case <-srv.slowCancelled:
	case <-time.After(30 * time.Second):
		t.Fatal("the server never saw the request cancelled")
	}
}

// Streamable mode never falls back: the refused initialize is the error,
// and no GET is made.
func TestStreamableDoesNotFallBack(t *testing.T) {
	srv := startSDKSSE(t)
	c, x := dial(t, srv.url, httpconn.Options{Mode: httpconn.Streamable})
	_, err := c.Call(t.Context(), "initialize", json.RawMessage(`{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}`))
	var se *httpconn.StatusError
	if !errors.As(err, &se) || se.Status != http.StatusBadRequest {
		t.Fatalf("initialize: %v, want the 400", err)
	}
	for _, e := range x.list() {
		if e.Method == http.MethodGet {
			t.Errorf("a GET was made: %+v", e)
		}
	}
}

// Only initialize falls back: another request's 4xx on an Auto connection
// (a server/discover probe, say) is that request's failure.
func TestAutoFallsBackOnlyOnInitialize(t *testing.T) {
	srv := startSDKSSE(t)
	c, x := dial(t, srv.url, httpconn.Options{})
	_, err := c.Call(t.Context(), "server/discover", nil)
	var se *httpconn.StatusError
	if !errors.As(err, &se) || se.Status != http.StatusBadRequest {
		t.Fatalf("server/discover: %v, want the 400", err)
	}
	if c.Mode() != httpconn.Auto || len(x.list()) != 1 {
		t.Fatalf("mode %v, exchanges %+v", c.Mode(), x.list())
	}
	initialize(t, c)
	if c.Mode() != httpconn.SSE {
		t.Fatalf("mode %v after initialize", c.Mode())
	}
}

// A URL that is neither: the refused POST and the failed GET are both in
// the error (the POST's status first, for doctor).
func TestFallbackFailsWithBoth(t *testing.T) {
	srv := httptest.NewServer(http.NotFoundHandler())
	t.Cleanup(srv.Close)
	c, _ := dial(t, srv.URL+"/nothing", httpconn.Options{})
	_, err := c.Call(t.Context(), "initialize", json.RawMessage(`{}`))
	var fe *httpconn.FallbackError
	var se *httpconn.StatusError
	if !errors.As(err, &fe) || !errors.As(err, &se) || se.Status != 404 || se.Method != http.MethodPost {
		t.Fatalf("initialize: %v, want a FallbackError of the POST's 404", err)
	}
	var get *httpconn.StatusError
	if !errors.As(fe.Err, &get) || get.Method != http.MethodGet || get.Status != 404 {
		t.Errorf("the fallback's error %v, want the GET's 404", fe.Err)
	}
}

// scriptedSSE serves a stream that sends endpoint (an event's data) and
// then, when hold is false, ends; POSTs are counted and answered 202.
func scriptedSSE(t *testing.T, endpoint string, hold bool) (url string, posts *atomic.Int32) {
	t.Helper()
	posts = &atomic.Int32{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost {
			posts.Add(1)
			w.WriteHeader(http.StatusAccepted)
			return
		}
		w.Header().Set("Content-Type", "text/event-stream")
		fmt.Fprintf(w, "event: endpoint\ndata: %s\n\n", endpoint)
		w.(http.Flusher).Flush()
		if hold {
			<-r.Context().Done()
		}
	}))
	t.Cleanup(srv.Close)
	return srv.URL + "/sse", posts
}

// An endpoint event naming another origin is refused: the headers given
// (credentials) would go there.
func TestSSEEndpointOtherOriginRefused(t *testing.T) {
	var leaked atomic.Int32
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { leaked.Add(1) }))
	t.Cleanup(other.Close)
	url, _ := scriptedSSE(t, other.URL+"/messages", true)
	c, _ := dial(t, url, httpconn.Options{Mode: httpconn.SSE, Header: http.Header{"Authorization": {"Bearer s3cret"}}})
	_, err := c.Call(t.Context(), "initialize", json.RawMessage(`{}`))
	if err == nil || !strings.Contains(err.Error(), "another origin") {
		t.Fatalf("initialize: %v, want the other origin refused", err)
	}
	if leaked.Load() != 0 {
		t.Error("a request reached the other origin")
	}
}

// The stream is the session: when the server ends it, a call waiting for
// its response fails with -32000 and the connection stops.
func TestSSEStreamEndStops(t *testing.T) {
	url, posts := scriptedSSE(t, "/messages?session=1", false)
	c, _ := dial(t, url, httpconn.Options{Mode: httpconn.SSE})
	_, err := c.Call(t.Context(), "initialize", json.RawMessage(`{}`), conn.WithTimeout(time.Minute))
	var e *conn.Error
	if !errors.As(err, &e) || e.Code != conn.CodeConnection {
		t.Fatalf("initialize: %v, want -32000", err)
	}
	select {
	case <-c.Done():
	case <-time.After(30 * time.Second):
		t.Fatal("the connection did not stop")
	}
	if c.Err() == nil || !strings.Contains(c.Err().(*conn.Error).Cause.Error(), "ended the HTTP+SSE stream") {
		t.Errorf("Err %v", c.Err())
	}
	_ = posts.Load() // the POST may or may not have gone out before the end
}
