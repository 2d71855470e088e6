package check

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"

	"github.com/mcptui/mcptui/mcp"
)

// The Streamable HTTP rules of 2026-07-28: what an endpoint answers to
// POSTs whose headers disagree with their body, to an unknown method, to
// a notification, to the GET and DELETE of earlier revisions and to a
// session id. Each probe is one plain HTTP request built by hand (the
// transport would never send them), through the check's HTTP client.

// httpRules are the rules of this file.
var httpRules = []string{"http.header-mismatch", "http.header-required", "http.version-header", "http.method-not-found",
	"http.notification", "http.legacy-methods", "http.no-sessions", "http.content-type", "http.status-400", "http.body-refused", "http.origin"}

// maxHTTPBody bounds what a probe reads of an answer.
const maxHTTPBody = 1 << 20

// httpAnswer is what an endpoint answered one probe.
type httpAnswer struct {
	status int
	header http.Header
	body   []byte
	// message is the JSON-RPC message in the body (a JSON object, or the
	// data of the SSE event that answers the probe's id), or nil.
	message map[string]json.RawMessage
}

// errorCode is the message's error code (0 without one).
func (a *httpAnswer) errorCode() int {
	var e struct{ Code int }
	_ = json.Unmarshal(a.message["error"], &e)
	return e.Code
}

func (a *httpAnswer) String() string {
	return fmt.Sprintf("HTTP %d %s", a.status, clip(strings.TrimSpace(string(a.body)), 160))
}

// httpProbes runs the HTTP rules on an endpoint (and skips them on stdio).
func (r *run) httpProbes() {
	if !r.cur().Remote() {
		for _, id := range httpRules {
			r.skip(id, "the server is not an HTTP endpoint (check its URL)")
		}
		return
	}
	discover := func(hdr map[string]string, version string) (*httpAnswer, error) {
		return r.httpPost(mcp.MethodDiscover, `"mcptui-check-http"`, version, hdr)
	}
	r.httpRefused("http.header-mismatch", "server/discover with Mcp-Method: tools/list",
		func() (*httpAnswer, error) {
			return discover(map[string]string{"Mcp-Method": mcp.MethodListTools}, r.era)
		})
	r.httpRefused("http.header-required", "server/discover without an Mcp-Method header",
		func() (*httpAnswer, error) { return discover(map[string]string{"Mcp-Method": ""}, r.era) })
	r.httpRefused("http.version-header", "MCP-Protocol-Version "+r.era+" on a body whose _meta says 1999-01-01",
		func() (*httpAnswer, error) {
			return discover(map[string]string{"MCP-Protocol-Version": r.era}, "1999-01-01")
		})

	if a, err := discover(nil, r.era); r.httpOK("http.content-type", err) {
		ct := strings.ToLower(strings.TrimSpace(strings.Split(a.header.Get("Content-Type"), ";")[0]))
		r.judge("http.content-type", ct == "application/json" || ct == "text/event-stream",
			"server/discover was answered with Content-Type %q (want application/json or text/event-stream)", clip(a.header.Get("Content-Type"), 80))
	}
	r.httpStatus400()
	r.httpBodies()
	if a, err := discover(map[string]string{"Origin": "https://mcptui-check.invalid"}, r.era); r.httpOK("http.origin", err) {
		r.judge("http.origin", a.status == http.StatusForbidden, "server/discover with Origin: https://mcptui-check.invalid got %s (want 403)", a)
	}
	if a, err := r.httpPost("mcptui/no-such-method", `"mcptui-check-http"`, r.era, nil); r.httpOK("http.method-not-found", err) {
		r.judge("http.method-not-found", a.status == http.StatusNotFound && a.errorCode() == mcp.CodeMethodNotFound,
			"mcptui/no-such-method got %s (want 404 with a -32601 error)", a)
	}
	if a, err := r.httpPost("notifications/mcptui-check/probe", "", r.era, nil); r.httpOK("http.notification", err) {
		accepted := a.status == http.StatusAccepted && len(bytes.TrimSpace(a.body)) == 0
		refused := a.status >= 400 && a.status < 500
		r.judge("http.notification", accepted || refused, "a notification got %s (want 202 with no body, or a 4xx refusal)", a)
	}
	for _, method := range []string{http.MethodGet, http.MethodDelete} {
		if a, err := r.httpDo(method, nil, nil); r.httpOK("http.legacy-methods", err) {
			r.judge("http.legacy-methods", a.status == http.StatusMethodNotAllowed, "%s on the endpoint got %s (want 405)", method, a)
		}
	}
	if a, err := discover(map[string]string{"Mcp-Session-Id": "mcptui-check-bogus-session"}, r.era); r.httpOK("http.no-sessions", err) {
		switch {
		case a.status != http.StatusOK || a.message["result"] == nil:
			r.fail("http.no-sessions", "server/discover with an Mcp-Session-Id got %s (want its result: there are no sessions to look up)", a)
		case a.header.Get("Mcp-Session-Id") != "":
			r.fail("http.no-sessions", "server/discover was answered with Mcp-Session-Id %q", clip(a.header.Get("Mcp-Session-Id"), 60))
		default:
			r.pass("http.no-sessions")
		}
	}
}

// httpOK skips rule when the probe could not be sent.
func (r *run) httpOK(rule string, err error) bool {
	if err != nil {
		r.skip(rule, "the probe could not be sent: "+err.Error())
		return false
	}
	return true
}

// httpRefused judges a header-validation probe: 400 with a -32020 error.
func (r *run) httpRefused(rule, what string, probe func() (*httpAnswer, error)) {
	a, err := probe()
	if !r.httpOK(rule, err) {
		return
	}
	r.judge(rule, a.status == http.StatusBadRequest && a.errorCode() == -32020, "%s got %s (want 400 with a -32020 HeaderMismatch error)", what, a)
}

// httpPost POSTs a 2026-07-28 message (a request with id, or a
// notification when id is "") whose _meta names version, with the
// standard headers for it, changed by hdr (an empty value removes one).
func (r *run) httpPost(method, id, version string, hdr map[string]string) (*httpAnswer, error) {
	msg := map[string]any{"jsonrpc": "2.0", "method": method, "params": map[string]any{"_meta": meta(version)}}
	if id != "" {
		msg["id"] = json.RawMessage(id)
	}
	body, _ := json.Marshal(msg)
	h := standardHeaders(method, r.era)
	for k, v := range hdr {
		if v == "" {
			h.Del(k)
		} else {
			h.Set(k, v)
		}
	}
	a, err := r.httpDo(http.MethodPost, h, body)
	if err == nil && id != "" {
		a.message = answerTo(a, id)
	}
	return a, err
}

// httpDo sends one request to the endpoint and reads a bounded answer.
func (r *run) httpDo(method string, h http.Header, body []byte) (*httpAnswer, error) {
	ctx, cancel := context.WithTimeout(r.ctx, r.o.Timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, method, r.o.Command, bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	for k, vs := range h {
		req.Header[k] = vs
	}
	client := r.o.HTTP.Client
	if client == nil {
		client = http.DefaultClient
	}
	resp, err := client.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	// An SSE answer ends with the response; a GET stream a server opens
	// anyway is read only up to the bound (or the timeout).
	b, _ := io.ReadAll(io.LimitReader(resp.Body, maxHTTPBody))
	return &httpAnswer{status: resp.StatusCode, header: resp.Header, body: b}, nil
}

// answerTo finds the JSON-RPC message answering id in a JSON or SSE body.
func answerTo(a *httpAnswer, id string) map[string]json.RawMessage {
	if m := object(bytes.TrimSpace(a.body)); m != nil {
		return m
	}
	sc := bufio.NewScanner(bytes.NewReader(a.body))
	sc.Buffer(nil, maxHTTPBody)
	for sc.Scan() {
		data, ok := strings.CutPrefix(sc.Text(), "data:")
		if !ok {
			continue
		}
		if m := object([]byte(strings.TrimSpace(data))); m != nil && m["method"] == nil && (string(m["id"]) == id || m["id"] == nil) {
			return m
		}
	}
	return nil
}

// httpStatus400 sends requests the server must refuse with 400: a _meta
// without clientCapabilities (-32602) and a version it does not speak
// (-32022, in the header too).
func (r *run) httpStatus400() {
	const rule = "http.status-400"
	body := func(m map[string]any) []byte {
		b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": "mcptui-check-http", "method": mcp.MethodDiscover, "params": map[string]any{"_meta": m}})
		return b
	}
	for _, c := range []struct {
		what, version string
		meta          map[string]any
	}{
		{"server/discover whose _meta has no clientCapabilities", r.era, map[string]any{mcp.MetaProtocolVersion: r.era}},
		{"server/discover for protocol 2099-01-01", "2099-01-01", map[string]any{mcp.MetaProtocolVersion: "2099-01-01", mcp.MetaClientCapabilities: map[string]any{}}},
	} {
		a, err := r.httpDo(http.MethodPost, standardHeaders(mcp.MethodDiscover, c.version), body(c.meta))
		if !r.httpOK(rule, err) {
			continue
		}
		a.message = answerTo(a, `"mcptui-check-http"`)
		r.judge(rule, a.status == http.StatusBadRequest && a.message["error"] != nil, "%s got %s (want 400 with its JSON-RPC error)", c.what, a)
	}
}

// httpBodies POSTs bodies that are no single message: a batch and a line
// that is not JSON. Each must be refused with a 4xx status.
func (r *run) httpBodies() {
	const rule = "http.body-refused"
	one := `{"jsonrpc":"2.0","id":"mcptui-check-batch-1","method":"server/discover","params":{"_meta":` + string(mustJSON(meta(r.era))) + `}}`
	for _, c := range []struct{ what, body string }{
		{"a batch of two server/discover requests", "[" + one + "," + strings.Replace(one, "batch-1", "batch-2", 1) + "]"},
		{"a body that is not JSON", "{not json"},
	} {
		a, err := r.httpDo(http.MethodPost, standardHeaders(mcp.MethodDiscover, r.era), []byte(c.body))
		if !r.httpOK(rule, err) {
			continue
		}
		r.judge(rule, a.status >= 400 && a.status < 500, "%s got %s (want a 4xx refusal)", c.what, a)
	}
}

// standardHeaders are the headers of a 2026-07-28 POST of method.
func standardHeaders(method, version string) http.Header {
	h := http.Header{}
	h.Set("Content-Type", "application/json")
	h.Set("Accept", "application/json, text/event-stream")
	h.Set("MCP-Protocol-Version", version)
	h.Set("Mcp-Method", method)
	return h
}

func mustJSON(v any) []byte { b, _ := json.Marshal(v); return b }
