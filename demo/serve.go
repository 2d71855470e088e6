package demo

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Config holds the few knobs of the demo server. The zero value is the
// server that `mcptui demo-server` runs.
type Config struct {
	// Name and Version identify the server in initialize / server/discover
	// results and in every 2026-07-28 result's _meta. Defaults:
	// "mcptui-demo" and "0.1.0".
	Name, Version string

	// PageSize is how many items tools/list, prompts/list, resources/list and
	// resources/templates/list return per page. The default, 10, makes the
	// tool list span several pages so that pagination shows up too.
	PageSize int

	// ClockInterval is how often demo://clock changes (and subscribers get
	// a resources/updated event) while someone is subscribed to it.
	// Default 2s.
	ClockInterval time.Duration

	// Exit ends the process for the `exit` tool. Nil means os.Exit, which
	// is what a real server does. A non-nil Exit that returns (useful when
	// Serve runs in-process) makes the demo drop every later message,
	// close the connection and return an *ExitError from Serve.
	Exit func(status int)
}

// ExitError is what Serve returns when the `exit` tool ran under a
// Config.Exit that returned instead of ending the process.
type ExitError struct {
	// Status is the exit status the tool was asked for.
	Status int
}

// Error implements error.
func (e *ExitError) Error() string { return fmt.Sprintf("demo server exited with status %d", e.Status) }

// Serve runs the demo server with the default Config on the given streams
// (newline-delimited JSON-RPC in and out, as on stdio) until in reaches EOF
// or ctx is done. errOut receives the server's stderr chatter.
func Serve(ctx context.Context, in io.Reader, out io.Writer, errOut io.Writer) error {
	return Config{}.Serve(ctx, in, out, errOut)
}

// Serve runs the demo server configured by c; see the package function
// Serve. A clean end of input returns nil.
func (c Config) Serve(ctx context.Context, in io.Reader, out io.Writer, errOut io.Writer) error {
	if c.Name == "" {
		c.Name = "mcptui-demo"
	}
	if c.Version == "" {
		c.Version = "0.1.0"
	}
	if c.PageSize <= 0 {
		c.PageSize = 10
	}
	if c.ClockInterval <= 0 {
		c.ClockInterval = 2 * time.Second
	}
	if errOut == nil {
		errOut = io.Discard
	}

	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)

	d := &demo{
		cfg:    c,
		stderr: &lockedWriter{w: errOut},
		ctx:    ctx,
		stop:   cancel,
		key:    make([]byte, 32),
		shown:  map[string]bool{},
	}
	rand.Read(d.key) // never fails (crypto/rand)
	d.wire = newWire(out, d.chatf)
	d.srv = d.newServer()

	t := &mcp.IOTransport{Reader: d.wire.reader(in), Writer: d.wire.writer()}
	d.chatf("mcptui demo server %s (pid %d) listening on stdio; it speaks 2026-07-28, 2025-11-25 and 2025-06-18", c.Version, os.Getpid())

	// Server.Run would do, but it cannot seed the session state: legacy
	// sessions start at log level "debug" here (see legacyLogLevel).
	ss, err := d.srv.Connect(ctx, t, &mcp.ServerSessionOptions{
		State: &mcp.ServerSessionState{LogLevel: legacyLogLevel},
	})
	if err != nil {
		return err
	}
	done := make(chan error, 1)
	go func() { done <- ss.Wait() }()
	select {
	case err = <-done:
	case <-ctx.Done():
		ss.Close()
		<-done
		err = context.Cause(ctx)
	}
	d.stopClock()
	var exit *ExitError
	switch {
	case errors.As(err, &exit):
		return exit
	case err == nil, errors.Is(err, io.EOF), errors.Is(err, mcp.ErrConnectionClosed):
		d.chatf("input closed; bye")
		return nil
	}
	return err
}

// demo is one running demo server: the go-sdk server plus the little state
// the tools share.
type demo struct {
	cfg    Config
	srv    *mcp.Server
	stderr *lockedWriter
	wire   *wire
	ctx    context.Context // Serve's lifetime
	stop   context.CancelCauseFunc
	key    []byte // signs requestState (see mrtr.go)

	toggleMu sync.Mutex     // serialises the toggle_* tools
	bg       sync.WaitGroup // background goroutines (the clock)

	mu         sync.Mutex
	negotiated string           // protocol version agreed by initialize (legacy sessions)
	legacyLvl  mcp.LoggingLevel // level set by logging/setLevel (legacy sessions)
	counter    int              // behind demo://counter
	shown      map[string]bool  // toggled features currently registered
	clockSubs  int              // subscriptions to demo://clock
	clockStop  func()           // stops the clock's ticker, if it runs
}

// newServer builds the go-sdk server with every tool, prompt, resource and
// the hand-written middleware.
func (d *demo) newServer() *mcp.Server {
	srv := mcp.NewServer(&mcp.Implementation{
		Name:        d.cfg.Name,
		Title:       "mcptui demo server",
		Version:     d.cfg.Version,
		Description: "A built-in MCP server that exercises every feature the mcptui inspector shows.",
		WebsiteURL:  "https://github.com/mcptui/mcptui",
	}, &mcp.ServerOptions{
		Instructions:       instructions,
		PageSize:           d.cfg.PageSize,
		Logger:             slog.New(slog.NewTextHandler(d.stderr, &slog.HandlerOptions{Level: slog.LevelWarn})),
		CompletionHandler:  d.complete,
		SubscribeHandler:   d.subscribe,
		UnsubscribeHandler: d.unsubscribe,
		SetCacheable:       setCacheable,
	})
	d.srv = srv
	srv.AddReceivingMiddleware(d.traceMiddleware, d.legacyMiddleware)
	d.addTools(srv)
	d.addPrompts(srv)
	d.addResources(srv)
	return srv
}

const instructions = `This is mcptui's demo server. Every tool shows one feature of MCP:
progress (progress, slow, burst), cancellation (slow), elicitation (elicit_form, elicit_url),
sampling (sample, sample_with_tools), roots (roots), logging (log), stderr (chatter),
content kinds (image, large, structured, hostile), errors (fail, rpc_error, exit) and
list changes (toggle_tool, toggle_resource, toggle_prompt). Subscribe to demo://clock for
a steady stream of resources/updated, or to demo://counter and call bump.`

// legacyLogLevel is the log level a legacy (initialize) session starts at, so
// that the log tool shows something before the client calls
// logging/setLevel. The 2025 specs let a server choose what to send until
// then; 2026-07-28 requests get logs only at the level in their _meta.
const legacyLogLevel mcp.LoggingLevel = "debug"

// lockedWriter serialises writes from the many goroutines that chatter on
// stderr, so that lines never interleave.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

// chatf writes one line of stderr chatter.
func (d *demo) chatf(format string, args ...any) {
	fmt.Fprintf(d.stderr, "[demo %s] %s\n", time.Now().Format("15:04:05.000"), fmt.Sprintf(format, args...))
}
