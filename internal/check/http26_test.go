package check

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcptui/mcptui/demo"
	"github.com/mcptui/mcptui/internal/check/rules"
)

// httpFront serves the demo as a 2026-07-28 Streamable HTTP endpoint for
// the HTTP rules: each POST is validated as the transport page says, its
// body handed to one demo process on pipes (ids renamed so that clients
// never collide) and its response returned as application/json.
// Notifications the demo sends for a request are dropped; a
// subscriptions/listen is refused (no stream here). broken names the one
// HTTP rule it breaks ("" for none).
type httpFront struct {
	broken string
	in     io.Writer
	mu     sync.Mutex
	n      int
	wait   map[string]chan map[string]json.RawMessage
}

func newHTTPFront(t *testing.T, broken string) string {
	f := &httpFront{broken: broken, wait: map[string]chan map[string]json.RawMessage{}}
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	f.in = inW
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		demo.Serve(ctx, inR, outW, io.Discard)
		outW.Close()
	}()
	go f.read(outR)
	srv := httptest.NewServer(f)
	t.Cleanup(func() {
		srv.Close()
		inW.Close()
		cancel()
		<-done
	})
	return srv.URL + "/mcp"
}

// read hands each demo response to the POST waiting for it.
func (f *httpFront) read(out io.Reader) {
	sc := bufio.NewScanner(out)
	sc.Buffer(nil, 64<<20)
	for sc.Scan() {
		m := object(sc.Bytes())
		if m == nil || m["method"] != nil {
			continue
		}
		f.mu.Lock()
		ch := f.wait[string(m["id"])]
		delete(f.wait, string(m["id"]))
		f.mu.Unlock()
		if ch != nil {
			ch <- m
		}
	}
}

// refuse writes an HTTP status with a JSON-RPC error body.
func refuse(w http.ResponseWriter, status int, id json.RawMessage, code int, text string) {
	if id == nil {
		id = json.RawMessage("null")
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	b, _ := json.Marshal(msg{"jsonrpc": "2.0", "id": id, "error": msg{"code": code, "message": text}})
	w.Write(b)
}

func (f *httpFront) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		if f.broken == "http.legacy-methods" {
			w.WriteHeader(http.StatusOK)
			return
		}
		w.Header().Set("Allow", "POST")
		w.WriteHeader(http.StatusMethodNotAllowed)
		return
	}
	if f.broken == "http.no-sessions" {
		w.Header().Set("Mcp-Session-Id", "zoo-session")
	}
	if o := r.Header.Get("Origin"); o != "" && !strings.HasPrefix(o, "http://127.0.0.1") && f.broken != "http.origin" {
		refuse(w, http.StatusForbidden, nil, -32600, "Origin not allowed")
		return
	}
	body, _ := io.ReadAll(io.LimitReader(r.Body, 64<<20))
	m := object(bytes.TrimSpace(body))
	if m == nil {
		status := http.StatusBadRequest
		if f.broken == "http.body-refused" {
			status = http.StatusInternalServerError
		}
		refuse(w, status, nil, -32700, "Parse error")
		return
	}
	id, method := m["id"], str(m["method"])
	version := str(object(object(m["params"])["_meta"])["io.modelcontextprotocol/protocolVersion"])
	switch {
	case f.broken != "http.header-required" && r.Header.Get("Mcp-Method") == "":
		refuse(w, http.StatusBadRequest, id, -32020, "Header mismatch: Mcp-Method is missing")
		return
	case f.broken != "http.header-mismatch" && r.Header.Get("Mcp-Method") != "" && r.Header.Get("Mcp-Method") != method:
		refuse(w, http.StatusBadRequest, id, -32020, "Header mismatch: Mcp-Method")
		return
	case f.broken != "http.version-header" && r.Header.Get("MCP-Protocol-Version") != version:
		refuse(w, http.StatusBadRequest, id, -32020, "Header mismatch: MCP-Protocol-Version")
		return
	case method == "subscriptions/listen":
		refuse(w, http.StatusBadRequest, id, -32601, "no streams on this test front")
		return
	}
	if id == nil { // a notification
		f.in.Write(append(bytes.Clone(body), '\n'))
		if f.broken == "http.notification" {
			w.WriteHeader(http.StatusOK)
			return
		}
		w.WriteHeader(http.StatusAccepted)
		return
	}
	f.mu.Lock()
	f.n++
	inner := fmt.Sprintf(`"front-%d"`, f.n)
	ch := make(chan map[string]json.RawMessage, 1)
	f.wait[inner] = ch
	f.mu.Unlock()
	m["id"] = json.RawMessage(inner)
	line, _ := json.Marshal(m)
	f.in.Write(append(line, '\n'))
	var res map[string]json.RawMessage
	select {
	case res = <-ch:
	case <-r.Context().Done():
		return
	}
	res["id"] = id
	status := http.StatusOK
	var e struct{ Code int }
	if json.Unmarshal(res["error"], &e) == nil && res["error"] != nil {
		switch e.Code {
		case -32601:
			if f.broken != "http.method-not-found" {
				status = http.StatusNotFound
			}
		case -32602, -32021, -32022:
			if f.broken != "http.status-400" {
				status = http.StatusBadRequest
			}
		}
	}
	out, _ := json.Marshal(res)
	w.Header().Set("Content-Type", "application/json")
	if f.broken == "http.content-type" {
		w.Header().Set("Content-Type", "text/plain")
	}
	w.WriteHeader(status)
	w.Write(out)
}

// httpCheck checks the front (broken as named) with the HTTP rules only.
func httpCheck(t *testing.T, broken string, only ...string) *EraReport {
	t.Helper()
	url := newHTTPFront(t, broken)
	if len(only) == 0 {
		only = []string{"http"}
	}
	return runCheck(t, Options{Command: url, Era: e26, Timeout: 30 * time.Second, Rules: only,
		Sampling: declineAll, ElicitForm: declineAll, ElicitURL: declineAll, Roots: declineAll})
}

// The demo behind a correct front passes every HTTP rule, and each broken
// front fails its rule (with what was seen); over stdio they are skipped.
func TestHTTPRules(t *testing.T) {
	t.Parallel()
	e := httpCheck(t, "")
	for _, id := range httpRules {
		res := resultOf(e, id)
		if res == nil || res.Status != Passed {
			t.Errorf("%s on the demo over HTTP: %+v", id, res)
		}
	}
	for _, id := range httpRules {
		t.Run(id, func(t *testing.T) {
			t.Parallel()
			res := resultOf(httpCheck(t, id, id), id)
			if res == nil || res.Status != Failed || len(res.Seen) == 0 {
				t.Fatalf("%s did not fail on its broken front: %+v", id, res)
			}
			t.Logf("seen: %s", res.Seen[0])
		})
	}
	for _, r := range rules.All() {
		if r.Group == "http" && !strings.HasPrefix(r.ID, "http.") {
			t.Errorf("%s is in the http group", r.ID)
		}
	}
}
