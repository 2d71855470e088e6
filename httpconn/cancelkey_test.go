package httpconn_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/mcptui/mcptui/conn"
	"github.com/mcptui/mcptui/httpconn"
	"github.com/mcptui/mcptui/internal/jsonscan"
)

// A server's notifications/cancelled finds the request it cancels by the
// id as JSON-RPC peers match it (rpccall.MatchKey): requestId 7.0 is the
// request whose id was 7, as conn matches it over stdio.
func TestServerCancelMatchesIDByValue(t *testing.T) {
	started, cancelled := make(chan struct{}), make(chan struct{})
	url := scripted(t, func(w http.ResponseWriter, r *http.Request, body []byte) {
		if isNotification(body) || r.Method != http.MethodPost || jsonscan.Member(body, "method") == nil {
			// A notification, the stream's GET, or an answer of ours.
			w.WriteHeader(http.StatusAccepted)
			return
		}
		sse(w)
		fmt.Fprint(w, "data: {\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"elicitation/create\",\"params\":{}}\n\n")
		w.(http.Flusher).Flush()
		select { // the handler runs: a cancellation now cancels it, not its start
		case <-started:
		case <-time.After(30 * time.Second):
			t.Error("the handler of request 7 never started")
		}
		fmt.Fprint(w, "data: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\",\"params\":{\"requestId\":7.0}}\n\n")
		fmt.Fprintf(w, "data: %s\n\n", response(body, `{}`))
		w.(http.Flusher).Flush()
	})
	c, _ := dial(t, url, httpconn.Options{OnServerRequest: func(ctx context.Context, _ *conn.Request) (json.RawMessage, error) {
		close(started)
		<-ctx.Done()
		close(cancelled)
		return nil, ctx.Err()
	}})
	if _, err := c.Call(t.Context(), "tools/call", json.RawMessage(`{}`)); err != nil {
		t.Fatalf("tools/call: %v", err)
	}
	select {
	case <-cancelled:
	case <-time.After(30 * time.Second):
		t.Fatal("requestId 7.0 did not cancel the handler of request 7")
	}
}
