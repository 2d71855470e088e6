package telemetry

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"go.opentelemetry.io/otel/trace"

	"github.com/mcptui/mcptui/conn"
	"github.com/mcptui/mcptui/httpconn"
	"github.com/mcptui/mcptui/internal/record"
	"github.com/mcptui/mcptui/mcp"
)

// Live traces a session as it happens: its Observer, Stderr and
// RequestMeta go into the connection's options (Attach does it), Ready
// when the client is connected, Close at the end.
type Live struct {
	p  *Provider
	t  *Tracer
	mu sync.Mutex
	// stderr lines not yet ended by a newline
	partial []byte
	// children are the connections of Connection.
	children []*Live
	// endOnExit says the server's exit ends the span (a Connection's).
	endOnExit bool
}

// LiveOptions are what StartLive needs.
type LiveOptions struct {
	// Endpoint is --otlp-endpoint ("" = the OTEL_EXPORTER_OTLP_*
	// variables); TraceParent is --traceparent ("" = a new trace).
	Endpoint    string
	TraceParent string
	Session     Session
	// Provider, when set, is used instead of one made for Endpoint
	// (tests).
	Provider *Provider
}

// StartLive starts the session span now.
func StartLive(ctx context.Context, o LiveOptions) (*Live, error) {
	p := o.Provider
	if p == nil {
		var err error
		if p, err = NewProvider(ctx, o.Endpoint); err != nil {
			return nil, err
		}
	}
	s := o.Session
	if o.TraceParent != "" {
		sc, err := ParseTraceParent(o.TraceParent)
		if err != nil {
			return nil, err
		}
		s.Parent = sc
	}
	return &Live{p: p, t: NewTracer(p, time.Now(), s)}, nil
}

// Attach chains l into opts: every line both ways and every exit reach
// the tracer before the Observer already there, stderr lines before the
// Stderr writer already there, HTTP exchanges (their Mcp-Session-Id)
// before the OnExchange already there, and each request carries its
// span's traceparent in params._meta.
func (l *Live) Attach(opts *mcp.Options) {
	opts.Conn.Observer = l.Observer(opts.Conn.Observer)
	opts.Conn.Stderr = l.Stderr(opts.Conn.Stderr)
	opts.HTTP.OnExchange = l.OnExchange(opts.HTTP.OnExchange)
	opts.RequestMeta = l.RequestMeta
}

// OnExchange returns an httpconn OnExchange that reads the session id of
// each exchange (mcp.session.id, redacted as recordings redact it) and
// passes the exchange on to next (if not nil).
func (l *Live) OnExchange(next func(httpconn.Exchange)) func(httpconn.Exchange) {
	return func(e httpconn.Exchange) {
		l.Exchange(e)
		if next != nil {
			next(e)
		}
	}
}

// Exchange traces one HTTP exchange: the session id its answer gave, or
// its request carried.
func (l *Live) Exchange(e httpconn.Exchange) {
	id := e.ResponseHeader.Get(httpconn.HeaderSessionID)
	if id == "" {
		id = e.RequestHeader.Get(httpconn.HeaderSessionID)
	}
	if id != "" && id != httpconn.Redacted {
		l.t.SessionID(record.RedactHeader(httpconn.HeaderSessionID, id))
	}
}

// Observer returns a conn Observer that traces each event and passes it
// on to next (if not nil).
func (l *Live) Observer(next func(conn.Event)) func(conn.Event) {
	return func(ev conn.Event) {
		l.Observe(ev)
		if next != nil {
			next(ev)
		}
	}
}

// Observe traces one conn event.
func (l *Live) Observe(ev conn.Event) {
	at := ev.Time
	if at.IsZero() {
		at = time.Now()
	}
	switch ev.Kind {
	case conn.Sent:
		l.t.Message(at, false, ev.Line)
	case conn.Received:
		l.t.Message(at, true, ev.Line)
	case conn.Discarded:
		reason := ""
		if ev.Err != nil {
			reason = ev.Err.Error()
		}
		l.t.Discarded(at, reason)
	case conn.Exited:
		status := ""
		if ev.Err != nil {
			status = ev.Err.Error()
		}
		l.t.Exit(at, status)
		if l.endOnExit {
			l.t.End(at)
		}
	}
}

// RequestMeta is mcp.Options.RequestMeta: a traceparent naming a new span
// of the session's trace, which the request's span takes when the line
// is seen going out.
func (l *Live) RequestMeta(string) json.RawMessage {
	sc := l.t.SpanContext()
	id := l.p.ids.newSpanID()
	tp := fmt.Sprintf("00-%s-%s-%s", sc.TraceID(), id, sc.TraceFlags())
	b, _ := json.Marshal(map[string]string{"traceparent": tp})
	return b
}

// Stderr returns a writer that traces each line written and passes the
// bytes on to next (if not nil).
func (l *Live) Stderr(next io.Writer) io.Writer { return &liveStderr{l: l, next: next} }

type liveStderr struct {
	l    *Live
	next io.Writer
}

func (w *liveStderr) Write(p []byte) (int, error) {
	w.l.stderr(p)
	if w.next != nil {
		return w.next.Write(p)
	}
	return len(p), nil
}

// maxStderrLine is the longest stderr text one event holds.
const maxStderrLine = 16 << 10

func (l *Live) stderr(p []byte) {
	now := time.Now()
	l.mu.Lock()
	defer l.mu.Unlock()
	for len(p) > 0 {
		i := bytes.IndexByte(p, '\n')
		if i < 0 {
			l.partial = append(l.partial, p...)
			if len(l.partial) > maxStderrLine {
				l.t.Stderr(now, string(l.partial[:maxStderrLine]))
				l.partial = append(l.partial[:0], l.partial[maxStderrLine:]...)
			}
			return
		}
		line := append(l.partial, p[:i]...)
		l.t.Stderr(now, strings.TrimSuffix(string(line), "\r"))
		l.partial = l.partial[:0]
		p = p[i+1:]
	}
}

// Ready records the negotiated session of c.
func (l *Live) Ready(c *mcp.Client) {
	s := c.Session()
	l.t.Ready(time.Now(), s.Version, s.Server.Name, s.Server.Version, c.PID())
}

// Failed records that the session could not start.
func (l *Live) Failed(err error) { l.t.Failed(time.Now(), err.Error()) }

// SpanContext is the session span's.
func (l *Live) SpanContext() trace.SpanContext { return l.t.SpanContext() }

// Close ends the session span (and the requests still open) and sends
// what is left, within ctx; the error is the first export's that failed.
func (l *Live) Close(ctx context.Context) error {
	l.mu.Lock()
	if len(l.partial) > 0 {
		l.t.Stderr(time.Now(), string(l.partial))
		l.partial = nil
	}
	children := l.children
	l.mu.Unlock()
	for _, c := range children {
		c.t.End(time.Now())
	}
	l.t.End(time.Now())
	return l.p.Shutdown(ctx)
}

// Connection traces one more connection of the session (mcptui check
// opens several, and their request ids start over): a span of its own,
// "mcp connection", the child of the session span, with its requests
// under it. It ends at the server's exit, or at the session's Close. Its
// Observer, Stderr, OnExchange and RequestMeta go into that connection's
// options as Attach puts them (Attach does it for an mcp.Options).
func (l *Live) Connection() *Live {
	s := l.t.sess
	s.Parent, s.TraceID = l.t.SpanContext(), trace.TraceID{}
	c := &Live{p: l.p, t: newTracer(l.p, time.Now(), s, ConnectionSpanName), endOnExit: true}
	l.mu.Lock()
	l.children = append(l.children, c)
	l.mu.Unlock()
	return c
}
