package httpconn_test

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/mcptui/mcptui/conn"
	"github.com/mcptui/mcptui/httpconn"
	"github.com/mcptui/mcptui/internal/jsonscan"
	"github.com/mcptui/mcptui/internal/rpccall"
)

// callOrHang makes a call with no timer of its own and gives it a generous
// deadline: an answer known to be lost must fail the call long before.
func callOrHang(t *testing.T, c *httpconn.Conn) error {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 60*time.Second)
	defer cancel()
	_, err := c.Call(ctx, "tools/call", nil, conn.WithTimeout(0))
	if ctx.Err() != nil {
		t.Fatalf("the call waited for an answer that was discarded: %v", err)
	}
	return err
}

// An answer discarded on the POST's stream (over the limit, nested too
// deep) whose id is readable fails its call at once, saying why, although
// the server keeps the stream open; the call does not wait for a timeout.
func TestDiscardedAnswerFailsAtOnce(t *testing.T) {
	for _, tc := range []struct {
		name string
		body func(id []byte) string
		want string
	}{
		{"over the limit", func(id []byte) string {
			return fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"result":{"text":"%s"}}`, id, strings.Repeat("x", 256<<10))
		}, "over the limit of 65536 bytes"},
		{"too deep", func(id []byte) string {
			return fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"result":%s%s}`, id, strings.Repeat("[", 10001), strings.Repeat("]", 10001))
		}, "nested deeper than 10000 levels"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			url := scripted(t, func(w http.ResponseWriter, r *http.Request, body []byte) {
				sse(w)
				_, _ = io.WriteString(w, "data: "+tc.body(jsonscan.Member(body, "id"))+"\n\n")
				w.(http.Flusher).Flush()
				<-r.Context().Done() // the stream stays open
			})
			c, x := dial(t, url, httpconn.Options{MaxMessageBytes: 64 << 10})
			err := callOrHang(t, c)
			var e *conn.Error
			if !errors.As(err, &e) || e.Code != conn.CodeConnection || !strings.Contains(err.Error(), "discarded") || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("call: %v, want -32000 saying the answer was discarded (%s)", err, tc.want)
			}
			if !rpccall.AnswerDiscarded(err) {
				t.Errorf("call: %v: its cause is no rpccall.DiscardedError (it would pass for a lost connection)", err)
			}
			if countKind(x.events(), conn.Discarded) != 1 {
				t.Errorf("discarded events: %+v", x.events())
			}
		})
	}
}

// A discarded server request (it has a method) or an answer to no call of
// ours does not fail the call that is waiting.
func TestDiscardedOtherMessageLeavesTheCall(t *testing.T) {
	url := scripted(t, func(w http.ResponseWriter, r *http.Request, body []byte) {
		sse(w)
		big := strings.Repeat("x", 256<<10)
		_, _ = fmt.Fprintf(w, "data: {\"jsonrpc\":\"2.0\",\"id\":%s,\"method\":\"sampling/createMessage\",\"params\":{\"t\":\"%s\"}}\n\n", jsonscan.Member(body, "id"), big)
		_, _ = fmt.Fprintf(w, "data: {\"jsonrpc\":\"2.0\",\"id\":999,\"result\":{\"t\":\"%s\"}}\n\n", big)
		_, _ = io.WriteString(w, "data: "+response(body, `{"ok":true}`)+"\n\n")
	})
	c, _ := dial(t, url, httpconn.Options{MaxMessageBytes: 64 << 10})
	res, err := c.Call(t.Context(), "ping", nil)
	if err != nil || string(res) != `{"ok":true}` {
		t.Fatalf("ping: %s, %v", res, err)
	}
}

// A JSON answer over the limit, plain or a gzip bomb, fails its call with
// its size and the limit named, not as an answer that "ended without a
// response".
func TestOverLimitJSONAnswerNamesItsSize(t *testing.T) {
	const size = 4 << 20
	payload := func(id []byte) []byte {
		head := fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"result":{"text":"`, id)
		tail := `"}}`
		return []byte(head + strings.Repeat("x", size-len(head)-len(tail)) + tail)
	}
	for _, gz := range []bool{false, true} {
		t.Run(fmt.Sprintf("gzip=%v", gz), func(t *testing.T) {
			url := scripted(t, func(w http.ResponseWriter, r *http.Request, body []byte) {
				w.Header().Set("Content-Type", "application/json")
				p := payload(jsonscan.Member(body, "id"))
				if gz {
					var b bytes.Buffer
					zw := gzip.NewWriter(&b)
					_, _ = zw.Write(p)
					_ = zw.Close()
					w.Header().Set("Content-Encoding", "gzip")
					p = b.Bytes()
				}
				_, _ = w.Write(p)
			})
			c, _ := dial(t, url, httpconn.Options{MaxMessageBytes: 1 << 20})
			err := callOrHang(t, c)
			if err == nil || !strings.Contains(err.Error(), fmt.Sprintf("%d bytes", size)) || !strings.Contains(err.Error(), "limit of 1048576 bytes") {
				t.Fatalf("call: %v, want the answer's size (%d bytes) and the limit named", err, size)
			}
		})
	}
	// The id cut off: the POST's own call still fails with the size.
	url := scripted(t, func(w http.ResponseWriter, r *http.Request, body []byte) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = fmt.Fprintf(w, `{"jsonrpc":"2.0","result":{"text":"%s"},"id":%s}`, strings.Repeat("y", 2<<20), jsonscan.Member(body, "id"))
	})
	c, _ := dial(t, url, httpconn.Options{MaxMessageBytes: 1 << 20})
	if err := callOrHang(t, c); err == nil || !strings.Contains(err.Error(), "limit of 1048576 bytes") {
		t.Fatalf("call: %v, want the limit named", err)
	}
}
