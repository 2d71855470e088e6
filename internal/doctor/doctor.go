// Package doctor answers "why won't my server start?": it resolves the
// command, starts it, watches everything it does until the protocol version
// is agreed (non-JSON lines on stdout, the negotiation, timings, stderr),
// shuts it down, and explains each known failure in plain words with the fix:
// not found, not executable, exits at once, logs to stdout, wrong protocol,
// slow start, no answer, ignores end of input.
package doctor

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/mcptui/mcptui/conn"
	"github.com/mcptui/mcptui/httpconn"
	"github.com/mcptui/mcptui/internal/hostprofile"
	"github.com/mcptui/mcptui/internal/record"
	"github.com/mcptui/mcptui/internal/rpccall"
	"github.com/mcptui/mcptui/mcp"
	"github.com/mcptui/mcptui/model"
)

// Defaults of Options.
const (
	DefaultTimeout   = 30 * time.Second
	DefaultSlowStart = 5 * time.Second
	DefaultGrace     = 2 * time.Second
)

// Options say which server to examine and how long to wait.
type Options struct {
	Command string
	Args    []string
	Env     []conn.EnvVar
	Dir     string
	// Versions are the protocol versions allowed (nil: all).
	Versions []string
	// Timeout bounds each request of the handshake; 0 means 30 s.
	Timeout time.Duration
	// ProbeTimeout bounds the server/discover probe; 0 means mcp's default
	// for the command (10 s, 60 s for a launcher).
	ProbeTimeout time.Duration
	// SlowStart is how long a handshake may take before it is called
	// slow; 0 means 5 s.
	SlowStart time.Duration
	// Grace is how long the server gets to exit after its stdin closes
	// (and again after SIGTERM); 0 means 2 s.
	Grace time.Duration
	// MaxLineBytes is conn's line limit (0: its default).
	MaxLineBytes int
	// Header is sent on every request to an HTTP server.
	Header http.Header
	// HTTPClient sends an HTTP server's requests (the OAuth flow's client,
	// see cli.Config.HTTPClient); nil means httpconn's own.
	HTTPClient *http.Client
	// Transport is the HTTP transport to use (Auto: Streamable HTTP with
	// the fallback to HTTP+SSE); Insecure skips TLS verification.
	Transport httpconn.Mode
	Insecure  bool
	// Recorder, if set, records the examination.
	Recorder *record.Recorder
	// Declare, if set, sets the answerers (and so the client capabilities)
	// on the options: the same as every other mode's for the same flags,
	// so that the server shows doctor what it shows them.
	Declare func(*mcp.Options)
	// As, when set, starts the server the way that host does (doctor
	// --as; hostlaunch.go): its PATH, only the variables it passes, no
	// shell.
	As *hostprofile.Host
	// AsOS is the platform (a GOOS) whose launch of As is rehearsed: ""
	// for this one (doctor --as HOST:PLATFORM).
	AsOS string
}

func (o Options) withDefaults() Options {
	if o.Timeout <= 0 {
		o.Timeout = DefaultTimeout
	}
	if o.SlowStart <= 0 {
		o.SlowStart = DefaultSlowStart
	}
	if o.Grace <= 0 {
		o.Grace = DefaultGrace
	}
	return o
}

// Severity grades a Diagnosis.
type Severity string

// The severities.
const (
	// OK: the server works.
	OK Severity = "ok"
	// Warning: the server works here, but something will bite (other
	// clients, slow machines).
	Warning Severity = "warning"
	// Error: the server cannot be used.
	Error Severity = "error"
)

// Kinds of Diagnosis.
const (
	KindHealthy       = "healthy"
	KindNotFound      = "not-found"
	KindNotExecutable = "not-executable"
	KindExitsAtOnce   = "exits-at-once"
	KindLogsToStdout  = "logs-to-stdout"
	KindWrongProtocol = "wrong-protocol"
	KindSlowStart     = "slow-start"
	KindNoAnswer      = "no-answer"
	KindIgnoresEOF    = "ignores-eof"
	// KindChildHoldsStdout: the server exited at EOF, but a process it
	// started kept its stdout open (a client waits for that end).
	KindChildHoldsStdout = "child-holds-stdout"
	KindBrokenList       = "broken-list"
)

// Diagnosis is one finding, in plain words, with the fix.
type Diagnosis struct {
	Kind     string   `json:"kind"`
	Severity Severity `json:"severity"`
	// Summary says what is wrong (or right); Fix what to do about it.
	Summary string `json:"summary"`
	Fix     string `json:"fix,omitempty"`
}

// Report is everything the doctor saw. Strings that came from the server
// (stdout lines, stderr, its name) are raw: escape them before printing.
type Report struct {
	Command []string `json:"command"`
	// Resolved is the executable the command resolved to ("" if none).
	Resolved string `json:"resolved,omitempty"`
	// Launchers says whether npx and uvx are on PATH (path or "").
	Launchers map[string]string `json:"launchers"`
	// Started is when the examination began; Ms fields count from it.
	Started time.Time `json:"started"`
	PID     int       `json:"pid,omitempty"`
	// FirstOutput is when the server first wrote to stdout; FirstMessage
	// when its first JSON-RPC message came; Ready when the handshake
	// ended. Zero: never.
	FirstOutput  Millis `json:"firstOutputMs,omitempty"`
	FirstMessage Millis `json:"firstMessageMs,omitempty"`
	Ready        Millis `json:"readyMs,omitempty"`
	// StdoutJunk are the first non-JSON lines the server wrote on stdout
	// before its first message; JunkLines counts all of them.
	StdoutJunk []string `json:"stdoutJunk,omitempty"`
	JunkLines  int      `json:"junkLines"`
	// Negotiation is how the version was chosen (nil when it failed;
	// Wire then has the lines of the attempt).
	Negotiation *Negotiation `json:"negotiation,omitempty"`
	Wire        []WireLine   `json:"wire,omitempty"`
	// ConnectError is why the handshake failed.
	ConnectError string `json:"connectError,omitempty"`
	// Server, Protocol and Capabilities describe the server once ready.
	Server   string `json:"server,omitempty"`
	Protocol string `json:"protocol,omitempty"`
	// Transport is an HTTP server's transport once ready: "http"
	// (Streamable HTTP) or "sse" (2024-11-05 HTTP+SSE).
	Transport    string   `json:"transport,omitempty"`
	Capabilities []string `json:"capabilities,omitempty"`
	// Lists counts the tools, resources and prompts it listed.
	Lists map[string]int `json:"lists,omitempty"`
	// ListErrors says, per list the server offers but gave no usable
	// answer to, why: the error, and what happened to its answer when it
	// was discarded (over the line limit, nested too deep).
	ListErrors map[string]string `json:"listErrors,omitempty"`
	// Stderr is the tail of its stderr.
	Stderr []string `json:"stderr"`
	// Exit is how the process ended; ExitedEarly that it ended before the
	// handshake did; Shutdown what stopping it took.
	Exit        string `json:"exit,omitempty"`
	ExitedEarly bool   `json:"exitedEarly,omitempty"`
	Shutdown    string `json:"shutdown,omitempty"`
	// ServerExit is how long after its stdin closed the server process
	// itself exited, when it did within the grace while a process it
	// started held its stdout (and the shutdown needed signals for that
	// one).
	ServerExit Millis `json:"serverExitMs,omitempty"`
	// Host is how doctor --as started the server (nil: from this
	// terminal's environment).
	Host *HostLaunch `json:"host,omitempty"`
	// Diagnoses are the findings, errors first.
	Diagnoses []Diagnosis `json:"diagnoses"`
}

// Millis is a duration shown in milliseconds.
type Millis time.Duration

// MarshalJSON writes milliseconds.
func (m Millis) MarshalJSON() ([]byte, error) {
	return json.Marshal(float64(time.Duration(m).Microseconds()) / 1000)
}

// String rounds for people.
func (m Millis) String() string { return roundDuration(time.Duration(m)).String() }

func roundDuration(d time.Duration) time.Duration {
	switch {
	case d >= 10*time.Second:
		return d.Round(100 * time.Millisecond)
	case d >= time.Second:
		return d.Round(10 * time.Millisecond)
	case d >= time.Millisecond:
		return d.Round(100 * time.Microsecond)
	}
	return d.Round(time.Microsecond)
}

// Negotiation is the handshake as the doctor shows it.
type Negotiation struct {
	Version string `json:"version"`
	Reason  string `json:"reason"`
	Took    Millis `json:"tookMs"`
	Steps   []Step `json:"steps"`
}

// Step is one negotiation step.
type Step struct {
	Kind     string `json:"kind"`
	Method   string `json:"method,omitempty"`
	PID      int    `json:"pid,omitempty"`
	Took     Millis `json:"tookMs"`
	Error    string `json:"error,omitempty"`
	Decision string `json:"decision"`
}

// WireLine is a line of a failed handshake.
type WireLine struct {
	At   Millis `json:"atMs"`
	Dir  string `json:"dir"`
	Line string `json:"line"`
	Note string `json:"note,omitempty"`
}

// ExitCode is the exit status for the report: 0 when nothing is an error,
// otherwise the headless code of the worst finding (3 start, 4 protocol, 6
// timeout).
func (r *Report) ExitCode() int {
	code := 0
	for _, d := range r.Diagnoses {
		if d.Severity != Error {
			continue
		}
		switch d.Kind {
		case KindWrongProtocol:
			code = max(code, 4)
		case KindNoAnswer:
			code = max(code, 6)
		default:
			code = max(code, 3)
		}
	}
	return code
}

// maxJunk and maxWire bound what the report keeps.
const (
	maxJunk      = 5
	maxWire      = 20
	stderrTail   = 15
	maxLineShown = 2000
)

// watcher collects what the connection reports.
type watcher struct {
	start time.Time
	mu    sync.Mutex
	eof   time.Time // when a shutdown closed the server's stdin
	first time.Time // first stdout line
	msg   time.Time // first message
	junk  []string
	nJunk int
	wire  []WireLine
	exit  *conn.Event
	ready bool
	// maxLine is conn's line limit, named when an answer is discarded.
	maxLine int
	// answers explains, by id, the answers discarded after the handshake;
	// discarded is signalled when one is added.
	answers   map[string]string
	discarded chan struct{}
}

// shutdownStage notes when the shutdown closed stdin.
func (w *watcher) shutdownStage(s conn.ShutdownStage) {
	if s != conn.StageWaiting {
		return
	}
	w.mu.Lock()
	w.eof = time.Now()
	w.mu.Unlock()
}

// eofAt is when the shutdown closed stdin (zero: not yet).
func (w *watcher) eofAt() time.Time {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.eof
}

func (w *watcher) observe(ev conn.Event) {
	w.mu.Lock()
	defer w.mu.Unlock()
	at := Millis(ev.Time.Sub(w.start))
	switch ev.Kind {
	case conn.Received, conn.Discarded:
		if w.first.IsZero() {
			w.first = ev.Time
		}
	}
	switch ev.Kind {
	case conn.Received:
		if w.msg.IsZero() {
			w.msg = ev.Time
		}
	case conn.Discarded:
		reason := ""
		if ev.Err != nil {
			reason = ev.Err.Error()
		}
		if w.msg.IsZero() && !json.Valid(ev.Line) {
			w.nJunk++
			if len(w.junk) < maxJunk {
				w.junk = append(w.junk, clip(string(ev.Line)))
			}
		}
		if !w.ready && len(w.wire) < maxWire {
			w.wire = append(w.wire, WireLine{At: at, Dir: "in", Line: clip(string(ev.Line)), Note: "discarded: " + reason})
		}
		if id, text := model.ExplainDiscardedAnswer(ev.Line, ev.Head, ev.Size, w.maxLine, reason); w.ready && id != nil && len(w.answers) < maxWire {
			if w.answers == nil {
				w.answers = map[string]string{}
			}
			w.answers[rpccall.MatchKey(id)] = text
			select {
			case w.discarded <- struct{}{}:
			default:
			}
		}
	case conn.Exited:
		e := ev
		w.exit = &e
	}
	if (ev.Kind == conn.Sent || ev.Kind == conn.Received) && !w.ready && len(w.wire) < maxWire {
		dir := "out"
		if ev.Kind == conn.Received {
			dir = "in"
		}
		w.wire = append(w.wire, WireLine{At: at, Dir: dir, Line: clip(string(ev.Line))})
	}
}

func clip(s string) string {
	if len(s) > maxLineShown {
		return s[:maxLineShown] + "…"
	}
	return s
}

// Run examines the server opts describes and returns the report. It never
// fails: what went wrong is in the report's diagnoses.
func Run(ctx context.Context, opts Options) *Report {
	opts = opts.withDefaults()
	if opts.As != nil {
		return runAs(ctx, opts)
	}
	// The command line is shown and kept with its secrets redacted.
	r := &Report{Command: record.RedactArgs(append([]string{opts.Command}, opts.Args...), false), Started: time.Now(), Launchers: launchers(), Stderr: []string{}}
	res := resolution{}
	if !mcp.IsURL(opts.Command) {
		res = resolve(opts.Command, opts.Dir)
	}
	r.Resolved = res.path
	if res.diagnosis != nil {
		r.Diagnoses = append(r.Diagnoses, *res.diagnosis)
		if res.fatal {
			return r
		}
	}

	w := &watcher{start: r.Started, maxLine: opts.MaxLineBytes, discarded: make(chan struct{}, 1)}
	tail := newTail(stderrTail)
	var stderr io.Writer = tail
	observe := w.observe
	if opts.Recorder != nil {
		stderr = opts.Recorder.Stderr(tail)
		observe = opts.Recorder.Observer(observe)
	}
	mo := mcp.Options{
		Conn: conn.Options{Env: opts.Env, Dir: opts.Dir, Stderr: stderr, Observer: observe, MaxLineBytes: opts.MaxLineBytes,
			OnShutdownStage: w.shutdownStage, FailLostAnswers: true},
		HTTP:           httpconn.Options{Header: opts.Header, Client: opts.HTTPClient, Mode: opts.Transport, Insecure: opts.Insecure},
		Versions:       opts.Versions,
		ProbeTimeout:   opts.ProbeTimeout,
		RequestTimeout: opts.Timeout,
		ShutdownGrace:  opts.Grace,
	}
	if opts.Declare != nil {
		opts.Declare(&mo)
	}
	cctx, cancel := context.WithCancel(ctx)
	defer cancel()
	client, err := mcp.Connect(cctx, opts.Command, opts.Args, mo)
	w.mu.Lock()
	w.ready = true
	w.mu.Unlock()
	readyAt := time.Since(r.Started)
	if err != nil {
		r.ConnectError = err.Error()
		if opts.Recorder != nil {
			opts.Recorder.Failed(err, mcp.NegotiationFailed(err))
		}
	} else {
		r.Ready = Millis(readyAt)
		describe(r, client)
		if opts.Recorder != nil {
			opts.Recorder.Connected(client)
		}
		r.Lists, r.ListErrors = lists(ctx, client, opts.Timeout, w)
		r.Shutdown, r.ServerExit = shutdown(client, opts.Grace, w.eofAt)
		if opts.Recorder != nil {
			wctx, wcancel := context.WithTimeout(ctx, time.Second)
			opts.Recorder.WaitExits(wctx, client.Negotiation().Spawns)
			wcancel()
		}
	}

	w.mu.Lock()
	if !w.first.IsZero() {
		r.FirstOutput = Millis(w.first.Sub(r.Started))
	}
	if !w.msg.IsZero() {
		r.FirstMessage = Millis(w.msg.Sub(r.Started))
	}
	r.StdoutJunk, r.JunkLines = w.junk, w.nJunk
	if err != nil {
		r.Wire = w.wire
	}
	if w.exit != nil {
		r.Exit = "exited cleanly (status 0)"
		if w.exit.Err != nil {
			r.Exit = w.exit.Err.Error()
		}
	}
	if e := rpcError(err); e != nil && e.Code == mcp.CodeConnection && strings.Contains(e.Message, "exited") {
		// It ended on its own: mcptui had not given up on it yet.
		r.ExitedEarly = true
	}
	w.mu.Unlock()
	r.Stderr = tail.lines()
	diagnose(r, opts, err)
	sortDiagnoses(r.Diagnoses)
	return r
}

// describe fills in the negotiation and the server's identity.
func describe(r *Report, c *mcp.Client) {
	n := c.Negotiation()
	rn := &Negotiation{Version: n.Version, Reason: n.Reason, Took: Millis(n.Duration)}
	for _, s := range n.Steps {
		st := Step{Kind: s.Kind.String(), Method: s.Method, PID: s.PID, Took: Millis(s.Duration), Decision: s.Decision}
		if s.Err != nil {
			st.Error = s.Err.Error()
		}
		rn.Steps = append(rn.Steps, st)
	}
	r.Negotiation = rn
	r.PID = c.PID()
	s := c.Session()
	r.Protocol = s.Version
	if c.Remote() {
		r.Transport = c.HTTPMode().String()
	}
	r.Server = strings.TrimSpace(s.Server.Name + " " + s.Server.Version)
	var caps map[string]json.RawMessage
	if json.Unmarshal(s.Capabilities.Raw, &caps) == nil {
		for k := range caps {
			r.Capabilities = append(r.Capabilities, k)
		}
		slices.Sort(r.Capabilities)
	}
}

// lists counts what the server offers, per capability, and says why a
// list it offers got no usable answer. A list whose answer was discarded
// (over the line limit, nested too deep) is not waited for until its
// timeout: the doctor knows already.
func lists(ctx context.Context, c *mcp.Client, timeout time.Duration, w *watcher) (map[string]int, map[string]string) {
	out, failed := map[string]int{}, map[string]string{}
	caps := c.Session().Capabilities
	opt := mcp.WithTimeout(timeout)
	list := func(kind string, call func(context.Context) (int, error)) {
		lctx, cancel := context.WithCancel(ctx)
		defer cancel()
		stop := make(chan struct{})
		defer close(stop)
		go func() {
			select {
			case <-w.discarded:
				cancel()
			case <-stop:
			}
		}()
		n, err := call(lctx)
		w.mu.Lock()
		defer w.mu.Unlock()
		if err == nil {
			out[kind] = n
			return
		}
		failed[kind] = err.Error()
		for _, text := range w.answers {
			// The answer that was discarded is why the request failed:
			// one request is in flight at a time here.
			failed[kind] = text
		}
		clear(w.answers)
		select {
		case <-w.discarded: // a signal the canceller did not take
		default:
		}
	}
	if caps.Tools != nil {
		list("tools", func(ctx context.Context) (int, error) { l, err := c.ListTools(ctx, opt); return len(l.Items), err })
	}
	if caps.Resources != nil {
		list("resources", func(ctx context.Context) (int, error) { l, err := c.ListResources(ctx, opt); return len(l.Items), err })
	}
	if caps.Prompts != nil {
		list("prompts", func(ctx context.Context) (int, error) { l, err := c.ListPrompts(ctx, opt); return len(l.Items), err })
	}
	if len(failed) == 0 {
		failed = nil
	}
	return out, failed
}

// shutdown closes stdin and reports what stopping the server took. It has
// no clock of its own: Shutdown bounds every wait (grace after EOF, grace
// after SIGTERM, then a bounded wait after SIGKILL) and says how the server
// ended, what of its tree was left running included. (A timer racing it,
// 2*grace+1s, said "a child process holds its stdout open" when a busy
// machine had only made the SIGKILL steps slower than that.) The server
// process itself is watched apart from its pipes: when it exited within
// the grace after EOF and the signals were for a process it started that
// held its stdout, that is what is said (and how long after EOF it
// exited), not that it ignored EOF. eofAt is when stdin was closed.
func shutdown(c *mcp.Client, grace time.Duration, eofAt func() time.Time) (string, Millis) {
	exitedAt := func(time.Time) (time.Time, bool) { return time.Time{}, false }
	if !c.Remote() && c.PID() > 0 {
		exitedAt = watchExit(c.PID())
	}
	err := c.Shutdown(grace)
	if err == nil && c.Remote() {
		return "the session ended when mcptui closed it", 0
	}
	if err == nil {
		exitedAt(time.Now())
		return "exited when its stdin closed", 0
	}
	at, ok := exitedAt(time.Now())
	eof := eofAt()
	var se *conn.ShutdownError
	if !ok || eof.IsZero() || at.Sub(eof) > grace || errors.As(err, &se) && se.Signal == 0 {
		return err.Error(), 0
	}
	after := max(at.Sub(eof), 0)
	how, status := "was still running after SIGKILL", ""
	if se != nil {
		how, status = "was killed", " (exit status 0)"
		if se.Signal == syscall.SIGTERM {
			how = "was stopped by SIGTERM"
		}
		if se.Exit != nil {
			status = " (" + se.Exit.Error() + ")"
		}
	}
	return fmt.Sprintf("the server exited %s after its stdin closed%s, but a process it started kept its stdout open and %s", Millis(after), status, how), Millis(after)
}

func sortDiagnoses(ds []Diagnosis) {
	rank := map[Severity]int{Error: 0, Warning: 1, OK: 2}
	slices.SortStableFunc(ds, func(a, b Diagnosis) int { return rank[a.Severity] - rank[b.Severity] })
}

// rpcError finds the JSON-RPC error in err.
func rpcError(err error) *mcp.Error {
	var e *mcp.Error
	if errors.As(err, &e) {
		return e
	}
	return nil
}
