package mcp

import (
	"context"
	"io"
	"strings"
	"sync"

	"github.com/mcptui/mcptui/conn"
	"github.com/mcptui/mcptui/httpconn"
)

var _ Transport = (*httpconn.Conn)(nil)

// IsURL reports whether target names an HTTP endpoint (http:// or
// https://) rather than a command.
func IsURL(target string) bool {
	lower := strings.ToLower(target)
	return strings.HasPrefix(lower, "http://") || strings.HasPrefix(lower, "https://")
}

// transportNote says, for a decision, which HTTP transport the session
// runs over when it is not Streamable HTTP: the 2024-11-05 HTTP+SSE one,
// asked for or found by the fallback.
func (c *Client) transportNote() string {
	hc, ok := c.w.(*httpconn.Conn)
	if !ok || hc.Mode() != httpconn.SSE {
		return ""
	}
	if c.opts.HTTP.Mode == httpconn.Auto {
		return ", over the 2024-11-05 HTTP+SSE transport (the Streamable HTTP POST was refused: fell back)"
	}
	return ", over the 2024-11-05 HTTP+SSE transport"
}

// HTTPMode is the HTTP transport the client runs over (httpconn.Streamable
// or httpconn.SSE once known), or httpconn.Auto for a process.
func (c *Client) HTTPMode() httpconn.Mode {
	if hc, ok := c.w.(*httpconn.Conn); ok {
		return hc.Mode()
	}
	return httpconn.Auto
}

// dialHTTP opens Streamable HTTP connections with the HTTP options and the
// message-level conn options (limits, Observer, this package's hooks).
func dialHTTP(h httpconn.Options) dialer {
	return func(ctx context.Context, url string, _ []string, o conn.Options) (Transport, error) {
		h.MaxMessageBytes = o.MaxLineBytes
		h.MaxServerRequests = o.MaxServerRequests
		h.OnServerRequest = o.OnServerRequest
		h.OnNotification = o.OnNotification
		h.Observer = o.Observer
		if user, log := h.OnExchange, o.Stderr; log != nil {
			userExpired := h.OnSessionExpired
			// Without a process there is no stderr: the exchanges take
			// its place, one line each.
			// Exchanges come from many goroutines; a stderr writer
			// expects one.
			var mu sync.Mutex
			if h.Insecure {
				_, _ = io.WriteString(log, "WARNING: TLS certificates are not verified (--insecure)\n")
			}
			h.OnExchange = func(e httpconn.Exchange) {
				if user != nil {
					user(e)
				}
				mu.Lock()
				_, _ = io.WriteString(log, e.String()+"\n")
				mu.Unlock()
			}
			// An authorizing client (httpconn/oauth) says what it does
			// in the same log.
			if h.Client != nil {
				if l, ok := h.Client.Transport.(interface{ LogSteps(func(string)) }); ok {
					l.LogSteps(func(line string) {
						mu.Lock()
						_, _ = io.WriteString(log, line+"\n")
						mu.Unlock()
					})
				}
			}
			h.OnSessionExpired = func(id string) {
				if userExpired != nil {
					userExpired(id)
				}
				mu.Lock()
				_, _ = io.WriteString(log, "the server ended the session (404 for its Mcp-Session-Id): starting a new one with initialize\n")
				mu.Unlock()
			}
		}
		c, err := httpconn.Dial(ctx, url, h)
		if err != nil {
			return nil, err
		}
		return c, nil
	}
}
