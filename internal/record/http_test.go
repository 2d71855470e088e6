package record

import (
	"bytes"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/mcptui/mcptui/httpconn"
)

// TestHTTPExchangesRecorded: an HTTP exchange and its body's end are
// entries of their own, headers redacted, tied to the message they carried.
func TestHTTPExchangesRecorded(t *testing.T) {
	var b bytes.Buffer
	r := New(&b, Header{Command: "https://h.example/mcp"})
	var o httpconn.Options
	var seen int
	o.OnExchange = func(httpconn.Exchange) { seen++ }
	r.WatchHTTP(&o)
	now := time.Now()
	o.OnExchange(httpconn.Exchange{ID: 3, Time: now, Method: "POST", URL: "https://h.example/mcp?token=abcdef123", Status: 200, Duration: 1500 * time.Microsecond,
		RequestHeader:  http.Header{"Authorization": {"Bearer ghp_AAAAAAAAAAAAAAAAAAAAAAAA"}, "Mcp-Session-Id": {"0123456789abcdef0123"}},
		ResponseHeader: http.Header{"Content-Type": {"text/event-stream"}}, RequestBytes: 60, ResponseBytes: -1, Transport: "http",
		Body: []byte(`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"x"}}`)})
	o.OnExchangeUpdate(httpconn.ExchangeUpdate{ID: 3, Time: now.Add(time.Second), Messages: 2, Bytes: 300, End: true, Err: errors.New("stream broke")})
	o.OnExchangeUpdate(httpconn.ExchangeUpdate{ID: 3, Time: now, Messages: 1}) // not the end: not recorded
	if err := r.Close(); err != nil {
		t.Fatal(err)
	}
	if seen != 1 {
		t.Errorf("the hook after the recorder saw %d exchanges", seen)
	}
	if strings.Contains(b.String(), "ghp_") || strings.Contains(b.String(), "abcdef123") || strings.Contains(b.String(), "0123456789abcdef0123") {
		t.Errorf("a secret was recorded:\n%s", b.String())
	}
	rec, err := Read(&b)
	if err != nil {
		t.Fatal(err)
	}
	var ex, end *Entry
	for i := range rec.Entries {
		switch rec.Entries[i].Type {
		case TypeHTTP:
			ex = &rec.Entries[i]
		case TypeHTTPEnd:
			end = &rec.Entries[i]
		}
	}
	if ex == nil || end == nil {
		t.Fatalf("entries %+v", rec.Entries)
	}
	if ex.Exchange != 3 || ex.Method != "POST" || ex.HTTPStatus != 200 || ex.DurationMs != 1.5 || ex.RPCKind != "request" || ex.RPCID != "7" ||
		ex.RPCMethod != "tools/call" || ex.ResponseBytes != -1 || len(ex.RequestHeaders) != 2 || ex.RequestHeaders[0].Value != Redacted {
		t.Errorf("http entry %+v", ex.HTTPFields)
	}
	if end.Exchange != 3 || end.Messages != 2 || end.Bytes != 300 || end.Error != "stream broke" {
		t.Errorf("http-end entry %+v %q", end.HTTPFields, end.Error)
	}
}
