package httpconn_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcptui/mcptui/conn"
	"github.com/mcptui/mcptui/httpconn"
	"github.com/mcptui/mcptui/internal/jsonscan"
)

// listenFront is a 2026-07-28 Streamable HTTP front that answers
// subscriptions/listen with an SSE stream: the acknowledgement, then an
// event for each string sent on events, the terminal response when end is
// closed. closed is closed when the client closes the stream first;
// cancelled receives the params of each notifications/cancelled.
type listenFront struct {
	url       string
	events    chan string
	end       chan struct{}
	closed    chan struct{}
	cancelled chan string
	listening chan struct{}
}

func startListenFront(t *testing.T) *listenFront {
	t.Helper()
	f := &listenFront{events: make(chan string), end: make(chan struct{}), closed: make(chan struct{}),
		cancelled: make(chan string, 4), listening: make(chan struct{}, 4)}
	var once sync.Once
	f.url = scripted(t, func(w http.ResponseWriter, r *http.Request, body []byte) {
		method := jsonscan.Unquote(jsonscan.Member(body, "method"))
		if isNotification(body) {
			if method == "notifications/cancelled" {
				f.cancelled <- string(jsonscan.Member(body, "params"))
			}
			w.WriteHeader(http.StatusAccepted)
			return
		}
		id := string(jsonscan.Member(body, "id"))
		if method != "subscriptions/listen" {
			w.Header().Set("Content-Type", "application/json")
			_, _ = io.WriteString(w, response(body, `{}`))
			return
		}
		tag := fmt.Sprintf(`"_meta":{"io.modelcontextprotocol/subscriptionId":%s}`, id)
		sse(w)
		send := func(msg string) bool {
			_, err := fmt.Fprintf(w, "data: %s\n\n", msg)
			w.(http.Flusher).Flush()
			return err == nil
		}
		send(`{"jsonrpc":"2.0","method":"notifications/subscriptions/acknowledged","params":{` + tag + `,"notifications":{"toolsListChanged":true}}}`)
		f.listening <- struct{}{}
		for {
			select {
			case ev := <-f.events:
				if strings.HasPrefix(ev, "raw:") {
					_, _ = io.WriteString(w, ev[4:])
					w.(http.Flusher).Flush()
					continue
				}
				send(`{"jsonrpc":"2.0","method":"` + ev + `","params":{` + tag + `}}`)
			case <-f.end:
				send(`{"jsonrpc":"2.0","id":` + id + `,"result":{"resultType":"complete",` + tag + `}}`)
				return
			case <-r.Context().Done():
				once.Do(func() { close(f.closed) })
				return
			}
		}
	})
	return f
}

func TestListenOverHTTP(t *testing.T) {
	f := startListenFront(t)
	u := &updates{}
	c, x := dial(t, f.url, httpconn.Options{OnExchangeUpdate: u.add})
	sub, err := c.Listen(t.Context(), json.RawMessage(`{"toolsListChanged":true,"promptsListChanged":true}`))
	if err != nil {
		t.Fatalf("Listen: %v", err)
	}
	if got := string(sub.Accepted()); got != `{"toolsListChanged":true}` {
		t.Errorf("Accepted = %s", got)
	}
	f.events <- "notifications/tools/list_changed"
	n, err := sub.Next(t.Context())
	if err != nil || n.Method != "notifications/tools/list_changed" {
		t.Fatalf("Next = %+v, %v", n, err)
	}
	var listen httpconn.Exchange
	for _, e := range x.list() {
		if strings.Contains(string(e.Body), `"subscriptions/listen"`) {
			listen = e
		}
	}
	if listen.ID == 0 || listen.Status != http.StatusOK {
		t.Fatalf("no listen exchange: %+v", x.list())
	}
	for _, up := range u.of(listen.ID) {
		if up.End {
			t.Fatalf("the listen exchange ended while the stream is open: %+v", up)
		}
	}
	close(f.end)
	if n, err := sub.Next(t.Context()); !errors.Is(err, io.EOF) {
		t.Fatalf("after the terminal response: %+v, %v (want io.EOF)", n, err)
	}
	waitFor(t, "the listen exchange to end", func() bool {
		ups := u.of(listen.ID)
		return len(ups) > 0 && ups[len(ups)-1].End
	})
	var received []string
	for _, e := range x.events() {
		if e.Kind == conn.Received {
			received = append(received, string(jsonscan.Member(e.Line, "method"))+string(jsonscan.Member(e.Line, "id")))
		}
	}
	want := []string{`"notifications/subscriptions/acknowledged"`, `"notifications/tools/list_changed"`, string(sub.ID())}
	if fmt.Sprint(received) != fmt.Sprint(want) {
		t.Errorf("observer's received lines: %v, want %v", received, want)
	}
	select {
	case p := <-f.cancelled:
		t.Errorf("a subscription the server ended was cancelled: %s", p)
	default:
	}
}

func TestListenClosedByClient(t *testing.T) {
	f := startListenFront(t)
	c, _ := dial(t, f.url, httpconn.Options{})
	sub, err := c.Listen(t.Context(), map[string]any{"toolsListChanged": true})
	if err != nil {
		t.Fatalf("Listen: %v", err)
	}
	_ = sub.Close()
	select {
	case p := <-f.cancelled:
		if string(jsonscan.Member([]byte(p), "requestId")) != string(sub.ID()) {
			t.Errorf("cancelled %s, want requestId %s", p, sub.ID())
		}
	case <-time.After(30 * time.Second):
		t.Fatal("the server was never sent notifications/cancelled")
	}
	select {
	case <-f.closed:
	case <-time.After(30 * time.Second):
		t.Fatal("the server never saw the stream closed")
	}
	var e *conn.Error
	if _, err := sub.Next(t.Context()); !errors.As(err, &e) || e.Code != conn.CodeConnection {
		t.Errorf("Next after Close: %v", err)
	}
}

func TestListenStreamEndsWithoutTerminal(t *testing.T) {
	url := scripted(t, func(w http.ResponseWriter, r *http.Request, body []byte) {
		sse(w)
		tag := fmt.Sprintf(`"_meta":{"io.modelcontextprotocol/subscriptionId":%s}`, jsonscan.Member(body, "id"))
		fmt.Fprintf(w, "data: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/subscriptions/acknowledged\",\"params\":{%s,\"notifications\":{}}}\n\n", tag)
		fmt.Fprintf(w, "data: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/resources/list_changed\",\"params\":{%s}}\n\n", tag)
	})
	c, _ := dial(t, url, httpconn.Options{})
	sub, err := c.Listen(t.Context(), nil)
	if err != nil {
		t.Fatalf("Listen: %v", err)
	}
	if n, err := sub.Next(t.Context()); err != nil || n.Method != "notifications/resources/list_changed" {
		t.Fatalf("the queued event: %+v, %v", n, err)
	}
	var e *conn.Error
	if _, err := sub.Next(t.Context()); !errors.As(err, &e) || e.Code != conn.CodeConnection || !strings.Contains(e.Message, "without a terminal response") {
		t.Fatalf("after the stream's end: %v", err)
	}
}

func TestListenRefusedWithError(t *testing.T) {
	url := scripted(t, func(w http.ResponseWriter, r *http.Request, body []byte) {
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"error":{"code":-32601,"message":"Method not found"}}`, jsonscan.Member(body, "id"))
	})
	c, _ := dial(t, url, httpconn.Options{})
	_, err := c.Listen(t.Context(), nil)
	var e *conn.Error
	if !errors.As(err, &e) || e.Code != conn.CodeMethodNotFound {
		t.Fatalf("Listen: %v, want -32601", err)
	}
}

func TestListenOverLimitEventDiscarded(t *testing.T) {
	f := startListenFront(t)
	c, x := dial(t, f.url, httpconn.Options{MaxMessageBytes: 4096})
	sub, err := c.Listen(t.Context(), nil)
	if err != nil {
		t.Fatalf("Listen: %v", err)
	}
	f.events <- "raw:data: " + strings.Repeat("x", 1<<20) + "\n\n"
	f.events <- "notifications/tools/list_changed"
	if n, err := sub.Next(t.Context()); err != nil || n.Method != "notifications/tools/list_changed" {
		t.Fatalf("after the huge event: %+v, %v", n, err)
	}
	discarded := 0
	for _, e := range x.events() {
		if e.Kind == conn.Discarded && e.Size == 1<<20 && e.Line == nil {
			discarded++
		}
	}
	if discarded != 1 {
		t.Errorf("discarded events: %d, want 1", discarded)
	}
}

func TestListenTimesOutWithoutAck(t *testing.T) {
	cancelled := make(chan string, 1)
	closed := make(chan struct{})
	url := scripted(t, func(w http.ResponseWriter, r *http.Request, body []byte) {
		if isNotification(body) {
			cancelled <- string(jsonscan.Member(body, "params"))
			w.WriteHeader(http.StatusAccepted)
			return
		}
		sse(w)
		w.(http.Flusher).Flush()
		<-r.Context().Done()
		close(closed)
	})
	c, _ := dial(t, url, httpconn.Options{})
	_, err := c.Listen(t.Context(), nil, conn.WithTimeout(200*time.Millisecond))
	var e *conn.Error
	if !errors.As(err, &e) || e.Code != conn.CodeTimeout {
		t.Fatalf("Listen: %v, want -32001", err)
	}
	select {
	case p := <-cancelled:
		if !strings.Contains(p, "timed out") {
			t.Errorf("cancelled %s", p)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("no cancellation")
	}
	select {
	case <-closed:
	case <-time.After(30 * time.Second):
		t.Fatal("the stream was never closed")
	}
}
