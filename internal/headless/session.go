package headless

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/mcptui/mcptui/httpconn/oauth"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/mcptui/mcptui/conn"
	"github.com/mcptui/mcptui/internal/cli"
	"github.com/mcptui/mcptui/internal/inert"
	"github.com/mcptui/mcptui/internal/record"
	"github.com/mcptui/mcptui/internal/telemetry"
	"github.com/mcptui/mcptui/mcp"
	"github.com/mcptui/mcptui/model"
)

// stderrTailLines is how many of the server's last stderr lines a failure
// shows.
const stderrTailLines = 20

// session is one connection to the server for a headless command.
type session struct {
	cfg    *cli.Config
	client *mcp.Client
	rec    *record.Recorder
	tel    *telemetry.Live
	tail   *tailWriter
	notes  *noteWriter
	prog   *progress
	rules  *Rules
	// closing ends the watch on the recording (watchRecording).
	closing chan struct{}
}

// ConnectOptions are what OpenRecorder and connect need besides the
// configuration.
type ConnectOptions struct {
	// Recorder records the session; nil for none.
	Recorder *record.Recorder
	// Stderr is mcptui's stderr (notes, progress, --verbose echo).
	Stderr io.Writer
	// Observer, when set, also sees every conn event.
	Observer func(conn.Event)
	// Capabilities, when set, are declared beside the client's own (an
	// extension's, such as MCP Apps').
	Capabilities json.RawMessage
}

// OpenRecorder creates the recording --record asks for (nil when it does
// not), with a header describing cfg.
func OpenRecorder(cfg *cli.Config) (*record.Recorder, error) {
	if cfg.Record == "" {
		return nil, nil
	}
	return record.Create(cfg.Record, RecordHeader(cfg))
}

// AttachRecorder is --record for any mode, the inspector's included: it
// creates the recording cfg asks for (nil, nil when it asks for none), with
// command and args as the server's command line, and chains it in front of
// opts.Conn's Observer and Stderr, so that every line both ways, every
// discarded line and every stderr line is recorded. The caller records the
// negotiation with Connected when it has the client (without it a replay
// finds the handshake on the wire), and after shutting the server down
// calls WaitExits, then Close.
func AttachRecorder(cfg *cli.Config, command string, args []string, opts *mcp.Options) (*record.Recorder, error) {
	if cfg.Record == "" {
		return nil, nil
	}
	h := RecordHeader(cfg)
	h.Command, h.Args = command, args
	rec, err := record.Create(cfg.Record, h)
	if err != nil {
		return nil, err
	}
	opts.Conn.Observer = rec.Observer(opts.Conn.Observer)
	opts.Conn.Stderr = rec.Stderr(opts.Conn.Stderr)
	rec.WatchHTTP(&opts.HTTP)
	return rec, nil
}

// RecordHeader is the recording header for cfg.
func RecordHeader(cfg *cli.Config) record.Header {
	return record.Header{
		Mode:    cfg.Mode.String(),
		Mcptui:  mcp.DefaultClientInfo().Version,
		Command: cfg.Command,
		Args:    cfg.Args,
		Dir:     cfg.Dir,
		Env:     cfg.ConnEnv(),
		Secrets: cfg.RecordSecrets,
		Settings: record.Settings{
			Timeout:                cfg.Timeout.String(),
			ResetTimeoutOnProgress: cfg.ResetOnProgress,
			MaxTotalTimeout:        cfg.MaxTotalTimeout.String(),
			MaxLineBytes:           cfg.MaxLineBytes,
			Protocols:              cfg.Protocols,
			Roots:                  cfg.Roots,
		},
	}
}

// MCPOptions are the mcp options for cfg (see cli.Config.MCPOptions) with
// the answer rules as the answerers.
func MCPOptions(cfg *cli.Config, rules *Rules) mcp.Options {
	o := cfg.MCPOptions()
	if rules != nil {
		rules.Declare(&o)
	}
	return o
}

// connect starts the server and negotiates. On failure the Failure carries
// the tail of the server's stderr; the session is returned in any case, to
// be closed.
func connect(ctx context.Context, cfg *cli.Config, co ConnectOptions) (*session, *Failure) {
	s := &session{cfg: cfg, rec: co.Recorder, tail: newTailWriter(stderrTailLines), closing: make(chan struct{})}
	s.notes = &noteWriter{w: co.Stderr}
	s.prog = newProgress(co.Stderr, s.notes)
	if s.rec != nil {
		go s.watchRecording()
	}
	rules, err := NewRules(cfg, s.notes)
	if err != nil {
		return s, fail(KindUsage, "%v", err)
	}
	s.rules = rules
	o := MCPOptions(cfg, rules)
	if len(co.Capabilities) > 0 {
		o.Capabilities = co.Capabilities
	}
	if o.HTTP.Client, err = cfg.HTTPClient(authSteps(s.notes)); err != nil {
		return s, fail(KindUsage, "%v", err)
	}
	// The person's login at the browser is bounded by the flow's own
	// limit, not by the first request's --timeout.
	if err := oauth.Preflight(ctx, o.HTTP.Client); err != nil {
		if ctx.Err() != nil {
			return s, fail(KindInterrupted, "interrupted: %v", err)
		}
		return s, fail(KindConnection, "%v", err)
	}
	var stderr io.Writer = s.tail
	if cfg.Verbose {
		stderr = io.MultiWriter(s.tail, &prefixWriter{prefix: "server stderr: ", out: s.notes})
		o.OnNotification = func(n mcp.Notification) { s.notes.notification(n) }
	}
	observe := explainDiscards(co.Observer, cfg.MaxLineBytes, s.notes, cfg.Verbose)
	if s.rec != nil {
		stderr = s.rec.Stderr(stderr)
		observe = s.rec.Observer(observe)
		s.rec.WatchHTTP(&o.HTTP)
	}
	o.Conn.Stderr, o.Conn.Observer = stderr, observe
	if s.tel, err = StartTelemetry(ctx, cfg, cfg.Command, cfg.Args); err != nil {
		return s, fail(KindUsage, "%v", err)
	}
	if s.tel != nil {
		s.tel.Attach(&o)
	}
	// The connection is owned by a context of its own: a signal cancels
	// a connect in progress at once, but once connected it ends the
	// requests, and close then shuts the server down in order (open
	// questions answered, EOF, SIGTERM, SIGKILL) instead of cutting stdin.
	owner, cancelOwner := context.WithCancel(context.WithoutCancel(ctx))
	stopWatching := context.AfterFunc(ctx, cancelOwner)
	client, err := mcp.Connect(owner, cfg.Command, cfg.Args, o)
	if !stopWatching() && err == nil {
		// ctx ended just as the connect succeeded: the owner is cancelled
		// (stdin closed); close still stops the rest.
		s.client = client
		return s, classify(ctx, context.Cause(ctx), stageConnect, true)
	}
	if err != nil {
		cancelOwner()
		if s.rec != nil {
			s.rec.Failed(err, mcp.NegotiationFailed(err))
		}
		if s.tel != nil {
			s.tel.Failed(err)
		}
		f := classify(ctx, err, stageConnect, true)
		f.Stderr = s.tail.lines()
		return s, f
	}
	s.client = client
	if s.rec != nil {
		s.rec.Connected(client)
	}
	if s.tel != nil {
		s.tel.Ready(client)
	}
	if why := mcp.ExplainSilentProbe(client.Negotiation(), client.Options().ProbeTimeout); why != "" {
		s.notes.printf("%s", why)
	}
	return s, nil
}

// stopped reports whether the connection has stopped.
func (s *session) stopped() bool {
	select {
	case <-s.client.Done():
		return true
	default:
		return false
	}
}

// failure classifies an error from a request and adds the stderr tail when
// the server went away.
func (s *session) failure(ctx context.Context, err error) *Failure {
	f := classify(ctx, err, stageRequest, s.stopped())
	if f.Kind == KindConnection || f.Kind == KindTimeout {
		f.Stderr = s.tail.lines()
	}
	if f.RPC != nil {
		_ = s.explainEra(f, f.RPC.Message)
	}
	return f
}

// explainEra adds to f why the server's SDK refused, when text (the
// error's words) is a server that asked its question the pre-2026 way on a
// 2026-07-28 session (mcp.ExplainOldStyleQuestion).
func (s *session) explainEra(f *Failure, text string) *Failure {
	sess := s.client.Session()
	if why := mcp.ExplainOldStyleQuestion(s.client.Version(), sess.Offered, text); why != "" {
		f.Message += "\n" + why
	}
	return f
}

// requestOptions are the per-request options: progress to stderr and the
// timer flags.
func (s *session) requestOptions(label string) []mcp.RequestOption {
	opts := []mcp.RequestOption{mcp.WithProgress(func(p conn.Progress) error {
		s.prog.update(label, p)
		return nil
	})}
	if s.cfg.ResetOnProgress {
		opts = append(opts, mcp.WithResetTimeoutOnProgress())
	}
	if s.cfg.MaxTotalTimeout > 0 {
		opts = append(opts, mcp.WithMaxTotalTimeout(s.cfg.MaxTotalTimeout))
	}
	return opts
}

// explainDiscards is an Observer that says on stderr, as it happens, when
// an answer was discarded (over the line limit, nested too deep) and its id
// could be read, so that the timeout that follows is no mystery; then it
// passes the event to next. An answer no request waits for (it came after
// its call gave up, or from a process given up on during the negotiation)
// makes nothing time out: it is said only with -v, as what it is.
func explainDiscards(next func(conn.Event), maxLine int, notes *noteWriter, verbose bool) func(conn.Event) {
	return func(ev conn.Event) {
		if ev.Kind == conn.Discarded {
			reason := ""
			if ev.Err != nil {
				reason = ev.Err.Error()
			}
			if id, text := model.ExplainDiscardedAnswer(ev.Line, ev.Head, ev.Size, maxLine, reason); id != nil {
				switch {
				case !unwaited(reason):
					notes.printf("%s", inert.Line(text))
				case verbose:
					notes.printf("%s (no call was waiting for it)", inert.Line(text))
				}
			}
		}
		if next != nil {
			next(ev)
		}
	}
}

// watchRecording says at once when the recording cannot be written (a
// full disk), rather than only when the session ends; the command still
// fails then (see close).
func (s *session) watchRecording() {
	select {
	case <-s.rec.WriteFailed():
		s.notes.printf("the recording %s cannot be written (%v): this session is not being recorded", s.cfg.Record, s.rec.Err())
	case <-s.closing:
	}
}

// close shuts the server down (its whole process tree: EOF, then SIGTERM,
// then SIGKILL, each after --shutdown-grace; every wait bounded) and closes
// the recording; the error is the recording's. What the shutdown could not
// end is named in a note.
func (s *session) close() error {
	if s.closing != nil {
		defer close(s.closing)
	}
	s.prog.done()
	if s.client != nil {
		var se *conn.ShutdownError
		if err := s.client.Shutdown(s.cfg.ShutdownGrace); errors.As(err, &se) && len(se.Left) > 0 {
			s.notes.printf("%s", inert.Line(err.Error()))
		}
		if s.rec != nil {
			ctx, cancel := context.WithTimeout(context.Background(), time.Second)
			s.rec.WaitExits(ctx, s.client.Negotiation().Spawns)
			cancel()
		}
	}
	if s.tel != nil {
		// The spans go out within a bound: an unreachable collector
		// costs a note, never the command.
		ctx, cancel := context.WithTimeout(context.Background(), telemetryFlush)
		if err := s.tel.Close(ctx); err != nil {
			s.notes.printf("%s", inert.Line(err.Error()))
		}
		cancel()
	}
	if s.rec != nil {
		return s.rec.Close()
	}
	return nil
}

// telemetryFlush bounds how long the last spans may take to send.
const telemetryFlush = 10 * time.Second

// closeOnPanic, deferred, shuts the server down when the command panics,
// then lets the panic go on: a bug in mcptui must not leave the server
// running.
func (s *session) closeOnPanic() {
	if r := recover(); r != nil {
		_ = s.close()
		panic(r)
	}
}

// tailWriter keeps the last lines of the server's stderr.
type tailWriter struct {
	mu      sync.Mutex
	max     int
	partial []byte
	tail    []string
}

func newTailWriter(n int) *tailWriter { return &tailWriter{max: n} }

func (t *tailWriter) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	rest := p
	for {
		i := bytes.IndexByte(rest, '\n')
		if i < 0 {
			t.partial = append(t.partial, rest...)
			if len(t.partial) > 16<<10 {
				t.partial = t.partial[len(t.partial)-16<<10:]
			}
			return len(p), nil
		}
		t.add(string(bytes.TrimSuffix(append(t.partial, rest[:i]...), []byte("\r"))))
		t.partial = t.partial[:0]
		rest = rest[i+1:]
	}
}

func (t *tailWriter) add(line string) {
	if len(line) > 4<<10 {
		line = inert.Clip(line, 4<<10) + inert.Ellipsis
	}
	t.tail = append(t.tail, line)
	if len(t.tail) > t.max {
		t.tail = t.tail[len(t.tail)-t.max:]
	}
}

// lines is the tail, with a last partial line.
func (t *tailWriter) lines() []string {
	t.mu.Lock()
	defer t.mu.Unlock()
	out := append([]string{}, t.tail...)
	if len(t.partial) > 0 {
		out = append(out, string(t.partial))
	}
	if len(out) > t.max {
		out = out[len(out)-t.max:]
	}
	return out
}

// noteWriter writes mcptui's own lines to stderr, one at a time, each
// escaped; the progress bar is cleared first.
type noteWriter struct {
	mu     sync.Mutex
	w      io.Writer
	before func() // clears a progress bar; set by progress
}

// printf writes one note line; args that came from the server must already
// be escaped.
func (n *noteWriter) printf(format string, a ...any) {
	if n.w == nil {
		return
	}
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.before != nil {
		n.before()
	}
	fmt.Fprintf(n.w, "mcptui: "+format+"\n", a...)
}

// notification prints a server notification (--verbose): log messages as
// "log LEVEL logger: data", others by method.
func (n *noteWriter) notification(note mcp.Notification) {
	if note.Method == mcp.NotificationMessage {
		if m, err := mcp.DecodeLogMessage(note); err == nil {
			data := string(m.Data)
			var s string
			if jsonString(m.Data, &s) {
				data = s
			}
			logger := ""
			if m.Logger != "" {
				logger = " " + inert.Line(m.Logger)
			}
			n.printf("server log %s%s: %s", inert.Line(m.Level), logger, inert.Line(inert.Clip(data, 8<<10)))
			return
		}
	}
	n.printf("server notification %s %s", inert.Line(note.Method), inert.Line(inert.Clip(string(note.Params), 2<<10)))
}

// prefixWriter turns the server's stderr into escaped note lines.
type prefixWriter struct {
	prefix  string
	out     *noteWriter
	mu      sync.Mutex
	partial []byte
}

func (p *prefixWriter) Write(b []byte) (int, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.partial = append(p.partial, b...)
	for {
		i := bytes.IndexByte(p.partial, '\n')
		if i < 0 {
			break
		}
		line := strings.TrimSuffix(string(p.partial[:i]), "\r")
		p.out.printf("%s%s", p.prefix, inert.Line(inert.Clip(line, 8<<10)))
		p.partial = p.partial[i+1:]
	}
	return len(b), nil
}

// unfitAnswer is the failure of a --answer that did not fit a question
// (and was not sent), which outranks f when f is nothing or what the
// server made of the error it got instead (a tool error, an error answer,
// failed script steps).
func (s *session) unfitAnswer(f *Failure) *Failure {
	if s.rules == nil {
		return f
	}
	u := s.rules.Unfit()
	if u == nil {
		return f
	}
	if f == nil || f.Kind == KindTool || f.Kind == KindProtocol || f.Kind == KindCheck {
		return u
	}
	return f
}

// unwaited reports whether conn discarded an answer because no call waits
// for its id (conn's reasons for a late, unknown or foreign id), rather than
// for what the line holds.
func unwaited(reason string) bool {
	for _, r := range []string{"no request is waiting for id", "an id this client never sent", "for no pending request"} {
		if strings.Contains(reason, r) {
			return true
		}
	}
	return false
}
