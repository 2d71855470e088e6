package session

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/mcptui/mcptui/conn"
	"github.com/mcptui/mcptui/internal/backend"
	"github.com/mcptui/mcptui/internal/rpccall"
	"github.com/mcptui/mcptui/mcp"
	"github.com/mcptui/mcptui/model"
)

// liveCall is a request the person sent, still in flight.
type liveCall struct {
	cancel context.CancelCauseFunc
	ctl    *conn.CallControl
}

// ErrCancelledByPerson is the cause of a request's cancellation by the
// person (Cancel: the cancel key in pane 1); it is a context.Canceled.
var ErrCancelledByPerson = cancelledByPerson{}

type cancelledByPerson struct{}

func (cancelledByPerson) Error() string { return "cancelled by the person (the cancel key)" }
func (cancelledByPerson) Unwrap() error { return context.Canceled }

// Call sends a request the person composed, with its own timer and progress
// options, and returns its result or error. While in flight it can be
// cancelled and extended by its wire id.
func (s *Session) Call(ctx context.Context, req backend.CallRequest) (json.RawMessage, error) {
	timeout := req.Timeout
	switch {
	case timeout == 0:
		timeout = s.cfg.MCP.RequestTimeout
	case timeout < 0:
		timeout = mcp.NoTimeout
	}
	return s.send(ctx, req.Method, req.Params, callOptions{
		timeout: timeout, progress: req.Progress, reset: req.Progress && req.ResetOnProgress,
	})
}

// Send sends a request with the session's timer options (timeout <= 0 uses
// the configured one), asking for progress, and returns its result or
// error. The request can be cancelled and extended by its wire id while in
// flight.
func (s *Session) Send(ctx context.Context, method string, params json.RawMessage, timeout time.Duration) (json.RawMessage, error) {
	if timeout <= 0 {
		timeout = s.cfg.MCP.RequestTimeout
	}
	return s.send(ctx, method, params, callOptions{timeout: timeout, progress: true, reset: s.cfg.ResetOnProgress})
}

// callOptions are the timer and progress options of one request: timeout 0
// is conn's default (30 s), < 0 none.
type callOptions struct {
	timeout         time.Duration
	progress, reset bool
}

// send sends a request of the person's on the current connection.
func (s *Session) send(ctx context.Context, method string, params json.RawMessage, o callOptions) (json.RawMessage, error) {
	var res json.RawMessage
	err := s.track(ctx, method, o, func(ctx context.Context, client *mcp.Client, opts []mcp.RequestOption) error {
		if o.progress {
			opts = append(opts, mcp.WithProgress(func(conn.Progress) error { return nil }))
		}
		var raw any
		if len(params) > 0 {
			raw = params
		}
		var err error
		res, err = client.Request(ctx, method, raw, opts...)
		return err
	})
	return res, err
}

// track sends one request through fn with the timer options and a call
// control, tracking it for Cancel and Extend while in flight.
func (s *Session) track(ctx context.Context, method string, o callOptions, fn func(ctx context.Context, c *mcp.Client, opts []mcp.RequestOption) error) error {
	g, client, err := s.current()
	if err != nil {
		return err
	}
	ctl := &conn.CallControl{}
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	// The questions of its input_required results name its round by it.
	ctx = context.WithValue(ctx, roundCtl{}, ctl)
	opts := []mcp.RequestOption{mcp.WithCallOptions(conn.WithControl(ctl))}
	if o.timeout != 0 {
		opts = append(opts, mcp.WithTimeout(o.timeout))
	}
	if o.reset {
		opts = append(opts, mcp.WithResetTimeoutOnProgress())
		if s.cfg.MaxTotalTimeout > 0 {
			opts = append(opts, mcp.WithMaxTotalTimeout(s.cfg.MaxTotalTimeout))
		}
	}
	shown := o.timeout
	if shown == 0 {
		// No timer of its own: the client's (--timeout), as mcp applies it.
		shown = s.cfg.MCP.RequestTimeout
	}
	switch {
	case shown == 0:
		shown = 30 * time.Second // conn's default
	case shown < 0:
		shown = 0 // no timer
	}
	maxTotal := s.cfg.MaxTotalTimeout
	if maxTotal <= 0 {
		maxTotal = 10 * time.Minute // conn's default cap
	}
	tracked := &liveCall{cancel: cancel, ctl: ctl}
	stopTracking := s.trackWhenSent(g, tracked, model.CallOptions{Method: method, Timeout: shown, ResetOnProgress: o.reset, MaxTotal: maxTotal})
	err = fn(ctx, client, opts)
	if rejected := (*InputRejectedError)(nil); errors.As(err, &rejected) {
		// What the person did, not the layers it passed through.
		err = rejected
	}
	if id := stopTracking(); id != "" && err != nil {
		// The model ends the call from the wire when it can; this covers
		// a call whose line never went out, or whose end left no trace.
		ended := model.CallEnded{Stamp: model.Stamp{Time: s.now(), Gen: g.n}, ID: json.RawMessage(id), Err: err.Error(),
			Cancelled: errors.Is(err, context.Canceled)}
		var e *mcp.Error
		if errors.As(err, &e) {
			ended.Code = e.Code
		}
		s.push(ended)
	}
	return err
}

// trackWhenSent registers a call under its wire id once conn has given it
// one, and tells the model its method and timer options; the returned func
// forgets it and returns the id ("" if it never had one).
func (s *Session) trackWhenSent(g *generation, track *liveCall, opts model.CallOptions) func() string {
	stop := make(chan struct{})
	done := make(chan struct{})
	var id string
	go func() {
		defer close(done)
		select {
		case <-stop:
			return
		case <-track.ctl.Started():
		}
		id = rpccall.MatchKey([]byte(fmt.Sprint(track.ctl.ID())))
		s.mu.Lock()
		g.calls[id] = track
		s.mu.Unlock()
		opts.Time, opts.Gen, opts.ID = s.now(), g.n, json.RawMessage(id)
		s.push(opts)
	}()
	return func() string {
		close(stop)
		<-done
		if id != "" {
			s.mu.Lock()
			delete(g.calls, id)
			s.mu.Unlock()
		}
		return id
	}
}

// Cancel cancels one of the person's requests in flight: the server is sent
// notifications/cancelled.
func (s *Session) Cancel(_ context.Context, id json.RawMessage) error {
	c := s.call(id)
	if c == nil {
		return fmt.Errorf("request %s is not one the inspector can cancel (it ended, or mcptui's own)", id)
	}
	c.cancel(ErrCancelledByPerson)
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

// call finds a request of the person's in flight on the current connection.
func (s *Session) call(id json.RawMessage) *liveCall {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.gen == nil {
		return nil
	}
	return s.gen.calls[rpccall.MatchKey(id)]
}
