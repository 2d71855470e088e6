// Package session is the live connection behind the inspector: it starts the
// server through mcp, feeds everything that happens into the inspector's
// event inbox, parks the server's questions until a person answers them, and
// carries out what the person asks (cancel, extend, answer, reject, restart).
// It implements ui.Backend.
package session

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/mcptui/mcptui/conn"
	"github.com/mcptui/mcptui/mcp"
	"github.com/mcptui/mcptui/model"
	"github.com/mcptui/mcptui/ui/inbox"
)

// DefaultShutdownGrace is how long the server gets at each step of a
// shutdown (EOF, then SIGTERM, then SIGKILL).
const DefaultShutdownGrace = 2 * time.Second

// Config says which server to start and how.
type Config struct {
	Command string
	Args    []string
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
}

// Session is one inspector's connection to its server, across restarts.
type Session struct {
	cfg   Config
	now   func() time.Time
	ctx   context.Context
	close context.CancelFunc

	mu         sync.Mutex
	gen        int
	client     *mcp.Client
	stderr     *inbox.StderrWriter
	connecting chan struct{} // closed when the current connect attempt ends
	questions  map[string]*parked
	calls      map[string]*liveCall
	subs       map[string]*mcp.Subscription
	nextKey    int
}

// parked is a question waiting for a person.
type parked struct {
	answer chan answer
}

type answer struct {
	result json.RawMessage
	err    error
}

// liveCall is a request the person sent, still in flight.
type liveCall struct {
	cancel context.CancelFunc
	ctl    *conn.CallControl
}

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
	s := &Session{
		cfg:       cfg,
		now:       cfg.Now,
		questions: make(map[string]*parked),
		calls:     make(map[string]*liveCall),
		subs:      make(map[string]*mcp.Subscription),
	}
	s.ctx, s.close = context.WithCancel(ctx)
	s.connect()
	return s, nil
}

// connect starts a new generation: a new process and a new negotiation.
func (s *Session) connect() {
	s.mu.Lock()
	s.gen++
	gen := s.gen
	done := make(chan struct{})
	s.connecting = done
	s.stderr = s.cfg.Inbox.Stderr(s.now)
	stderr := s.stderr
	s.mu.Unlock()

	s.cfg.Inbox.Push(model.Started{Time: s.now(), Command: append([]string{s.cfg.Command}, s.cfg.Args...)})
	s.cfg.Inbox.Push(model.Negotiating{Time: s.now(), Step: negotiatingStep(s.cfg.MCP.Versions)})
	opts := s.options(stderr)
	go func() {
		defer close(done)
		client, err := mcp.Connect(s.ctx, s.cfg.Command, s.cfg.Args, opts)
		if err != nil {
			stderr.Flush()
			s.cfg.Inbox.Push(model.Failed{Time: s.now(), Err: err.Error()})
			return
		}
		s.mu.Lock()
		if s.gen != gen || s.ctx.Err() != nil {
			s.mu.Unlock()
			_ = client.Shutdown(s.cfg.ShutdownGrace)
			return
		}
		s.client = client
		s.mu.Unlock()
		s.ready(client)
		go func() {
			<-client.Done()
			<-client.Conn().Done()
			stderr.Flush()
		}()
	}()
}

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

// ready reports the negotiation's steps and the server's identity.
func (s *Session) ready(client *mcp.Client) {
	neg := client.Negotiation()
	for _, st := range neg.Steps {
		if st.Decision != "" {
			s.cfg.Inbox.Push(model.Negotiating{Time: st.Start.Add(st.Duration), Step: st.Decision})
		}
	}
	sess := client.Session()
	s.cfg.Inbox.Push(model.Ready{
		Time:          s.now(),
		ServerName:    sess.Server.Name,
		ServerVersion: sess.Server.Version,
		Protocol:      client.Version(),
		PID:           client.PID(),
	})
}

// options are the mcp options for one generation: the person answers every
// question, and every line and stderr byte reaches the inbox.
func (s *Session) options(stderr *inbox.StderrWriter) mcp.Options {
	opts := s.cfg.MCP
	observe := s.cfg.Inbox.Observer()
	if user := opts.Conn.Observer; user != nil {
		opts.Conn.Observer = func(e conn.Event) { user(e); observe(e) }
	} else {
		opts.Conn.Observer = observe
	}
	if user := opts.Conn.Stderr; user != nil {
		opts.Conn.Stderr = teeWriter{user, stderr}
	} else {
		opts.Conn.Stderr = stderr
	}
	ask := asker{s}
	opts.Sampling, opts.ElicitForm, opts.ElicitURL, opts.Roots = ask, ask, ask, ask
	return opts
}

// current is the client of the running generation, or an error saying why
// there is none.
func (s *Session) current() (*mcp.Client, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.client == nil {
		return nil, errors.New("the server is not connected")
	}
	return s.client, nil
}

// Next waits for the next batch of events.
func (s *Session) Next(ctx context.Context) ([]model.Event, error) {
	return s.cfg.Inbox.Next(ctx)
}

// asker is the mcp.Answerer for every kind of question: it parks them with
// the session.
type asker struct{ s *Session }

// Answer implements mcp.Answerer.
func (a asker) Answer(ctx context.Context, q *mcp.Question) (json.RawMessage, error) {
	return a.s.ask(ctx, q)
}

// ask parks a question from the server until the person answers it (see
// Answer and Reject), the server withdraws it, or the connection stops.
func (s *Session) ask(ctx context.Context, q *mcp.Question) (json.RawMessage, error) {
	s.mu.Lock()
	gen := s.gen
	key := ""
	if q.Origin.RequestID == nil {
		// Entries of concurrent input_required results may share a key:
		// make each one unique for the queue.
		s.nextKey++
		key = fmt.Sprintf("%s#%d", q.Origin.Key, s.nextKey)
	}
	ref := refKey(gen, q.Origin.RequestID, key)
	p := &parked{answer: make(chan answer, 1)}
	s.questions[ref] = p
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		delete(s.questions, ref)
		s.mu.Unlock()
	}()

	s.cfg.Inbox.Push(model.QuestionAsked{
		Time: s.now(), RequestID: q.Origin.RequestID, Key: key, Method: q.Method, Params: q.Params,
		CallMethod: q.Origin.CallMethod, Round: q.Origin.Round,
	})
	select {
	case a := <-p.answer:
		return a.result, a.err
	case <-ctx.Done():
		state := model.CancelledByServer
		if s.connectionStopped() {
			state = model.QuestionConnectionDied
		}
		s.cfg.Inbox.Push(model.QuestionResolved{Time: s.now(), RequestID: q.Origin.RequestID, Key: key, State: state})
		return nil, ctx.Err()
	}
}

// connectionStopped reports whether the current generation's connection has
// stopped (or there is none).
func (s *Session) connectionStopped() bool {
	s.mu.Lock()
	client := s.client
	s.mu.Unlock()
	if client == nil {
		return true
	}
	select {
	case <-client.Conn().Done():
		return true
	default:
		return s.ctx.Err() != nil
	}
}

func refKey(gen int, requestID json.RawMessage, key string) string {
	return fmt.Sprintf("%d\x00%s\x00%s", gen, requestID, key)
}

// deliver hands an answer to a parked question.
func (s *Session) deliver(q model.QuestionRef, a answer) error {
	s.mu.Lock()
	p := s.questions[refKey(q.Gen, q.RequestID, q.InputKey)]
	s.mu.Unlock()
	if p == nil {
		return errors.New("the question is no longer waiting (answered, withdrawn, or the connection stopped)")
	}
	select {
	case p.answer <- a:
		return nil
	default:
		return errors.New("the question was already answered")
	}
}

// Answer sends result as the answer to a question.
func (s *Session) Answer(_ context.Context, q model.QuestionRef, result json.RawMessage) error {
	return s.deliver(q, answer{result: result})
}

// Reject answers a question with a JSON-RPC error.
func (s *Session) Reject(_ context.Context, q model.QuestionRef, e model.RPCError) error {
	return s.deliver(q, answer{err: &mcp.Error{Code: e.Code, Message: e.Message}})
}

// Send sends a request the person composed, with the session's timer options
// (timeout <= 0 uses the configured one) and progress, and returns its
// result or error. The request can be cancelled and extended by its wire id
// while in flight.
func (s *Session) Send(ctx context.Context, method string, params json.RawMessage, timeout time.Duration) (json.RawMessage, error) {
	client, err := s.current()
	if err != nil {
		return nil, err
	}
	if timeout <= 0 {
		timeout = s.cfg.MCP.RequestTimeout
	}
	ctl := &conn.CallControl{}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	opts := []mcp.RequestOption{
		mcp.WithCallOptions(conn.WithControl(ctl)),
		mcp.WithProgress(func(conn.Progress) error { return nil }),
	}
	if timeout > 0 {
		opts = append(opts, mcp.WithTimeout(timeout))
	}
	if s.cfg.ResetOnProgress {
		opts = append(opts, mcp.WithResetTimeoutOnProgress())
	}
	if s.cfg.MaxTotalTimeout > 0 {
		opts = append(opts, mcp.WithMaxTotalTimeout(s.cfg.MaxTotalTimeout))
	}
	track := &liveCall{cancel: cancel, ctl: ctl}
	stopTracking := s.trackWhenSent(ctl, track, timeout)
	defer stopTracking()
	var raw any
	if len(params) > 0 {
		raw = params
	}
	return client.Request(ctx, method, raw, opts...)
}

// trackWhenSent registers a call under its wire id once conn has given it
// one, and tells the model its timer options; the returned func forgets it.
func (s *Session) trackWhenSent(ctl *conn.CallControl, track *liveCall, timeout time.Duration) func() {
	stop := make(chan struct{})
	done := make(chan struct{})
	var id string
	go func() {
		defer close(done)
		select {
		case <-stop:
			return
		case <-ctl.Started():
		}
		id = fmt.Sprint(ctl.ID())
		s.mu.Lock()
		s.calls[id] = track
		s.mu.Unlock()
		s.cfg.Inbox.Push(model.CallOptions{Time: s.now(), ID: json.RawMessage(id), Timeout: timeout,
			ResetOnProgress: s.cfg.ResetOnProgress, MaxTotal: s.cfg.MaxTotalTimeout})
	}()
	return func() {
		close(stop)
		<-done
		if id != "" {
			s.mu.Lock()
			delete(s.calls, id)
			s.mu.Unlock()
		}
	}
}

// Cancel cancels one of the person's requests in flight: the server is sent
// notifications/cancelled.
func (s *Session) Cancel(_ context.Context, id json.RawMessage) error {
	c := s.call(id)
	if c == nil {
		return fmt.Errorf("request %s is not one the inspector can cancel (it ended, or mcptui's own)", id)
	}
	c.cancel()
	return nil
}

// Extend moves the timer of one of the person's requests later.
func (s *Session) Extend(_ context.Context, id json.RawMessage, by time.Duration) error {
	c := s.call(id)
	if c == nil {
		return fmt.Errorf("request %s is not one the inspector can extend", id)
	}
	if _, ok := c.ctl.Deadline(); !ok {
		return fmt.Errorf("request %s has no timer", id)
	}
	c.ctl.Extend(by)
	return nil
}

func (s *Session) call(id json.RawMessage) *liveCall {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.calls[strings.TrimSpace(string(id))]
}

// Listen opens a subscription the person asked for and keeps it until
// CloseSubscription; its events show in the traffic.
func (s *Session) Listen(ctx context.Context, f mcp.Filter) (json.RawMessage, error) {
	client, err := s.current()
	if err != nil {
		return nil, err
	}
	sub, err := client.Listen(s.ctx, f)
	if err != nil {
		return nil, err
	}
	id := sub.ID()
	s.mu.Lock()
	s.subs[string(id)] = sub
	s.mu.Unlock()
	go func() {
		for {
			if _, err := sub.Next(s.ctx); err != nil {
				return
			}
		}
	}()
	return id, nil
}

// CloseSubscription closes one of the person's subscriptions.
func (s *Session) CloseSubscription(_ context.Context, id json.RawMessage) error {
	s.mu.Lock()
	sub := s.subs[strings.TrimSpace(string(id))]
	delete(s.subs, strings.TrimSpace(string(id)))
	s.mu.Unlock()
	if sub == nil {
		return fmt.Errorf("subscription %s is not open", id)
	}
	return sub.Close()
}

// Restart stops the server and starts it again with the same command; the
// history stays, with a boundary.
func (s *Session) Restart(ctx context.Context) error {
	s.stopCurrent()
	if s.ctx.Err() != nil {
		return errors.New("session: closed")
	}
	s.connect()
	return nil
}

// Shutdown stops the server for good and ends the session.
func (s *Session) Shutdown(ctx context.Context) error {
	err := s.stopCurrent()
	s.close()
	s.mu.Lock()
	connecting := s.connecting
	s.mu.Unlock()
	if connecting != nil {
		<-connecting
	}
	return err
}

// stopCurrent shuts the current generation's server down (stdin EOF,
// SIGTERM, SIGKILL).
func (s *Session) stopCurrent() error {
	s.mu.Lock()
	client := s.client
	s.client = nil
	subs := s.subs
	s.subs = make(map[string]*mcp.Subscription)
	s.mu.Unlock()
	for _, sub := range subs {
		_ = sub.Close()
	}
	if client == nil {
		return nil
	}
	return client.Shutdown(s.cfg.ShutdownGrace)
}

// teeWriter writes to two writers; the second's errors are ignored.
type teeWriter struct{ a, b interface{ Write([]byte) (int, error) } }

func (t teeWriter) Write(p []byte) (int, error) {
	_, _ = t.b.Write(p)
	return t.a.Write(p)
}
