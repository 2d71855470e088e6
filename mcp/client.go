package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/mcptui/mcptui/conn"
	"github.com/mcptui/mcptui/internal/rpccall"
)

// Notification is a JSON-RPC notification from the server, params raw.
//
// It is an alias, kept on purpose: mcp's API hands out conn's
// notifications, and a program that uses mcp alone names them without
// importing conn (the one type, so a value passes between the two).
type Notification = conn.Notification

// Transport is what a Client needs of a connection. *conn.Conn (stdio)
// and *httpconn.Conn (Streamable HTTP) satisfy it; both take conn's
// CallOptions and report conn's errors and Observer events.
type Transport interface {
	Call(ctx context.Context, method string, params any, opts ...conn.CallOption) (json.RawMessage, error)
	Notify(ctx context.Context, method string, params any) error
	Listen(ctx context.Context, filter any, opts ...conn.CallOption) (*conn.Subscription, error)
	Close() error
	Shutdown(grace time.Duration) error
	Done() <-chan struct{}
	Err() error
	// PID is the server process's id, 0 for a transport without one.
	PID() int
}

var _ Transport = (*conn.Conn)(nil)

// dialer starts a connection; conn.Dial in production.
type dialer func(ctx context.Context, command string, args []string, opts conn.Options) (Transport, error)

func dialConn(ctx context.Context, command string, args []string, opts conn.Options) (Transport, error) {
	c, err := conn.Dial(ctx, command, args, opts)
	if err != nil {
		return nil, err
	}
	return c, nil
}

// Session is what the negotiation established about the server.
type Session struct {
	// Version is the negotiated protocol version.
	Version string
	// Server is the server's identity (serverInfo); zero until known (a
	// pinned 2026-07-28 connection learns it from discover or from a
	// result's _meta).
	Server Implementation
	// Capabilities are the server's declared capabilities.
	Capabilities ServerCapabilities
	// Instructions are the server's instructions, if any.
	Instructions string
	// InitializeResult is the raw initialize result (initialize era).
	InitializeResult json.RawMessage
	// DiscoverResult is the raw server/discover result, if one came.
	DiscoverResult json.RawMessage
	// LogLevel is the level set with SetLogLevel ("" if none).
	LogLevel string
	// Offered are the versions the server said it speaks: the list of
	// server/discover or of a -32022 error, or the one it answered
	// initialize with (as it answered it: 2024-10-07 stays).
	Offered []string
}

// Client is a connection to one MCP server with a negotiated protocol
// version. Its methods may be called from many goroutines at once.
type Client struct {
	command string
	args    []string
	opts    Options // normalized
	dial    dialer
	w       Transport
	remote  bool // an HTTP endpoint: no process to probe, respawn or signal

	mu         sync.Mutex
	session    Session
	gen        int // bumped on each version change
	neg        Negotiation
	legacySubs map[*legacyStream]struct{}
	uriRefs    map[string]int // legacy resources/subscribe reference counts
	// rejectedTools are the tools left out of tools/list under the HTTP
	// header rules, with why.
	rejectedTools map[string]string

	renegMu  sync.Mutex // serializes re-negotiations after -32022 and new sessions
	sessions int        // HTTP sessions begun after an expiry (under mu)
	bg       sync.WaitGroup
}

// snapshot is the state a request is built from.
type snapshot struct {
	version  string
	logLevel string
	gen      int
}

func (c *Client) snapshot() snapshot {
	c.mu.Lock()
	defer c.mu.Unlock()
	return snapshot{version: c.session.Version, logLevel: c.session.LogLevel, gen: c.gen}
}

// Session returns what is known about the server (a copy).
func (c *Client) Session() Session {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.session
}

// Version is the negotiated protocol version.
func (c *Client) Version() string { return c.snapshot().version }

// Negotiation returns the record of how the version was chosen, including
// any later re-negotiation (a copy).
func (c *Client) Negotiation() Negotiation {
	c.mu.Lock()
	defer c.mu.Unlock()
	n := c.neg
	n.Allowed = slices.Clone(n.Allowed)
	n.Steps = slices.Clone(n.Steps)
	return n
}

// Command returns the command and arguments the client started.
func (c *Client) Command() (string, []string) { return c.command, slices.Clone(c.args) }

// Options returns the options the client was made with, defaults filled in.
func (c *Client) Options() Options { return c.opts }

// Conn returns the underlying connection (nil only in this package's tests).
func (c *Client) Conn() *conn.Conn {
	cc, _ := c.w.(*conn.Conn)
	return cc
}

// Transport returns the connection the client runs over.
func (c *Client) Transport() Transport { return c.w }

// Remote reports whether the server is an HTTP endpoint rather than a
// process.
func (c *Client) Remote() bool { return c.remote }

// PID is the server process's id (0 for an HTTP server).
func (c *Client) PID() int { return c.w.PID() }

// Done is closed once the connection has stopped.
func (c *Client) Done() <-chan struct{} { return c.w.Done() }

// Err is the error the connection stopped with, or nil.
func (c *Client) Err() error { return c.w.Err() }

// Close closes the server's stdin (an MCP server exits at EOF); it never
// signals the server.
func (c *Client) Close() error {
	return c.w.Close()
}

// Shutdown closes the server's stdin, waits up to grace, then signals it
// (SIGTERM, then SIGKILL), and waits for any process abandoned during the
// negotiation to be shut down too.
func (c *Client) Shutdown(grace time.Duration) error {
	err := c.w.Shutdown(grace)
	c.bg.Wait()
	if err != nil {
		return fmt.Errorf("mcp: shutting down %s: %w", c.command, err)
	}
	return nil
}

// Reconnect shuts this client's server down (see Shutdown) and connects to
// the same command again with the same options, negotiating afresh. ctx
// owns the new client as it does for Connect.
func (c *Client) Reconnect(ctx context.Context, grace time.Duration) (*Client, error) {
	_ = c.Shutdown(grace) // how the old process ended does not matter here
	return connect(ctx, c.command, c.args, c.opts, c.dial)
}

// connOptions are the conn options for every spawn: the caller's, with this
// package's server-request and notification hooks.
func (c *Client) connOptions() conn.Options {
	o := c.opts.Conn
	o.OnServerRequest = c.handleServerRequest
	o.OnNotification = c.onNotification
	return o
}

// timeoutOptions are the call options a request starts from.
func (c *Client) timeoutOptions() []conn.CallOption {
	switch {
	case c.opts.RequestTimeout > 0:
		return []conn.CallOption{conn.WithTimeout(c.opts.RequestTimeout)}
	case c.opts.RequestTimeout < 0:
		return []conn.CallOption{conn.WithTimeout(0)}
	}
	return nil
}

// setSession updates the session under the lock; a version change bumps
// the generation.
func (c *Client) setSession(fn func(s *Session)) {
	c.mu.Lock()
	defer c.mu.Unlock()
	before := c.session.Version
	fn(&c.session)
	if c.session.Version != before {
		c.gen++
		c.neg.Version = c.session.Version
	}
}

// record appends a negotiation step.
func (c *Client) record(s Step) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.neg.Steps = append(c.neg.Steps, s)
	switch s.Kind {
	case StepSpawn:
		c.neg.Spawns++
	case StepProbe:
		c.neg.Probes++
	}
}

// connStopped reports whether err says the connection stopped (exit, broken
// pipe, closed) rather than the server answering with an error (an answer
// discarded, too long or too deep, ends only its call).
func (c *Client) connStopped(err error) bool {
	select {
	case <-c.w.Done():
		return true
	default:
	}
	e := asError(err)
	return e != nil && e.Code == CodeConnection && e.Cause != nil && !rpccall.AnswerDiscarded(e)
}

// noteServerInfo learns the server's identity from a 2026-07-28 result's
// _meta when it is not known yet.
func (c *Client) noteServerInfo(result object) {
	c.mu.Lock()
	known := c.session.Server.Name != ""
	c.mu.Unlock()
	if known {
		return
	}
	meta, err := parseObject(result.get("_meta"))
	if err != nil {
		return
	}
	raw := meta.get(MetaServerInfo)
	if raw == nil {
		return
	}
	var info Implementation
	if unmarshal(raw, &info) != nil {
		return
	}
	c.mu.Lock()
	if c.session.Server.Name == "" {
		c.session.Server = info
	}
	c.mu.Unlock()
}
