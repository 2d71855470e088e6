// Package session is the live connection behind the inspector: it starts the
// server through mcp, feeds everything that happens into the inspector's
// event inbox, parks the server's questions until a person answers them, and
// carries out what the person asks (call, cancel, extend, answer, reject,
// listen, restart). It implements internal/backend's Backend, Caller and Listener.
//
// Every process started is a generation, numbered from 1. Every event the
// session pushes is stamped with its generation, so that the model can tell
// a late event of a restarted process (its exit, its last lines) from one of
// its successor.
package session

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mcptui/mcptui/conn"
	"github.com/mcptui/mcptui/internal/backend"
	"github.com/mcptui/mcptui/internal/session/inbox"
	"github.com/mcptui/mcptui/mcp"
	"github.com/mcptui/mcptui/model"
)

// DefaultShutdownGrace is how long the server gets at each step of a
// shutdown (EOF, then SIGTERM, then SIGKILL) when Config says nothing.
const DefaultShutdownGrace = 500 * time.Millisecond

// Config says which server to start and how.
type Config struct {
	Command string
	Args    []string
	// OnFailure, if set, is told of a start that failed, before the UI:
	// the error, and whether mcptui stopped a server that still ran
	// (mcp.NegotiationFailed), for the recording.
	OnFailure func(err error, stopped bool)
	// MCP are the protocol options. The session sets the answerers and
	// chains its own Observer and Stderr in front of any already there.
	MCP mcp.Options
	// ResetOnProgress and MaxTotalTimeout apply to the requests the person
	// sends (Send); MCP.RequestTimeout is their timeout.
	ResetOnProgress bool
	MaxTotalTimeout time.Duration
	// Inbox receives the events; required.
	Inbox *inbox.Inbox
	// Now is the clock; nil means time.Now.
	Now func() time.Time
	// ShutdownGrace is the wait at each step of Shutdown and Restart.
	ShutdownGrace time.Duration
	// LogLevel, when set, is asked of every server that can take it as
	// soon as it is ready (see startLogging); "" asks nothing.
	LogLevel string
	// Policies say which questions are answered without a person (see
	// model.Policy); the zero value asks about everything. Roots are what
	// a prepared roots answer returns.
	Policies model.Policies
	Roots    []model.Root
	// Linter, when set, is the live lint that judges each batch's lines in
	// Next, off the UI's goroutine: the batch comes marked as judged
	// (model.Judged), and the UI keeps what was found. nil leaves the
	// lines to the UI's own lint.
	Linter func() model.Linter
}

// Session is one inspector's connection to its server, across restarts.
type Session struct {
	cfg   Config
	now   func() time.Time
	ctx   context.Context
	close context.CancelFunc

	mu         sync.Mutex
	gen        *generation // the current one
	questions  map[string]*parked
	nextKey    int
	nextSubKey int
	policies   model.Policies
	roots      []model.Root
	// prelint judges the lines Next hands out (nil: not judged here). Only
	// Next uses it, and one Next runs at a time.
	prelint *model.Prelinter
}

// generation is one process of the server and what belongs to it.
type generation struct {
	n int
	// ctx owns the connection; cancel ends it (and a connect in progress).
	ctx        context.Context
	cancel     context.CancelFunc
	stderr     *inbox.StderrWriter
	connecting chan struct{} // closed when the connect attempt ends
	stopped    chan struct{} // closed when the connection has stopped
	stopOnce   sync.Once
	// stopping is set once the session shuts this generation down: from
	// then on its shutdown stages are reported (not those of a process
	// abandoned during negotiation).
	stopping atomic.Bool

	// The fields below are guarded by Session.mu.
	client *mcp.Client
	calls  map[string]*liveCall
	subs   map[string]*mcp.Subscription
}

func (g *generation) stop() { g.stopOnce.Do(func() { close(g.stopped) }) }

// isStopped reports whether the generation's connection has stopped (or
// never came up).
func (g *generation) isStopped() bool {
	select {
	case <-g.stopped:
		return true
	default:
		return false
	}
}

var (
	_ backend.Backend  = (*Session)(nil)
	_ backend.Caller   = (*Session)(nil)
	_ backend.Listener = (*Session)(nil)
	_ backend.Policies = (*Session)(nil)
)

// Start begins connecting in the background and returns at once: progress,
// the negotiation and failures arrive as events in cfg.Inbox.
func Start(ctx context.Context, cfg Config) (*Session, error) {
	if cfg.Inbox == nil {
		return nil, errors.New("session: Config.Inbox is required")
	}
	if cfg.Command == "" {
		return nil, errors.New("session: no server command")
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.ShutdownGrace <= 0 {
		cfg.ShutdownGrace = DefaultShutdownGrace
	}
	s := &Session{cfg: cfg, now: cfg.Now, questions: make(map[string]*parked), policies: cfg.Policies, roots: slices.Clone(cfg.Roots)}
	if cfg.Linter != nil {
		s.prelint = model.NewPrelinterWith(cfg.Linter())
	}
	s.ctx, s.close = context.WithCancel(ctx)
	s.connect()
	return s, nil
}

// connect starts a new generation: a new process and a new negotiation.
func (s *Session) connect() {
	s.mu.Lock()
	n := 1
	if s.gen != nil {
		n = s.gen.n + 1
	}
	g := &generation{
		n:          n,
		stderr:     s.cfg.Inbox.StderrGen(n, s.now),
		connecting: make(chan struct{}),
		stopped:    make(chan struct{}),
		calls:      make(map[string]*liveCall),
		subs:       make(map[string]*mcp.Subscription),
	}
	g.ctx, g.cancel = context.WithCancel(s.ctx)
	s.gen = g
	s.mu.Unlock()

	s.push(model.Started{Stamp: model.Stamp{Time: s.now(), Gen: n}, Command: append([]string{s.cfg.Command}, s.cfg.Args...)})
	s.push(model.Negotiating{Stamp: model.Stamp{Time: s.now(), Gen: n}, Step: negotiatingStep(s.cfg.MCP.Versions)})
	opts := s.options(g)
	s.reportAuthorizing(g, opts.HTTP.Client)
	go func() {
		defer close(g.connecting)
		client, err := mcp.Connect(g.ctx, s.cfg.Command, s.cfg.Args, opts)
		if err != nil {
			g.stderr.Flush()
			g.stop()
			stopped := mcp.NegotiationFailed(err)
			if s.cfg.OnFailure != nil {
				s.cfg.OnFailure(err, stopped)
			}
			s.push(model.Failed{Stamp: model.Stamp{Time: s.now(), Gen: n}, Err: err.Error(), Stopped: stopped})
			return
		}
		s.mu.Lock()
		if s.gen != g || g.ctx.Err() != nil {
			s.mu.Unlock()
			_ = client.Shutdown(s.cfg.ShutdownGrace)
			g.stop()
			return
		}
		g.client = client
		s.mu.Unlock()
		s.ready(g, client)
		go func() {
			<-client.Transport().Done()
			g.stop()
			<-client.Done()
			g.stderr.Flush()
		}()
	}()
}

// push queues an event for the UI.
func (s *Session) push(ev model.Event) { s.cfg.Inbox.Push(ev) }

// negotiatingStep says what negotiation starts with.
func negotiatingStep(versions []string) string {
	switch {
	case len(versions) == 1 && mcp.Stateless(versions[0]):
		return "pinned to " + versions[0] + ": no handshake"
	case len(versions) == 1:
		return "pinned to " + versions[0] + ": initialize"
	default:
		return "probing with server/discover"
	}
}

// ready reports the negotiation's decisions and the server's identity.
func (s *Session) ready(g *generation, client *mcp.Client) {
	neg := client.Negotiation()
	for _, st := range neg.Steps {
		if st.Kind == mcp.StepAbandon || st.Kind == mcp.StepChoose {
			s.push(model.Negotiating{Stamp: model.Stamp{Time: st.Start.Add(st.Duration), Gen: g.n}, Step: st.Decision})
		}
	}
	if neg.Reason != "" {
		s.push(model.Negotiating{Stamp: model.Stamp{Time: s.now(), Gen: g.n}, Step: "chose " + client.Version() + ": " + neg.Reason})
	}
	if why := mcp.ExplainSilentProbe(neg, client.Options().ProbeTimeout); why != "" {
		// A restart after a silent probe pins an older version: say so
		// where the choice is shown, with the flags that avoid it.
		s.push(model.Negotiating{Stamp: model.Stamp{Time: s.now(), Gen: g.n}, Step: why})
	}
	sess := client.Session()
	s.push(model.Ready{
		Stamp:         model.Stamp{Time: s.now(), Gen: g.n},
		ServerName:    sess.Server.Name,
		ServerVersion: sess.Server.Version,
		Protocol:      client.Version(),
		PID:           client.PID(),
		Transport:     transportName(client.HTTPMode()),
		Offered:       sess.Offered,
		Info:          serverInfo(sess, neg),
	})
	s.startLogging(g, client)
}

// options are the mcp options for one generation: the person answers every
// question (so sampling with tools is declared too), and every line and
// stderr byte reaches the inbox stamped with the generation.
func (s *Session) options(g *generation) mcp.Options {
	opts := s.cfg.MCP
	opts.ShutdownGrace = s.cfg.ShutdownGrace
	opts.Conn.OnStart = func(pid int) { s.push(model.Spawned{Stamp: model.Stamp{Time: s.now(), Gen: g.n}, PID: pid}) }
	opts.Conn.OnShutdownStage = func(st conn.ShutdownStage) {
		if g.stopping.Load() {
			s.push(model.Stopping{Stamp: model.Stamp{Time: s.now(), Gen: g.n}, Stage: st.String()})
		}
	}
	observe := s.cfg.Inbox.ObserverGen(g.n)
	if user := opts.Conn.Observer; user != nil {
		opts.Conn.Observer = func(e conn.Event) { user(e); observe(e) }
	} else {
		opts.Conn.Observer = observe
	}
	if user := opts.Conn.Stderr; user != nil {
		opts.Conn.Stderr = teeWriter{user, g.stderr}
	} else {
		opts.Conn.Stderr = g.stderr
	}
	s.watchNetwork(g, &opts)
	ask := asker{s, g}
	opts.Sampling, opts.ElicitForm, opts.ElicitURL, opts.Roots = ask, ask, ask, ask
	// The capability set every mode declares (headless and doctor too): a
	// person can answer any sampling request, tool use included. Only
	// here is roots.listChanged declared: the catalog's roots dialog
	// sends notifications/roots/list_changed.
	opts.SamplingTools, opts.RootsListChanged = true, true
	// The catalog's task-augmented calls return a task as their result.
	if !slices.Contains(opts.ExtraResultTypes, "task") {
		opts.ExtraResultTypes = append(slices.Clone(opts.ExtraResultTypes), "task")
	}
	return opts
}

// current is the running generation and its client, or an error saying why
// there is none.
func (s *Session) current() (*generation, *mcp.Client, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.gen == nil || s.gen.client == nil {
		return nil, nil, errors.New("the server is not connected (yet)")
	}
	if s.gen.isStopped() {
		return nil, nil, errors.New("the server has stopped: r restarts it")
	}
	return s.gen, s.gen.client, nil
}

// Next waits for the next batch of events; with Config.Linter its lines
// come judged. One Next runs at a time.
func (s *Session) Next(ctx context.Context) ([]model.Event, error) {
	evs, err := s.cfg.Inbox.Next(ctx)
	if s.prelint == nil || len(evs) == 0 {
		return evs, err
	}
	s.prelint.Lint(evs)
	return model.Judged(evs), err
}

// Restart stops the server and starts it again with the same command; the
// history stays, with a boundary.
func (s *Session) Restart(ctx context.Context) error {
	if s.ctx.Err() != nil {
		return errors.New("session: closed")
	}
	_ = s.stopCurrent()
	if s.ctx.Err() != nil {
		return errors.New("session: closed")
	}
	s.connect()
	return nil
}

// RestartAt is Restart with other protocol versions allowed from now on:
// one pins it, several restrict, nil negotiates among all. The history
// stays, with a boundary.
func (s *Session) RestartAt(ctx context.Context, versions []string) error {
	for _, v := range versions {
		if !mcp.KnownVersion(v) {
			return fmt.Errorf("session: protocol %q is not one mcptui speaks", v)
		}
	}
	if s.ctx.Err() != nil {
		return errors.New("session: closed")
	}
	_ = s.stopCurrent()
	if s.ctx.Err() != nil {
		return errors.New("session: closed")
	}
	s.cfg.MCP.Versions = slices.Clone(versions)
	s.connect()
	return nil
}

// Versions are the protocol versions allowed now (nil: all).
func (s *Session) Versions() []string { return slices.Clone(s.cfg.MCP.Versions) }

// Shutdown stops the server for good and ends the session: stdin's EOF,
// then SIGTERM, then SIGKILL to its process group, each after the grace.
// It returns once the process tree is gone, or when ctx is done (the
// shutdown then goes on in the background; every step of it is bounded).
func (s *Session) Shutdown(ctx context.Context) error {
	s.close()
	done := make(chan error, 1)
	go func() { done <- s.stopCurrent() }()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
		return fmt.Errorf("session: shutting the server down: %w", context.Cause(ctx))
	}
}

// stopCurrent shuts the current generation's server down (stdin EOF,
// SIGTERM, SIGKILL), waiting for a connect attempt in progress to end
// first (it ends promptly: its context is cancelled, and mcp shuts down
// the process it was negotiating with).
func (s *Session) stopCurrent() error {
	s.mu.Lock()
	g := s.gen
	s.mu.Unlock()
	if g == nil {
		return nil
	}
	g.stopping.Store(true)
	defer g.cancel()
	s.mu.Lock()
	client := g.client
	s.mu.Unlock()
	if client == nil {
		// Still connecting: cancelling ends the attempt, and mcp shuts
		// down the process it was negotiating with. A connect that won
		// the race sets the client first.
		g.cancel()
		<-g.connecting
		s.mu.Lock()
		client = g.client
		s.mu.Unlock()
	}
	s.mu.Lock()
	subs := g.subs
	g.subs = make(map[string]*mcp.Subscription)
	s.mu.Unlock()
	for _, sub := range subs {
		_ = sub.Close()
	}
	if client == nil {
		return nil
	}
	// The shutdown itself comes before the context is cancelled (which
	// would close stdin at once), so that the server's open questions are
	// answered first.
	err := client.Shutdown(s.cfg.ShutdownGrace)
	g.stop()
	return err
}

// teeWriter writes to two writers; the second's errors are ignored.
type teeWriter struct {
	a, b interface{ Write([]byte) (int, error) }
}

func (t teeWriter) Write(p []byte) (int, error) {
	_, _ = t.b.Write(p)
	return t.a.Write(p)
}
