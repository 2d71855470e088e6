package mcp

import (
	"context"
	"fmt"
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
				_, _ = io.WriteString(log, "the server ended the session (it refused its Mcp-Session-Id: 404, or 400 naming the session): starting a new one with initialize\n")
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

// headerRules reports whether the 2026-07-28 Streamable HTTP request
// metadata rules apply: an HTTP server spoken to on a stateless version.
// (Clients on other transports may ignore x-mcp-header, the spec says.)
func (c *Client) headerRules() (*httpconn.Conn, bool) {
	hc, ok := c.w.(*httpconn.Conn)
	return hc, ok && hc.Mode() != httpconn.SSE && Stateless(c.Version())
}

// rejectInvalidTools moves the tools whose x-mcp-header annotations are
// invalid out of l.Items, as the spec asks of HTTP clients, remembering
// why for CallTool.
func (c *Client) rejectInvalidTools(l *List[Tool]) {
	if _, ok := c.headerRules(); !ok {
		return
	}
	kept := l.Items[:0]
	for _, t := range l.Items {
		if _, err := httpconn.ParamHeaders(t.InputSchema); err != nil {
			l.Rejected = append(l.Rejected, Rejection{Name: t.Name, Reason: err.Error()})
			c.mu.Lock()
			if c.rejectedTools == nil {
				c.rejectedTools = map[string]string{}
			}
			c.rejectedTools[t.Name] = err.Error()
			c.mu.Unlock()
			continue
		}
		c.mu.Lock()
		delete(c.rejectedTools, t.Name)
		c.mu.Unlock()
		kept = append(kept, t)
	}
	l.Items = kept
}

// prepareToolCall makes sure, under the 2026-07-28 HTTP rules, that the
// transport knows the tool's x-mcp-header annotations before it is
// called (one tools/list if it does not), and refuses a tool the spec
// says must not be offered.
func (c *Client) prepareToolCall(ctx context.Context, name string) error {
	hc, ok := c.headerRules()
	if !ok {
		return nil
	}
	if !hc.KnowsTool(name) && c.rejection(name) == "" {
		if _, err := c.ListTools(ctx); err != nil {
			return fmt.Errorf("listing the tools to learn %s's x-mcp-header annotations: %w", name, err)
		}
	}
	if why := c.rejection(name); why != "" {
		return errorf(CodeInvalidParams, "tool %q is rejected: %s (over HTTP the client must not offer it)", name, why)
	}
	return nil
}

func (c *Client) rejection(name string) string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.rejectedTools[name]
}

// Dial opens the transport to command, a process (with args) or a URL
// (Streamable HTTP, falling back to HTTP+SSE as opts.HTTP says), without
// negotiating anything: for a program that sends a session's messages
// itself, such as replay --verify, which sends a recording's own
// initialize. opts.Conn and opts.HTTP configure it as they do Connect's.
func Dial(ctx context.Context, command string, args []string, opts Options) (Transport, error) {
	if IsURL(command) {
		if len(args) > 0 {
			return nil, fmt.Errorf("mcp: connecting to %s: %w", command, errorf(CodeInvalidParams, "a URL takes no arguments"))
		}
		return dialHTTP(opts.HTTP)(ctx, command, nil, opts.Conn)
	}
	return dialConn(ctx, command, args, opts.Conn)
}
