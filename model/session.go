package model

import (
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/mcptui/mcptui/internal/rpccall"
)

// Defaults of Config.
const (
	DefaultHistoryBytes  = 64 << 20
	DefaultStderrLines   = 5000
	DefaultStderrLineCap = 16 << 10
	DefaultRecentCalls   = 100
	DefaultClosedQs      = 50
)

// Config sets the bounds and defaults of a Session. The zero value is usable.
type Config struct {
	// HistoryBytes caps the traffic history's memory; 0 means 64 MiB.
	HistoryBytes int
	// StderrLines caps the stderr lines kept; 0 means 5000.
	StderrLines int
	// StderrLineBytes cuts longer stderr lines; 0 means 16 KiB.
	StderrLineBytes int
	// RecentCalls is how many finished calls are kept; 0 means 100.
	RecentCalls int
	// ClosedQuestions is how many resolved questions stay listed; 0 means 50.
	ClosedQuestions int
	// MaxLineBytes is conn's line limit (--max-line-bytes), named when an
	// answer is discarded over it; 0 means 16 MiB.
	MaxLineBytes int
	// Roots are the roots the client offers (--root), for roots/list.
	Roots []Root
	// Timeout, ResetOnProgress and MaxTotal are the timer of our requests
	// that no CallOptions event describes (the --timeout flags).
	Timeout         time.Duration
	ResetOnProgress bool
	MaxTotal        time.Duration
	// ProbeTimeout is the timer of the server/discover probe sent while
	// negotiating (mcp's Options.ProbeTimeout); 0 means Timeout.
	ProbeTimeout time.Duration
	// Linter makes the live lint that judges the lines Apply is given
	// unjudged (see Linter); nil means DefaultLinter.
	Linter func() Linter
}

func (c Config) withDefaults() Config {
	def := func(v *int, d int) {
		if *v <= 0 {
			*v = d
		}
	}
	def(&c.HistoryBytes, DefaultHistoryBytes)
	def(&c.StderrLines, DefaultStderrLines)
	def(&c.StderrLineBytes, DefaultStderrLineCap)
	def(&c.RecentCalls, DefaultRecentCalls)
	def(&c.ClosedQuestions, DefaultClosedQs)
	return c
}

// Phase is the connection's state.
type Phase int

// The phases of a connection.
const (
	// PhaseStarting: the process is being started.
	PhaseStarting Phase = iota
	// PhaseNegotiating: the protocol version is being agreed.
	PhaseNegotiating
	// PhaseReady: calls can be made.
	PhaseReady
	// PhaseExited: the process is gone (or never started).
	PhaseExited
)

// String names the phase.
func (p Phase) String() string {
	return [...]string{"starting", "negotiating", "ready", "exited"}[p]
}

// ConnState is the header's view of the connection.
type ConnState struct {
	Phase Phase
	// Gen counts the processes started: 1 for the first, +1 per restart.
	Gen           int
	Command       []string
	PID           int
	ServerName    string
	ServerVersion string
	Protocol      string
	// Transport is the HTTP transport once known ("HTTP", "HTTP+SSE"; see
	// Ready.Transport).
	Transport string
	// Offered are the versions the server said it speaks.
	Offered []string
	// Authorizing is the OAuth authorization running now (its step, and
	// the URL to open at that step); zero when none runs.
	Authorizing Authorizing
	// Step is the latest negotiation step; Steps all of them, oldest
	// first (the probe, its answer, initialize, a respawn).
	Step    string
	Steps   []Step
	Since   time.Time
	Started time.Time
	// ExitStatus is the exit status or start failure, empty for a clean
	// exit.
	ExitStatus string
	// Failure is why the start or the negotiation failed, when that says
	// more than ExitStatus (for example "no answer to initialize" after
	// "exit status 1").
	Failure string
	// StoppedByUs says the start failed on a request of the negotiation
	// while the server ran and mcptui then stopped it (Failed.Stopped): its
	// exit is the consequence of Failure, not the cause.
	StoppedByUs bool
	// Stopping is the stage of shutting the server down ("" while it is
	// not being stopped).
	Stopping string
	// Server is what the server said of itself and how the version was
	// chosen (the server view); zero until ready.
	Server ServerInfo
	// LogLevel is the log level the client asked for ("" none yet), and
	// LogLevelErr why the last attempt failed.
	LogLevel, LogLevelErr string
}

// Counters are the header's numbers.
type Counters struct {
	InFlight int
	Pending  int
	// Errors counts error responses, discarded lines and start failures.
	Errors int
	// Lost counts lines and events dropped by the inbox under overload.
	Lost int
}

// Session is the inspector's whole state. Apply folds events into it; the
// rest of its methods only read. It is not safe for concurrent use: the UI
// owns it.
type Session struct {
	cfg     Config
	conn    ConnState
	history *History
	stderr  *StderrLog
	calls   map[string]*Call // in flight, by key
	order   []*Call          // in flight, oldest first
	recent  []*Call          // finished, oldest first
	// settledAtEnd is the calls the last process's end settled (see
	// stoppedAfterFailure).
	settledAtEnd []*Call
	tokens       map[string]*Call // progress token key -> call
	opts         map[string]CallOptions
	qs           []*Question
	subs         []*Subscription
	errors       int
	lost         int
	// abandoned counts processes given up on during the negotiation
	// whose exit has not been seen yet.
	abandoned int
	// lint is the live lint (see lint.go); nil until the first line.
	lint *linted
	// lintAhead is set between LintAhead marks: the lines were judged.
	lintAhead bool
	// logs are the server's log messages (see logs.go).
	logs *LogBook
	// notes are the notifications for the catalog (see notes.go).
	notes []Note
	noteN uint64
	// net is the HTTP exchanges (see network.go); nil until the first.
	net *NetBook
	// auto holds the marks of answers a policy sent, until their line
	// crosses the wire (see policymark.go).
	auto map[string]string
}

// New returns an empty session in the Starting phase.
func New(cfg Config) *Session {
	cfg = cfg.withDefaults()
	h := newHistory(cfg.HistoryBytes)
	return &Session{
		cfg:     cfg,
		history: h,
		stderr:  newStderrLog(cfg.StderrLines, cfg.StderrLineBytes),
		calls:   map[string]*Call{},
		tokens:  map[string]*Call{},
		opts:    map[string]CallOptions{},
		logs:    newLogBook(h, DefaultLogEntries),
	}
}

// Config is the configuration the session was made with (defaults filled).
func (s *Session) Config() Config { return s.cfg }

// Conn is the connection's state.
func (s *Session) Conn() ConnState { return s.conn }

// StderrTail is up to n of the newest stderr lines of the current process,
// oldest first: what to show beside an exit status.
func (s *Session) StderrTail(n int) []string { return s.stderr.Tail(n, s.conn.Gen) }

// History is the traffic log.
func (s *Session) History() *History { return s.history }

// StderrLog is the server's stderr.
func (s *Session) StderrLog() *StderrLog { return s.stderr }

// InFlight lists the outstanding calls, newest first.
func (s *Session) InFlight() []*Call {
	out := slices.Clone(s.order)
	slices.Reverse(out)
	return out
}

// Recent lists finished calls, newest first.
func (s *Session) Recent() []*Call {
	out := slices.Clone(s.recent)
	slices.Reverse(out)
	return out
}

// Call finds a call, in flight or recent, by key.
func (s *Session) Call(key string) *Call {
	if c := s.calls[key]; c != nil {
		return c
	}
	for _, c := range s.recent {
		if c.Key == key {
			return c
		}
	}
	return nil
}

// Questions lists the questions, waiting ones first (oldest first), then
// the resolved ones, newest first.
func (s *Session) Questions() []*Question {
	var waiting, done []*Question
	for _, q := range s.qs {
		if q.State == Waiting {
			waiting = append(waiting, q)
		} else {
			done = append(done, q)
		}
	}
	slices.Reverse(done)
	return append(waiting, done...)
}

// Question finds a question by key.
func (s *Session) Question(key string) *Question {
	for _, q := range s.qs {
		if q.Key == key {
			return q
		}
	}
	return nil
}

// QuestionsOf lists the questions a call's input_required result asked,
// oldest first (none for a call that got no such result, or whose
// questions were pruned).
func (s *Session) QuestionsOf(c *Call) []*Question {
	var out []*Question
	for _, q := range s.qs {
		if q.CallKey != "" && q.CallKey == c.Key {
			out = append(out, q)
		}
	}
	return out
}

// Subscriptions lists the subscriptions, open ones first, newest first.
func (s *Session) Subscriptions() []*Subscription {
	out := slices.Clone(s.subs)
	slices.Reverse(out)
	slices.SortStableFunc(out, func(a, b *Subscription) int {
		switch {
		case a.Open == b.Open:
			return 0
		case a.Open:
			return -1
		}
		return 1
	})
	return out
}

// Counters are the header's numbers.
func (s *Session) Counters() Counters {
	pending := 0
	for _, q := range s.qs {
		if q.State == Waiting {
			pending++
		}
	}
	return Counters{InFlight: len(s.order), Pending: pending, Errors: s.errors, Lost: s.lost}
}

// callKey names a call: generation, direction and normalized id.
func callKey(gen int, dir Direction, id []byte) string {
	return strconv.Itoa(gen) + "/" + dir.String() + "/" + rpccall.MatchKey(id)
}

// questionKey names a question: the server request's call key, or the
// input_required entry's key.
func questionKey(gen int, requestID []byte, key string) string {
	if requestID != nil {
		return callKey(gen, In, requestID)
	}
	return strconv.Itoa(gen) + "/input/" + key
}

// MemoryBudget is the Go heap an inspector with this history cap (0: the
// default) is expected to stay within, for runtime/debug.SetMemoryLimit:
// one and a half times the cap, and MemoryOverhead. The history takes at
// most the cap (its accounting, see History.Bytes, covers the entries'
// real memory), the inbox queues at most a quarter of it (see
// inbox.LimitsFor), and the last quarter is room for the garbage a flood
// makes, so that the collector is not run back to back. GOMEMLIMIT, when
// set, overrides it.
func MemoryBudget(historyBytes int) int64 {
	if historyBytes <= 0 {
		historyBytes = DefaultHistoryBytes
	}
	return int64(historyBytes) + int64(historyBytes)/2 + MemoryOverhead
}

// GCPercent is the collector's pace (GOGC) for the inspector: a cycle
// once the heap has grown by a third since the last one, not doubled, so
// that under a flood the process holds the history and about a third more
// (at the default cap, peak RSS about 1.5 caps, not 2): the reducer makes
// little garbage per line, so the extra cycles cost little. GOGC, when
// set, overrides it.
const GCPercent = 33

// MemoryOverhead is the fixed part of MemoryBudget: the rest of the
// program (screen buffers, the tables beside the history, the runtime's
// own structures, about 8 MiB under a flood), the inbox's 1 MiB floors and
// the batch the UI is folding (up to 4096 events), and garbage room that
// does not shrink with a small cap.
const MemoryOverhead = 32 << 20

// TransportLabel names how the server is reached when it is an HTTP
// endpoint: the transport once known, else "HTTP"; "" for a process.
func (c ConnState) TransportLabel() string {
	switch {
	case c.URL() == "":
		return ""
	case c.Transport != "":
		return c.Transport
	}
	return "HTTP"
}

// URL is the server's address when it is an HTTP endpoint (the command is
// one http:// or https:// URL), "" for a process.
func (c ConnState) URL() string {
	if len(c.Command) != 1 {
		return ""
	}
	lower := strings.ToLower(c.Command[0])
	if strings.HasPrefix(lower, "http://") || strings.HasPrefix(lower, "https://") {
		return c.Command[0]
	}
	return ""
}
