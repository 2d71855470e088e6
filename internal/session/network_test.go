package session

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcptui/mcptui/internal/session/inbox"
	"github.com/mcptui/mcptui/internal/testkit/everything"
	"github.com/mcptui/mcptui/mcp"
	"github.com/mcptui/mcptui/model"
)

// netHarness is a session on an HTTP server with its events folded into
// a model, as the inspector does.
type netHarness struct {
	t     *testing.T
	s     *Session
	state *model.Session
}

func startHTTP(t *testing.T, url string, opts mcp.Options) *netHarness {
	t.Helper()
	s, err := Start(context.Background(), Config{Command: url, MCP: opts, Inbox: inbox.New(inbox.Limits{})})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Shutdown(context.Background()) })
	return &netHarness{t: t, s: s, state: model.New(model.Config{})}
}

// until folds events until cond holds.
func (h *netHarness) until(what string, cond func(*model.Session) bool) {
	h.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	for !cond(h.state) {
		batch, err := h.s.Next(ctx)
		if err != nil {
			h.t.Fatalf("waiting for %s: %v\nexchanges:\n%s", what, err, dumpNet(h.state))
		}
		h.state.ApplyAll(batch)
	}
}

// find is the first exchange that matches, or nil.
func find(s *model.Session, match func(*model.NetExchange) bool) *model.NetExchange {
	b := s.Network()
	for i := range b.Len() {
		if x := b.At(i); match(x) {
			return x
		}
	}
	return nil
}

func sentMethod(x *model.NetExchange, method string) bool {
	return len(x.Sent) > 0 && x.Sent[0].Method == method
}

func dumpNet(s *model.Session) string {
	var b strings.Builder
	for i := range s.Network().Len() {
		fmt.Fprintf(&b, "%+v\n", *s.Network().At(i))
	}
	return b.String()
}

// A real Streamable HTTP server (go-sdk's handler) behind a front that
// sets a cookie and a token header: every exchange reaches the model with
// what it carried found in the traffic, the GET stream open until the
// session ends (DELETE), and no secret — the Authorization given, the
// URL's api_key, the cookie, the token header, the whole session id —
// anywhere in what the model keeps.
func TestNetworkEndToEnd(t *testing.T) {
	srv := sdk.NewServer(&sdk.Implementation{Name: "gosdk-http", Version: "1"}, nil)
	srv.AddTool(&sdk.Tool{Name: "echo", InputSchema: json.RawMessage(`{"type":"object"}`)},
		func(ctx context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "echoed"}}}, nil
		})
	handler := sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return srv }, nil)
	var sessionID string
	front := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Set-Cookie", "sid=cookie-s3cret; HttpOnly")
		w.Header().Set("X-Upstream-Token", "tok-s3cret")
		handler.ServeHTTP(w, r)
		if id := w.Header().Get("Mcp-Session-Id"); id != "" {
			sessionID = id
		}
	}))
	t.Cleanup(front.Close) // after the session's shutdown (cleanups run last first)
	opts := mcp.Options{}
	opts.HTTP.Header = http.Header{"Authorization": {"Bearer bearer-s3cret"}}
	h := startHTTP(t, front.URL+"/mcp?api_key=query-s3cret", opts)
	h.until("the initialize exchange and the GET stream", func(s *model.Session) bool {
		init := find(s, func(x *model.NetExchange) bool { return sentMethod(x, "initialize") })
		get := find(s, func(x *model.NetExchange) bool { return x.Method == http.MethodGet && x.Status == 200 })
		return init != nil && !init.Open && get != nil && get.Open && s.Conn().Phase == model.PhaseReady
	})
	if _, err := h.s.Send(context.Background(), "tools/call", json.RawMessage(`{"name":"echo","arguments":{}}`), 0); err != nil {
		t.Fatal(err)
	}
	h.until("the tools/call exchange's end", func(s *model.Session) bool {
		x := find(s, func(x *model.NetExchange) bool { return sentMethod(x, "tools/call") })
		return x != nil && !x.Open
	})
	call := find(h.state, func(x *model.NetExchange) bool { return sentMethod(x, "tools/call") })
	hist := h.state.History()
	if req := hist.BySeq(call.Sent[0].Seq); req == nil || req.Method != "tools/call" || req.Dir != model.Out {
		t.Errorf("the call's request line: %+v", req)
	}
	if len(call.Received) != 1 || call.Received[0].Kind != model.KindResponse || hist.BySeq(call.Received[0].Seq) == nil ||
		hist.BySeq(call.Received[0].Seq).Link != call.Sent[0].Seq {
		t.Errorf("the call's response: %+v", call.Received)
	}
	if call.Status != 200 || call.Messages != 1 || call.Bytes == 0 || call.Failed() || call.Took() <= 0 {
		t.Errorf("the call: %+v", *call)
	}
	if err := h.s.Shutdown(context.Background()); err != nil {
		t.Fatal(err)
	}
	h.until("the DELETE and the stream's end", func(s *model.Session) bool {
		get := find(s, func(x *model.NetExchange) bool { return x.Method == http.MethodGet && x.Status == 200 })
		return find(s, func(x *model.NetExchange) bool { return x.Method == http.MethodDelete }) != nil && !get.Open
	})
	all := dumpNet(h.state)
	for _, secret := range []string{"s3cret", sessionID} {
		if secret == "" {
			t.Fatal("the server gave no session id")
		}
		if strings.Contains(all, secret) {
			t.Errorf("the model keeps a secret (%s):\n%s", secret, all)
		}
	}
	init := find(h.state, func(x *model.NetExchange) bool { return sentMethod(x, "initialize") })
	if got := model.HeaderValue(init.ResponseHeader, "Mcp-Session-Id"); !strings.HasPrefix(got, sessionID[:4]+"…") {
		t.Errorf("the session id is shown as %q, want its first four characters", got)
	}
	if got := model.HeaderValue(init.RequestHeader, "Authorization"); got != "[redacted]" {
		t.Errorf("Authorization shown as %q", got)
	}
	t.Logf("exchanges:\n%s", all)
}

// The everything server (npm) over Streamable HTTP, the field test: its
// exchanges, the tools/call's answer on an SSE stream, the GET stream.
func TestNetworkEverything(t *testing.T) {
	url := everything.HTTPServer(t, "streamableHttp")
	h := startHTTP(t, url, mcp.Options{})
	h.until("ready", func(s *model.Session) bool { return s.Conn().Phase == model.PhaseReady })
	if _, err := h.s.Send(context.Background(), "tools/call", json.RawMessage(`{"name":"echo","arguments":{"message":"hi"}}`), 0); err != nil {
		t.Fatal(err)
	}
	h.until("the echo's exchange to end", func(s *model.Session) bool {
		x := find(s, func(x *model.NetExchange) bool { return sentMethod(x, "tools/call") })
		return x != nil && !x.Open
	})
	x := find(h.state, func(x *model.NetExchange) bool { return sentMethod(x, "tools/call") })
	if x.Status != 200 || x.Messages < 1 || len(x.Received) == 0 || x.Received[len(x.Received)-1].Kind != model.KindResponse || x.Received[len(x.Received)-1].Seq == 0 {
		t.Errorf("echo: %+v", *x)
	}
	t.Logf("exchanges:\n%s", dumpNet(h.state))
}
