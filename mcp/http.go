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
			// Without a process there is no stderr: the exchanges take
			// its place, one line each.
			// Exchanges come from many goroutines; a stderr writer
			// expects one.
			var mu sync.Mutex
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
		}
		c, err := httpconn.Dial(ctx, url, h)
		if err != nil {
			return nil, err
		}
		return c, nil
	}
}
