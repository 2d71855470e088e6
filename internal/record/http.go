package record

import (
	"encoding/json"
	"fmt"
	"net/http"
	"sort"
	"time"

	"github.com/mcptui/mcptui/httpconn"
	"github.com/mcptui/mcptui/internal/wiremsg"
)

// Entry types of a server reached over HTTP: an exchange's request and
// response headers, and the end of its response body.
const (
	TypeHTTP    = "http"
	TypeHTTPEnd = "http-end"
)

// HTTPFields are the members of the "http" and "http-end" entries:
//
//	http      one HTTP exchange once its response headers came (or it
//	          failed): "exchange" (its number, from 1), "method", "url",
//	          "httpStatus" (0: none came, "error" says why), "durationMs"
//	          (to the headers), "requestHeaders", "responseHeaders" (each
//	          [{"name","value"}], redacted as the network view redacts them:
//	          credentials, cookies, the session id cut to four characters),
//	          "requestBytes", "responseBytes" (-1: a stream), "transport"
//	          ("http" or "sse"), "rpcKind", "rpcMethod", "rpcId" (the
//	          JSON-RPC message its body carried); its time is when the
//	          request was sent
//	http-end  the end of that exchange's response body: "exchange",
//	          "messages" (the messages it delivered), "bytes", "closed"
//	          (mcptui closed it before its end), "error"
//
// The messages themselves are the "sent" and "received" lines.
type HTTPFields struct {
	Exchange        uint64       `json:"exchange,omitempty"`
	Method          string       `json:"method,omitempty"`
	URL             string       `json:"url,omitempty"`
	HTTPStatus      int          `json:"httpStatus,omitempty"`
	DurationMs      float64      `json:"durationMs,omitempty"`
	RequestHeaders  []HeaderPair `json:"requestHeaders,omitempty"`
	ResponseHeaders []HeaderPair `json:"responseHeaders,omitempty"`
	RequestBytes    int          `json:"requestBytes,omitempty"`
	ResponseBytes   int64        `json:"responseBytes,omitempty"`
	Transport       string       `json:"transport,omitempty"`
	Messages        int          `json:"messages,omitempty"`
	Bytes           int64        `json:"bytes,omitempty"`
	Closed          bool         `json:"closed,omitempty"`
	// RPCKind, RPCMethod and RPCID say which JSON-RPC message the
	// request's body carried ("request", "notification" or "response";
	// the id as JSON text), so that the exchange and the message's line
	// can be tied.
	RPCKind   string `json:"rpcKind,omitempty"`
	RPCMethod string `json:"rpcMethod,omitempty"`
	RPCID     string `json:"rpcId,omitempty"`
}

// HeaderPair is one HTTP header line.
type HeaderPair struct {
	Name  string `json:"name"`
	Value string `json:"value"`
}

type httpEntry struct {
	Type  string  `json:"type"`
	Time  string  `json:"t"`
	Ms    float64 `json:"ms"`
	Error string  `json:"error,omitempty"`
	HTTPFields
}

// HTTP records one exchange with an HTTP server (httpconn's OnExchange).
func (r *Recorder) HTTP(e httpconn.Exchange) {
	f := HTTPFields{Exchange: e.ID, Method: e.Method, URL: RedactURL(e.URL), HTTPStatus: e.Status,
		DurationMs: toMs(e.Duration), RequestHeaders: headerPairs(e.RequestHeader),
		ResponseHeaders: headerPairs(e.ResponseHeader), RequestBytes: e.RequestBytes,
		ResponseBytes: e.ResponseBytes, Transport: e.Transport}
	if m, ok := wiremsg.Parse(e.Body); ok {
		f.RPCKind, f.RPCMethod, f.RPCID = [...]string{"", "request", "notification", "response"}[m.Kind], m.Method, m.ID
	}
	msg := ""
	if e.Err != nil {
		msg = e.Err.Error()
	}
	r.enqueue(r.encodeHTTP(e.Time, TypeHTTP, msg, f))
}

// HTTPUpdate records the end of an exchange's response body
// (httpconn's OnExchangeUpdate; the updates before the end are not).
func (r *Recorder) HTTPUpdate(u httpconn.ExchangeUpdate) {
	if !u.End {
		return
	}
	msg := ""
	if u.Err != nil {
		msg = u.Err.Error()
	}
	r.enqueue(r.encodeHTTP(u.Time, TypeHTTPEnd, msg, HTTPFields{Exchange: u.ID, Messages: u.Messages, Bytes: u.Bytes, Closed: u.Closed}))
}

// WatchHTTP chains HTTP and HTTPUpdate in front of the hooks of o.
func (r *Recorder) WatchHTTP(o *httpconn.Options) {
	ex, up := o.OnExchange, o.OnExchangeUpdate
	o.OnExchange = func(e httpconn.Exchange) {
		r.HTTP(e)
		if ex != nil {
			ex(e)
		}
	}
	o.OnExchangeUpdate = func(u httpconn.ExchangeUpdate) {
		r.HTTPUpdate(u)
		if up != nil {
			up(u)
		}
	}
}

func (r *Recorder) encodeHTTP(t time.Time, typ, errText string, f HTTPFields) []byte {
	if t.IsZero() {
		t = r.now()
	}
	e := httpEntry{Type: typ, Time: t.Format(time.RFC3339Nano), Ms: float64(t.Sub(r.start).Microseconds()) / 1000, Error: errText, HTTPFields: f}
	b, err := json.Marshal(e)
	if err != nil {
		b = []byte(fmt.Sprintf(`{"type":%q,"t":%q}`, typ, e.Time))
	}
	return append(b, '\n')
}

// headerPairs are h's lines in name order, each value redacted by
// RedactHeader.
func headerPairs(h http.Header) []HeaderPair {
	names := make([]string, 0, len(h))
	for name := range h {
		names = append(names, name)
	}
	sort.Strings(names)
	var out []HeaderPair
	for _, name := range names {
		for _, v := range h[name] {
			out = append(out, HeaderPair{Name: name, Value: RedactHeader(name, v)})
		}
	}
	return out
}
