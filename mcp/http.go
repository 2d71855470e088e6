package mcp

import (
	"context"
	"strings"

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
		c, err := httpconn.Dial(ctx, url, h)
		if err != nil {
			return nil, err
		}
		return c, nil
	}
}
