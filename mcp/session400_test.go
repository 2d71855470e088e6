package mcp

import (
	"encoding/json"
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

// tsSessions answers as the TypeScript SDK's example HTTP servers do: a
// request carrying a session id it does not know (after a restart) gets
// 400 and {"error":{"message":"Bad Request: No valid session ID
// provided"},"id":null}, not 404. restart forgets every session.
type tsSessions struct {
	mu       sync.Mutex
	sessions map[string]bool
	inits    int
}

func (s *tsSessions) restart() {
	s.mu.Lock()
	s.sessions = map[string]bool{}
	s.mu.Unlock()
}

func (s *tsSessions) ServeHTTP(w http.ResponseWriter, r *http.Request) {
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
	s.mu.Lock()
	sid := r.Header.Get(httpconn.HeaderSessionID)
	known := s.sessions[sid]
	if m.Method == "initialize" && sid == "" {
		s.inits++
		sid, known = fmt.Sprintf("s%d", s.inits), true
		s.sessions[sid] = true
	}
	s.mu.Unlock()
	switch {
	case !known:
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusBadRequest)
		io.WriteString(w, `{"jsonrpc":"2.0","error":{"code":-32000,"message":"Bad Request: No valid session ID provided"},"id":null}`)
		return
	case m.ID == nil:
		w.WriteHeader(http.StatusAccepted)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set(httpconn.HeaderSessionID, sid)
	result := `{"tools":[]}`
	if m.Method == "initialize" {
		result = `{"protocolVersion":"2025-11-25","capabilities":{"tools":{}},"serverInfo":{"name":"ts-like","version":"1"}}`
	}
	fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":%s}`, m.ID, result)
}

// A restarted server that answers the old session id with 400 naming the
// session (as the TypeScript SDK's examples do) gets a fresh initialize,
// as a 404 does; the request is re-sent once and the log says so.
func TestHTTPSessionRefused400(t *testing.T) {
	s := &tsSessions{sessions: map[string]bool{}}
	srv := httptest.NewServer(s)
	t.Cleanup(srv.Close)
	log := &syncBuffer{}
	c, err := Connect(t.Context(), srv.URL+"/mcp", nil, Options{Versions: []string{Version20251125}, Conn: conn.Options{Stderr: log}})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if _, err := c.ListTools(t.Context()); err != nil {
		t.Fatal(err)
	}
	for i := range 2 {
		s.restart()
		if _, err := c.ListTools(t.Context()); err != nil {
			t.Fatalf("tools/list after restart %d: %v", i+1, err)
		}
	}
	s.mu.Lock()
	inits := s.inits
	s.mu.Unlock()
	if inits != 3 {
		t.Errorf("%d initializes, want 3 (one per session)", inits)
	}
	expired := 0
	for _, st := range c.Negotiation().Steps {
		if st.Kind == StepSessionExpired {
			expired++
		}
	}
	if expired != 2 {
		t.Errorf("%d session-expired steps, want 2: %+v", expired, c.Negotiation().Steps)
	}
	if n := strings.Count(log.String(), "the server ended the session (it refused its Mcp-Session-Id"); n != 2 {
		t.Errorf("the log tells of %d ended sessions, want 2:\n%s", n, log.String())
	}
}
