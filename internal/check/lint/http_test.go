package lint

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/mcptui/mcptui/conn"
	"github.com/mcptui/mcptui/httpconn"
)

// sessionServer answers as the TypeScript SDK's example HTTP servers do:
// a request other than initialize without a session it knows gets 400
// and an id-less error ("Server not initialized" before any session, "No
// valid session ID provided" for an id it does not know, as after a
// restart). restart forgets every session.
type sessionServer struct {
	mu       sync.Mutex
	sessions map[string]bool
	n        int
}

func (s *sessionServer) restart() {
	s.mu.Lock()
	s.sessions = map[string]bool{}
	s.mu.Unlock()
}

func (s *sessionServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		w.WriteHeader(http.StatusMethodNotAllowed)
		return
	}
	body, _ := io.ReadAll(r.Body)
	var m struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
	}
	_ = json.Unmarshal(body, &m)
	refuse := func(msg string) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusBadRequest)
		fmt.Fprintf(w, `{"jsonrpc":"2.0","error":{"code":-32000,"message":%q},"id":null}`, msg)
	}
	s.mu.Lock()
	sid := r.Header.Get(httpconn.HeaderSessionID)
	known := s.sessions[sid]
	if m.Method == "initialize" && sid == "" {
		s.n++
		sid, known = fmt.Sprintf("s%d", s.n), true
		s.sessions[sid] = true
	}
	s.mu.Unlock()
	switch {
	case sid == "":
		refuse("Bad Request: Server not initialized")
		return
	case !known:
		refuse("Bad Request: No valid session ID provided")
		return
	case m.ID == nil:
		w.WriteHeader(http.StatusAccepted)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set(httpconn.HeaderSessionID, sid)
	result := `{}`
	switch m.Method {
	case "initialize":
		result = `{"protocolVersion":"2025-11-25","capabilities":{"tools":{}},"serverInfo":{"name":"ts-like","version":"1"}}`
	case "tools/list":
		result = `{"tools":[]}`
	}
	fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":%s}`, m.ID, result)
}

// The live lint over Streamable HTTP: the 400 bodies of a healthy server
// (an id-less error answering mcptui's own server/discover probe, which
// the transport allows, and the refusals of a session the server forgot
// on restart) are no reply to a notification, and no finding at all.
func TestHTTPErrorBodiesAreNoReplyToANotification(t *testing.T) {
	srv := httptest.NewServer(&sessionServer{sessions: map[string]bool{}})
	t.Cleanup(srv.Close)
	s := srv.Config.Handler.(*sessionServer)
	l := New()
	var mu sync.Mutex
	var found []Finding
	var seq uint64
	observe := func(ev conn.Event) {
		if ev.Kind != conn.Sent && ev.Kind != conn.Received && ev.Kind != conn.Discarded {
			return
		}
		reason := ""
		if ev.Err != nil {
			reason = ev.Err.Error()
		}
		mu.Lock()
		defer mu.Unlock()
		seq++
		found = append(found, l.Observe(Line{Seq: seq, Out: ev.Kind == conn.Sent, Raw: ev.Line, Discarded: ev.Kind == conn.Discarded, Reason: reason})...)
	}
	c, err := httpconn.Dial(t.Context(), srv.URL, httpconn.Options{Mode: httpconn.Streamable, Observer: observe})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if _, err := c.Call(t.Context(), "server/discover", map[string]any{}); err == nil {
		t.Fatal("server/discover before a session: no error")
	}
	if _, err := c.Call(t.Context(), "initialize", map[string]any{"protocolVersion": "2025-11-25", "capabilities": map[string]any{}}); err != nil {
		t.Fatal(err)
	}
	if err := c.Notify(t.Context(), "notifications/initialized", nil); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Call(t.Context(), "tools/list", nil); err != nil {
		t.Fatal(err)
	}
	s.restart()
	for range 3 {
		_, err := c.Call(t.Context(), "tools/list", nil)
		if !errors.Is(err, httpconn.ErrSessionExpired) {
			t.Fatalf("tools/list after the restart: %v, want ErrSessionExpired", err)
		}
		if _, err := c.Call(t.Context(), "initialize", map[string]any{"protocolVersion": "2025-11-25", "capabilities": map[string]any{}}); err != nil {
			t.Fatal(err)
		}
		s.restart()
	}
	mu.Lock()
	defer mu.Unlock()
	var got []string
	for _, f := range found {
		got = append(got, f.Rule+": "+f.Message)
	}
	if len(got) != 0 {
		t.Errorf("findings on a healthy server:\n%s", strings.Join(got, "\n"))
	}
}
