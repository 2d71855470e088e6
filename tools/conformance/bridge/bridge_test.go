package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"
)

// wait bounds every wait of these tests; it only ever fires when a test
// fails.
const wait = 10 * time.Second

// seen is one HTTP request the fake server received.
type seen struct {
	Method string
	Header http.Header
	Body   string
	RPC    message
}

// fakeServer is an httptest server whose handler a test supplies; it
// records every request it gets.
type fakeServer struct {
	*httptest.Server
	mu   sync.Mutex
	reqs []seen
	// got receives every request as it arrives.
	got chan seen
}

func newFakeServer(t *testing.T, h func(w http.ResponseWriter, r *http.Request, s seen)) *fakeServer {
	t.Helper()
	fs := &fakeServer{got: make(chan seen, 100)}
	fs.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		s := seen{Method: r.Method, Header: r.Header.Clone(), Body: string(body)}
		_ = json.Unmarshal(body, &s.RPC)
		fs.mu.Lock()
		fs.reqs = append(fs.reqs, s)
		fs.mu.Unlock()
		fs.got <- s
		h(w, r, s)
	}))
	t.Cleanup(fs.Close)
	return fs
}

// requests returns what the server received so far.
func (fs *fakeServer) requests() []seen {
	fs.mu.Lock()
	defer fs.mu.Unlock()
	return append([]seen(nil), fs.reqs...)
}

// next returns the next request the server receives.
func (fs *fakeServer) next(t *testing.T) seen {
	t.Helper()
	select {
	case s := <-fs.got:
		return s
	case <-time.After(wait):
		t.Fatal("the server received nothing")
		return seen{}
	}
}

// harness runs a Bridge between pipes.
type harness struct {
	t     *testing.T
	in    *io.PipeWriter
	lines chan string
	done  chan error
	logs  *syncBuffer
}

// syncBuffer is a bytes.Buffer safe for concurrent use.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

func startBridge(t *testing.T, url string, configure ...func(*Bridge)) *harness {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	h := &harness{t: t, in: inW, lines: make(chan string, 100), done: make(chan error, 1), logs: &syncBuffer{}}
	b := &Bridge{URL: url, Stdin: inR, Stdout: outW, Log: log.New(h.logs, "", 0)}
	for _, c := range configure {
		c(b)
	}
	go func() {
		err := b.Run(context.Background())
		outW.Close()
		h.done <- err
	}()
	go func() {
		sc := bufio.NewScanner(outR)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			h.lines <- sc.Text()
		}
		close(h.lines)
	}()
	t.Cleanup(func() {
		inW.Close()
		select {
		case <-h.done:
		case <-time.After(wait):
			t.Error("the bridge did not stop at EOF")
		}
		if t.Failed() {
			t.Logf("bridge log:\n%s", h.logs.String())
		}
	})
	return h
}

// send writes one line to the bridge's stdin.
func (h *harness) send(line string) {
	h.t.Helper()
	if _, err := io.WriteString(h.in, line+"\n"); err != nil {
		h.t.Fatalf("writing to the bridge: %v", err)
	}
}

// read returns the next line the bridge wrote to stdout.
func (h *harness) read() string {
	h.t.Helper()
	select {
	case l, ok := <-h.lines:
		if !ok {
			h.t.Fatal("the bridge closed stdout")
		}
		return l
	case <-time.After(wait):
		h.t.Fatal("the bridge wrote nothing")
		return ""
	}
}

// readJSON reads the next line and decodes it.
func (h *harness) readJSON() map[string]any {
	h.t.Helper()
	l := h.read()
	var m map[string]any
	if err := json.Unmarshal([]byte(l), &m); err != nil {
		h.t.Fatalf("the bridge wrote %q, not JSON: %v", l, err)
	}
	return m
}

// eof closes stdin and waits for Run to return.
func (h *harness) eof() error {
	h.t.Helper()
	h.in.Close()
	select {
	case err := <-h.done:
		h.done <- err // for Cleanup
		return err
	case <-time.After(wait):
		h.t.Fatal("the bridge did not stop at EOF")
		return nil
	}
}

func writeJSON(w http.ResponseWriter, status int, v string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	io.WriteString(w, v)
}

// TestJSONBody: a JSON answer, compacted to one line; the headers of a
// POST before any version or session is known; a session id outside an
// initialize answer is no session (never sent back, no DELETE).
func TestJSONBody(t *testing.T) {
	srv := newFakeServer(t, func(w http.ResponseWriter, r *http.Request, s seen) {
		w.Header().Set(headerSessionID, "not-a-session")
		writeJSON(w, 200, fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,
			"result":{"tools":[]}}`, s.RPC.ID))
	})
	h := startBridge(t, srv.URL)
	h.send(`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`)
	if got, want := h.read(), `{"jsonrpc":"2.0","id":1,"result":{"tools":[]}}`; got != want {
		t.Errorf("stdout = %s, want %s (compacted to one line)", got, want)
	}
	h.send(`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`)
	h.read()
	srv.next(t)
	if v := srv.next(t).Header.Get(headerSessionID); v != "" {
		t.Errorf("%s %q sent back", headerSessionID, v)
	}
	r := srv.requests()[0]
	if r.Method != http.MethodPost || r.Body != `{"jsonrpc":"2.0","id":1,"method":"tools/list"}` {
		t.Errorf("server got %s %q", r.Method, r.Body)
	}
	if ct := r.Header.Get("Content-Type"); ct != "application/json" {
		t.Errorf("Content-Type = %q", ct)
	}
	if a := r.Header.Get("Accept"); a != "application/json, text/event-stream" {
		t.Errorf("Accept = %q", a)
	}
	for _, hd := range []string{headerProtocolVersion, headerSessionID, headerMethod} {
		if v := r.Header.Get(hd); v != "" {
			t.Errorf("%s = %q before anything set it", hd, v)
		}
	}
	if err := h.eof(); err != nil {
		t.Errorf("Run = %v at EOF", err)
	}
	for _, r := range srv.requests() {
		if r.Method == http.MethodDelete {
			t.Error("DELETE without a session")
		}
	}
}

func TestTrace(t *testing.T) {
	srv := newFakeServer(t, func(w http.ResponseWriter, r *http.Request, s seen) {
		writeJSON(w, 200, `{"jsonrpc":"2.0", "id":1, "result":{}}`)
	})
	trace := &syncBuffer{}
	h := startBridge(t, srv.URL, func(b *Bridge) { b.Trace = trace })
	h.send(`{"jsonrpc":"2.0","id":1,"method":"ping"}`)
	h.read()
	if err := h.eof(); err != nil {
		t.Fatal(err)
	}
	want := "--> {\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}\n<-- {\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}\n"
	if got := trace.String(); got != want {
		t.Errorf("trace:\n%s\nwant:\n%s", got, want)
	}
}

func TestSSEBody(t *testing.T) {
	srv := newFakeServer(t, func(w http.ResponseWriter, r *http.Request, s seen) {
		w.Header().Set("Content-Type", "text/event-stream")
		w.WriteHeader(200)
		fmt.Fprint(w, "id: 0\nretry: 500\ndata: \n\n") // priming event
		fmt.Fprint(w, ": a comment\n")
		fmt.Fprint(w, "event: message\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\",\r\ndata: \"params\":{\"progressToken\":1,\"progress\":1}}\r\n\r\n")
		fmt.Fprint(w, "data: {\"jsonrpc\":\"2.0\",\"id\":\"a\",\"result\":{\"content\":[]}}\n\n")
	})
	h := startBridge(t, srv.URL)
	h.send(`{"jsonrpc":"2.0","id":"a","method":"tools/call","params":{"name":"x"}}`)
	if got, want := h.read(), `{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":1,"progress":1}}`; got != want {
		t.Errorf("first line = %s, want %s", got, want)
	}
	if got, want := h.read(), `{"jsonrpc":"2.0","id":"a","result":{"content":[]}}`; got != want {
		t.Errorf("second line = %s, want %s", got, want)
	}
}

// TestSessionAndGetStream covers the initialize era: the session id from
// the initialize answer on every later request, the version header from
// its result, the GET stream opened before the result is passed on (a
// server request sent there reaches the client and its answer goes back),
// and DELETE at EOF.
func TestSessionAndGetStream(t *testing.T) {
	getOpen := make(chan struct{})
	answered := make(chan seen, 1)
	srv := newFakeServer(t, func(w http.ResponseWriter, r *http.Request, s seen) {
		switch {
		case r.Method == http.MethodGet:
			close(getOpen) // before the client can see the answer
			w.Header().Set("Content-Type", "text/event-stream")
			w.WriteHeader(200)
			w.(http.Flusher).Flush()
			fmt.Fprint(w, "data: {\"jsonrpc\":\"2.0\",\"id\":0,\"method\":\"elicitation/create\",\"params\":{}}\n\n")
			w.(http.Flusher).Flush()
			<-r.Context().Done()
		case r.Method == http.MethodDelete:
			w.WriteHeader(200)
		case s.RPC.Method == "initialize":
			w.Header().Set(headerSessionID, "sess-1")
			writeJSON(w, 200, `{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-11-25","capabilities":{},"serverInfo":{"name":"s","version":"1"}}}`)
		case s.RPC.Method == "" && string(s.RPC.ID) == "0":
			answered <- s
			w.WriteHeader(http.StatusAccepted)
		default:
			w.WriteHeader(http.StatusAccepted)
		}
	})
	h := startBridge(t, srv.URL)
	h.send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}`)
	init := srv.next(t)
	if v := init.Header.Get(headerProtocolVersion); v != "" {
		t.Errorf("initialize carried %s %q", headerProtocolVersion, v)
	}
	get := srv.next(t)
	if get.Method != http.MethodGet {
		t.Fatalf("after initialize the server got %s, want GET", get.Method)
	}
	if got := h.readJSON(); got["id"] != float64(1) {
		t.Errorf("first line = %v, want the initialize result", got)
	}
	select {
	case <-getOpen:
	default:
		t.Error("the initialize result reached the client before the GET stream was open")
	}
	for k, want := range map[string]string{headerSessionID: "sess-1", headerProtocolVersion: "2025-11-25", "Accept": "text/event-stream"} {
		if v := get.Header.Get(k); v != want {
			t.Errorf("GET %s = %q, want %q", k, v, want)
		}
	}
	if got := h.readJSON(); got["method"] != "elicitation/create" {
		t.Errorf("second line = %v, want the server's request from the GET stream", got)
	}
	h.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	n := srv.next(t)
	for k, want := range map[string]string{headerSessionID: "sess-1", headerProtocolVersion: "2025-11-25"} {
		if v := n.Header.Get(k); v != want {
			t.Errorf("notification %s = %q, want %q", k, v, want)
		}
	}
	if v := n.Header.Get(headerMethod); v != "" {
		t.Errorf("%s = %q on an initialize-era version", headerMethod, v)
	}
	h.send(`{"jsonrpc":"2.0","id":0,"result":{"action":"accept","content":{}}}`)
	select {
	case a := <-answered:
		if a.Header.Get(headerSessionID) != "sess-1" {
			t.Errorf("the answer went without the session id")
		}
	case <-time.After(wait):
		t.Fatal("the client's answer never reached the server")
	}
	if err := h.eof(); err != nil {
		t.Errorf("Run = %v at EOF", err)
	}
	var del *seen
	for _, r := range srv.requests() {
		if r.Method == http.MethodDelete {
			del = &r
		}
	}
	if del == nil {
		t.Fatal("no DELETE at EOF")
	}
	if v := del.Header.Get(headerSessionID); v != "sess-1" {
		t.Errorf("DELETE %s = %q", headerSessionID, v)
	}
}

// TestGetStreamRefused: a server without a GET stream (405) is used
// without one.
func TestGetStreamRefused(t *testing.T) {
	srv := newFakeServer(t, func(w http.ResponseWriter, r *http.Request, s seen) {
		switch {
		case r.Method == http.MethodGet:
			w.WriteHeader(http.StatusMethodNotAllowed)
		case s.RPC.Method == "initialize":
			writeJSON(w, 200, `{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-06-18","capabilities":{},"serverInfo":{"name":"s","version":"1"}}}`)
		default:
			writeJSON(w, 200, `{"jsonrpc":"2.0","id":2,"result":{"tools":[]}}`)
		}
	})
	h := startBridge(t, srv.URL)
	h.send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}`)
	if got := h.readJSON(); got["id"] != float64(1) {
		t.Fatalf("got %v, want the initialize result", got)
	}
	h.send(`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`)
	if got := h.readJSON(); got["id"] != float64(2) {
		t.Fatalf("got %v, want the tools/list result", got)
	}
	// The GET stream is opened beside the requests: its refusal is logged
	// when it comes, with a generous deadline.
	deadline := time.Now().Add(30 * time.Second)
	for !strings.Contains(h.logs.String(), "not offered (HTTP 405") {
		if time.Now().After(deadline) {
			t.Fatalf("log does not say the GET stream was refused:\n%s", h.logs.String())
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// TestServerRequestInSSE: the server asks the client something on a
// request's own SSE stream and finishes the request once answered.
func TestServerRequestInSSE(t *testing.T) {
	answer := make(chan string, 1)
	srv := newFakeServer(t, func(w http.ResponseWriter, r *http.Request, s seen) {
		switch {
		case s.RPC.Method == "tools/call":
			w.Header().Set("Content-Type", "text/event-stream")
			w.WriteHeader(200)
			fmt.Fprint(w, "data: {\"jsonrpc\":\"2.0\",\"id\":\"srv-1\",\"method\":\"sampling/createMessage\",\"params\":{\"messages\":[],\"maxTokens\":5}}\n\n")
			w.(http.Flusher).Flush()
			var a string
			select {
			case a = <-answer:
			case <-r.Context().Done():
				return
			}
			fmt.Fprintf(w, "data: {\"jsonrpc\":\"2.0\",\"id\":3,\"result\":{\"content\":[{\"type\":\"text\",\"text\":%q}]}}\n\n", a)
		case s.RPC.Method == "" && s.RPC.hasID():
			answer <- string(s.RPC.Result)
			w.WriteHeader(http.StatusAccepted)
		default:
			w.WriteHeader(http.StatusAccepted)
		}
	})
	h := startBridge(t, srv.URL)
	h.send(`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"ask"}}`)
	q := h.readJSON()
	if q["method"] != "sampling/createMessage" || q["id"] != "srv-1" {
		t.Fatalf("got %v, want the server's sampling request", q)
	}
	h.send(`{"jsonrpc":"2.0","id":"srv-1","result":{"role":"assistant","content":{"type":"text","text":"4"},"model":"m"}}`)
	res := h.readJSON()
	if res["id"] != float64(3) {
		t.Fatalf("got %v, want the tools/call result", res)
	}
	text := res["result"].(map[string]any)["content"].([]any)[0].(map[string]any)["text"].(string)
	if !strings.Contains(text, `"model":"m"`) {
		t.Errorf("the server got answer %s", text)
	}
}

// TestStatelessHeaders: on 2026-07-28 the version comes from each
// request's _meta, and Mcp-Method and Mcp-Name are set.
func TestStatelessHeaders(t *testing.T) {
	srv := newFakeServer(t, func(w http.ResponseWriter, r *http.Request, s seen) {
		if s.RPC.hasID() {
			writeJSON(w, 200, fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"result":{"resultType":"complete"}}`, s.RPC.ID))
			return
		}
		w.WriteHeader(http.StatusAccepted)
	})
	h := startBridge(t, srv.URL)
	meta := `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}`
	cases := []struct {
		line, method, name string
	}{
		{`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"add",` + meta + `}}`, "tools/call", "add"},
		{`{"jsonrpc":"2.0","id":2,"method":"resources/read","params":{"uri":"file:///a",` + meta + `}}`, "resources/read", "file:///a"},
		{`{"jsonrpc":"2.0","id":3,"method":"prompts/get","params":{"name":"p",` + meta + `}}`, "prompts/get", "p"},
		{`{"jsonrpc":"2.0","id":4,"method":"tools/list","params":{` + meta + `}}`, "tools/list", ""},
		// A notification without _meta takes the last version seen.
		{`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":4}}`, "notifications/cancelled", ""},
	}
	for _, c := range cases {
		h.send(c.line)
		r := srv.next(t)
		if r.RPC.hasID() {
			h.read()
		}
		for k, want := range map[string]string{headerProtocolVersion: "2026-07-28", headerMethod: c.method, headerName: c.name} {
			if v := r.Header.Get(k); v != want {
				t.Errorf("%s: %s = %q, want %q", c.method, k, v, want)
			}
		}
	}
}

// TestHTTPErrors: an HTTP error carrying a JSON-RPC error is passed on
// (an id null replaced by the request's); one without is answered with a
// -32000 error for the request; a notification's error answer is dropped.
func TestHTTPErrors(t *testing.T) {
	srv := newFakeServer(t, func(w http.ResponseWriter, r *http.Request, s seen) {
		switch s.RPC.Method {
		case "server/discover":
			writeJSON(w, 400, `{"jsonrpc":"2.0","id":1,"error":{"code":-32022,"message":"Unsupported protocol version","data":{"supported":["2026-07-28"]}}}`)
		case "tools/list":
			writeJSON(w, 400, `{"jsonrpc":"2.0","id":null,"error":{"code":-32000,"message":"Bad Request: Server not initialized"}}`)
		case "tools/call":
			http.Error(w, "no such endpoint", http.StatusNotFound)
		case "prompts/list":
			writeJSON(w, 401, `{"error":"invalid_token"}`)
		default:
			writeJSON(w, 200, `{"jsonrpc":"2.0","result":{}}`) // the raw initialize mock's answer to a notification
		}
	})
	h := startBridge(t, srv.URL)
	h.send(`{"jsonrpc":"2.0","id":1,"method":"server/discover"}`)
	if got := h.read(); got != `{"jsonrpc":"2.0","id":1,"error":{"code":-32022,"message":"Unsupported protocol version","data":{"supported":["2026-07-28"]}}}` {
		t.Errorf("discover: %s", got)
	}
	h.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	srv.next(t)
	srv.next(t)
	h.send(`{"jsonrpc":"2.0","id":"two","method":"tools/list"}`)
	got := h.readJSON()
	if got["id"] != "two" || got["error"].(map[string]any)["message"] != "Bad Request: Server not initialized" {
		t.Errorf("tools/list: %v (want the server's error with the request's id)", got)
	}
	for _, c := range []struct{ method, status string }{{"tools/call", "404"}, {"prompts/list", "401"}} {
		h.send(`{"jsonrpc":"2.0","id":3,"method":"` + c.method + `","params":{"name":"x"}}`)
		got = h.readJSON()
		e, _ := got["error"].(map[string]any)
		if got["id"] != float64(3) || e == nil || e["code"] != float64(codeTransport) || !strings.Contains(e["message"].(string), "HTTP "+c.status) {
			t.Errorf("%s: %v (want a %d error naming HTTP %s)", c.method, got, codeTransport, c.status)
		}
	}
}

// TestStreamWithoutResponse: an SSE stream that ends before the response
// is answered with an error, so the client does not wait for nothing.
func TestStreamWithoutResponse(t *testing.T) {
	srv := newFakeServer(t, func(w http.ResponseWriter, r *http.Request, s seen) {
		w.Header().Set("Content-Type", "text/event-stream")
		w.WriteHeader(200)
		fmt.Fprint(w, "data: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\",\"params\":{\"level\":\"info\",\"data\":\"x\"}}\n\n")
	})
	h := startBridge(t, srv.URL)
	h.send(`{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"x"}}`)
	if got := h.readJSON(); got["method"] != "notifications/message" {
		t.Errorf("first line = %v, want the notification", got)
	}
	got := h.readJSON()
	if e, _ := got["error"].(map[string]any); got["id"] != float64(5) || e == nil || e["code"] != float64(codeTransport) {
		t.Errorf("second line = %v, want a %d error for id 5", got, codeTransport)
	}
}

// TestUnreachable: a server that cannot be reached still answers every
// request (with an error).
func TestUnreachable(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	url := "http://" + l.Addr().String() + "/mcp"
	l.Close()
	h := startBridge(t, url)
	h.send(`{"jsonrpc":"2.0","id":9,"method":"tools/list"}`)
	got := h.readJSON()
	if got["id"] != float64(9) || got["error"] == nil {
		t.Errorf("got %v, want an error for id 9", got)
	}
}

func TestNotJSON(t *testing.T) {
	srv := newFakeServer(t, func(w http.ResponseWriter, r *http.Request, s seen) {
		t.Errorf("the server got %s", s.Body)
	})
	h := startBridge(t, srv.URL)
	h.send(`hello`)
	got := h.readJSON()
	if e, _ := got["error"].(map[string]any); e == nil || e["code"] != float64(-32700) || got["id"] != nil {
		t.Errorf("got %v, want a -32700 error with id null", got)
	}
}

// TestEOFAbandonsInFlight: EOF while a request is in flight stops the
// bridge at once; the server sees the request's connection go, then
// DELETE.
func TestEOFAbandonsInFlight(t *testing.T) {
	gone := make(chan struct{})
	srv := newFakeServer(t, func(w http.ResponseWriter, r *http.Request, s seen) {
		switch {
		case r.Method == http.MethodDelete:
			w.WriteHeader(http.StatusNoContent)
		case s.RPC.Method == "initialize":
			w.Header().Set(headerSessionID, "s2")
			writeJSON(w, 200, `{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-11-25"}}`)
		case r.Method == http.MethodGet:
			w.WriteHeader(http.StatusMethodNotAllowed)
		default:
			w.Header().Set("Content-Type", "text/event-stream")
			w.WriteHeader(200)
			w.(http.Flusher).Flush()
			<-r.Context().Done()
			close(gone)
		}
	})
	h := startBridge(t, srv.URL)
	h.send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}`)
	h.read()
	h.send(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"slow"}}`)
	for r := srv.next(t); r.RPC.Method != "tools/call"; r = srv.next(t) {
	}
	if err := h.eof(); err != nil {
		t.Errorf("Run = %v", err)
	}
	select {
	case <-gone:
	case <-time.After(wait):
		t.Error("the in-flight request was not abandoned")
	}
	reqs := srv.requests()
	if last := reqs[len(reqs)-1]; last.Method != http.MethodDelete || last.Header.Get(headerSessionID) != "s2" {
		t.Errorf("last request = %s %v, want DELETE with the session", last.Method, last.Header)
	}
	if _, ok := <-h.lines; ok {
		t.Error("the bridge wrote a line for the abandoned request")
	}
}

func TestContextCancelStops(t *testing.T) {
	inR, inW := io.Pipe()
	defer inW.Close()
	ctx, cancel := context.WithCancel(context.Background())
	b := &Bridge{URL: "http://127.0.0.1:1/mcp", Stdin: inR, Stdout: io.Discard}
	done := make(chan error, 1)
	go func() { done <- b.Run(ctx) }()
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("Run = %v", err)
		}
	case <-time.After(wait):
		t.Fatal("Run did not return when its context ended")
	}
}

func TestReadLine(t *testing.T) {
	long := strings.Repeat("x", 110)
	r := bufio.NewReaderSize(strings.NewReader("a\r\n"+long+"\nb"), 16)
	for _, want := range []struct {
		line string
		err  error
	}{{"a", nil}, {"", errLineTooLong}, {"b", io.EOF}} {
		line, err := readLine(r, 100)
		if string(line) != want.line || !errors.Is(err, want.err) && err != want.err {
			t.Errorf("readLine = %.20q, %v; want %q, %v", line, err, want.line, want.err)
		}
	}
}

func TestReadEvents(t *testing.T) {
	in := ": hello\r\n" +
		"id: 1\r\nretry: 250\r\ndata: a\r\ndata: b\r\n\r\n" +
		"event: message\rdata:c\r\r" +
		"data\n\n" + // a field without a colon: empty data
		"id: 7\n\n" + // no data: not dispatched
		"data: last" // no blank line at the end
	var got []event
	if err := readEvents(strings.NewReader(in), func(e event) error {
		got = append(got, e)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	want := []event{
		{ID: "1", Retry: 250, Data: "a\nb"},
		{ID: "1", Name: "message", Data: "c"},
		{ID: "1", Data: ""},
		{ID: "7", Data: "last"},
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("events = %+v\nwant %+v", got, want)
	}
	stop := errors.New("stop")
	if err := readEvents(strings.NewReader("data: 1\n\ndata: 2\n\n"), func(event) error { return stop }); !errors.Is(err, stop) {
		t.Errorf("readEvents = %v, want fn's error", err)
	}
}

func TestRunArgs(t *testing.T) {
	var errb bytes.Buffer
	for _, args := range [][]string{nil, {"ftp://x"}, {"a", "b"}, {"-nope", "http://x"}} {
		errb.Reset()
		if code := run(args, strings.NewReader(""), io.Discard, &errb); code != 2 {
			t.Errorf("run(%q) = %d, want 2", args, code)
		}
	}
	if code := run([]string{"-q", "http://127.0.0.1:1/mcp"}, strings.NewReader(""), io.Discard, &errb); code != 0 {
		t.Errorf("run at EOF = %d, want 0", code)
	}
}
