package httpconn_test

import (
	"encoding/json"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/mcptui/mcptui/httpconn"
)

// updates records ExchangeUpdates by exchange.
type updates struct {
	mu  sync.Mutex
	all []httpconn.ExchangeUpdate
}

func (u *updates) add(e httpconn.ExchangeUpdate) {
	e.Message = append([]byte(nil), e.Message...)
	u.mu.Lock()
	u.all = append(u.all, e)
	u.mu.Unlock()
}

func (u *updates) of(id uint64) []httpconn.ExchangeUpdate {
	u.mu.Lock()
	defer u.mu.Unlock()
	var out []httpconn.ExchangeUpdate
	for _, e := range u.all {
		if e.ID == id {
			out = append(out, e)
		}
	}
	return out
}

// Every exchange is numbered, carries its request body, and its response
// body reports each message it delivered and its end: a JSON answer one
// message then the end, an SSE answer each event (progress, then the
// response), the GET stream open until Close ends it.
func TestExchangeUpdates(t *testing.T) {
	for _, mode := range []struct {
		name string
		json bool
		msgs int
	}{{"json", true, 1}, {"sse", false, 4}} {
		t.Run(mode.name, func(t *testing.T) {
			srv := startSDK(t, mode.json)
			u := &updates{}
			c, x := dial(t, srv.url, httpconn.Options{OnExchangeUpdate: u.add})
			initialize(t, c)
			if _, err := c.Call(t.Context(), "tools/call", json.RawMessage(`{"name":"progress","arguments":{},"_meta":{"progressToken":"p"}}`)); err != nil {
				t.Fatal(err)
			}
			var call httpconn.Exchange
			var get httpconn.Exchange
			for _, e := range x.list() {
				if e.ID == 0 {
					t.Errorf("exchange without an ID: %+v", e)
				}
				if e.Method == http.MethodPost && strings.Contains(string(e.Body), `"tools/call"`) {
					call = e
				}
				if e.Method == http.MethodGet && e.Status == http.StatusOK {
					get = e
				}
			}
			if call.ID == 0 || len(call.Body) != call.RequestBytes {
				t.Fatalf("no tools/call exchange with its body: %+v", x.list())
			}
			waitFor(t, "the call's body to end", func() bool {
				ups := u.of(call.ID)
				return len(ups) > 0 && ups[len(ups)-1].End
			})
			ups := u.of(call.ID)
			end := ups[len(ups)-1]
			if end.Messages != mode.msgs || len(ups) != mode.msgs+1 || end.Bytes == 0 || end.Err != nil {
				t.Errorf("tools/call updates: %d, end %+v (want %d messages)", len(ups), end, mode.msgs)
			}
			if last := ups[len(ups)-2]; !strings.Contains(string(last.Message), `"progressed"`) || last.Size != len(last.Message) {
				t.Errorf("the last message update: %+v", last)
			}
			if !mode.json {
				if get.ID == 0 {
					t.Fatal("no GET stream")
				}
				for _, e := range u.of(get.ID) {
					if e.End {
						t.Fatalf("the GET stream ended before Close: %+v", e)
					}
				}
			}
			_ = c.Close()
			if !mode.json {
				ups := u.of(get.ID)
				if len(ups) == 0 || !ups[len(ups)-1].End || !ups[len(ups)-1].Closed {
					t.Errorf("the GET stream's end after Close: %+v", ups)
				}
			}
		})
	}
}

// A refused connection is an exchange with its error and no response.
func TestExchangeRefused(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	_ = l.Close()
	u := &updates{}
	c, x := dial(t, "http://"+addr+"/mcp", httpconn.Options{OnExchangeUpdate: u.add, Mode: httpconn.Streamable})
	if _, err := c.Call(t.Context(), "ping", nil); err == nil {
		t.Fatal("a call to a closed port succeeded")
	}
	ex := x.list()
	if len(ex) != 1 || ex[0].Err == nil || ex[0].Status != 0 || !strings.Contains(ex[0].Err.Error(), "refused") {
		t.Fatalf("exchanges: %+v", ex)
	}
	if ups := u.of(ex[0].ID); len(ups) != 0 {
		t.Errorf("updates for an exchange without a body: %+v", ups)
	}
}
