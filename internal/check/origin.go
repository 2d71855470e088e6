package check

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"strings"

	"github.com/mcptui/mcptui/httpconn"

	"github.com/mcptui/mcptui/internal/protocol"
)

// foreignOrigin is the Origin the probes claim: no server should trust it.
const foreignOrigin = "https://mcptui-check.invalid"

// legacyOrigin judges http.origin on an initialize-era HTTP server
// ("Servers MUST validate the Origin header on all incoming connections",
// 2024-11-05 to 2025-11-25): a request with a foreign Origin is refused
// with 403. Over Streamable HTTP it is an initialize POST (a session a
// server opens anyway is closed with DELETE); over HTTP+SSE the GET that
// opens the stream (its body is not read).
func (r *run) legacyOrigin() {
	const rule = "http.origin"
	if !r.client.Remote() {
		r.skip(rule, "the server is not an HTTP endpoint (check its URL)")
		return
	}
	ctx, cancel := context.WithTimeout(r.ctx, r.o.Timeout)
	defer cancel()
	var req *http.Request
	var err error
	what := "an initialize POST"
	if r.client.HTTPMode() == httpconn.SSE {
		what = "the HTTP+SSE stream's GET"
		req, err = http.NewRequestWithContext(ctx, http.MethodGet, r.o.Command, nil)
		if err == nil {
			req.Header.Set("Accept", "text/event-stream")
		}
	} else {
		body := fmt.Sprintf(`{"jsonrpc":"2.0","id":"mcptui-check-origin","method":"initialize","params":{"protocolVersion":%q,"capabilities":{},"clientInfo":{"name":"mcptui-check","version":"1"}}}`, r.era)
		req, err = http.NewRequestWithContext(ctx, http.MethodPost, r.o.Command, strings.NewReader(body))
		if err == nil {
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Accept", "application/json, text/event-stream")
		}
	}
	if err != nil {
		r.skip(rule, "the probe could not be built: "+err.Error())
		return
	}
	req.Header.Set("Origin", foreignOrigin)
	client := r.o.HTTP.Client
	if client == nil {
		client = http.DefaultClient
	}
	resp, err := client.Do(req)
	if !r.httpOK(rule, err) {
		return
	}
	_ = resp.Body.Close()
	if sid := resp.Header.Get(httpconn.HeaderSessionID); sid != "" && resp.StatusCode/100 == 2 {
		if del, err := http.NewRequestWithContext(ctx, http.MethodDelete, r.o.Command, nil); err == nil {
			del.Header.Set(httpconn.HeaderSessionID, sid)
			if resp, err := client.Do(del); err == nil {
				_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 1<<16))
				_ = resp.Body.Close()
			}
		}
	}
	// 403 is named from 2025-11-25; before, any refusal validates.
	want, ok := "403", resp.StatusCode == http.StatusForbidden
	if protocol.Before(r.era, protocol.Rev20251125) {
		want, ok = "a 4xx refusal", resp.StatusCode/100 == 4
	}
	r.judge(rule, ok, "%s with Origin: %s got %d %s (want %s)",
		what, foreignOrigin, resp.StatusCode, http.StatusText(resp.StatusCode), want)
}
