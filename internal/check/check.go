// Package check is mcptui check: it runs the rules of internal/check/rules
// against a stdio server, era by era, and reports each as passed, failed or
// skipped, with what was seen on the wire and how to fix it. Rules that can
// be judged from traffic (internal/check/lint) run on every connection the
// check opens; the others are active probes, one file per rule group.
//
// A check is safe by default: the only tools it calls are those annotated
// readOnlyHint: true, with arguments derived from their input schema;
// Options.CallTools also calls the others, with valid and invalid inputs.
// Questions the server asks are answered by the headless --answer rules or
// declined.
package check

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mcptui/mcptui/conn"
	"github.com/mcptui/mcptui/httpconn"
	"github.com/mcptui/mcptui/internal/check/lint"
	"github.com/mcptui/mcptui/internal/check/rules"
	"github.com/mcptui/mcptui/internal/hostprofile"
	"github.com/mcptui/mcptui/internal/schemaform"
	"github.com/mcptui/mcptui/mcp"
)

// EraAll asks for every era the server offers.
const EraAll = "all"

// Options configure a check.
type Options struct {
	// Command and Args start the server.
	Command string
	Args    []string
	// Conn carries the environment, directory and line limit (its
	// Observer, Stderr and handlers are set by the check).
	Conn conn.Options
	// Era is the revision to check: "" for the one negotiated with the
	// versions below, EraAll for every revision the server offers, or one
	// revision.
	Era string
	// Versions are the revisions allowed when negotiating (nil: mcp's).
	Versions []string
	// CallTools calls every tool, not only the read-only ones, with valid,
	// boundary and invalid arguments.
	CallTools bool
	// Timeout bounds each request; 0 means 10 s.
	Timeout time.Duration
	// ExitBound is how long the server may take to exit once its stdin
	// closed (transport.exit-on-eof); 0 means 3 s.
	ExitBound time.Duration
	// Answerers answer the server's questions (nil ones decline).
	Sampling, ElicitForm, ElicitURL, Roots mcp.Answerer
	// HTTP are the options of an HTTP endpoint's connection (headers,
	// the authorizing client), for a Command that is a URL.
	HTTP httpconn.Options
	// Stderr receives the server's stderr (nil: dropped).
	Stderr io.Writer
	// Observer, when set, sees every line of every connection the check
	// opens (--record); it must not block.
	Observer func(conn.Event)
	// Trace, when set, is asked for the hooks of each connection the
	// check opens (--otlp-endpoint's tracing), the main connection's
	// restarts after a probe killed its server too.
	Trace func() Tracing
	// MaxItems bounds how many resources, prompts and tools are exercised
	// one by one; 0 means 50.
	MaxItems int
	// Rules limits the check to these rules, each a rule id
	// ("tools.names") or a group ("tools"); nil checks every rule. The
	// probes only the other rules need (extra processes, tool calls) are
	// left out, so one rule is checked in a fraction of the time.
	Rules []string
	// Hosts and Models are the host and model-API profiles to judge the
	// tools against (check --host, --model; hosts.go); ServerName is the
	// server's name in the host's config, for prefixed tool names ("":
	// its serverInfo.name); ContextTokens is the context size the tools'
	// cost is a share of (0: toolcost's default).
	Hosts         []hostprofile.Host
	Models        []hostprofile.Model
	ServerName    string
	ContextTokens int
	// ContextBudget, when set, is the most tokens the tool list may cost
	// (check --budget): more is a host.context-budget finding.
	ContextBudget int
	// hosts watches every connection's lines for the host rules.
	hosts *hostWatch
}

// selects reports whether the options ask for rule.
func (o Options) selects(rule rules.Rule) bool {
	if len(o.Rules) == 0 {
		return true
	}
	return slices.ContainsFunc(o.Rules, func(s string) bool { return s == rule.ID || s == rule.Group })
}

// rulesFor are the rules of era the options ask for.
func (o Options) rulesFor(era string) []rules.Rule {
	var out []rules.Rule
	for _, r := range rules.ForEra(era) {
		if o.selects(r) {
			out = append(out, r)
		}
	}
	return out
}

// Status is a rule's outcome.
type Status string

// The statuses.
const (
	Passed  Status = "passed"
	Failed  Status = "failed"
	Skipped Status = "skipped"
)

// Result is one rule's outcome on one era.
type Result struct {
	Rule   rules.Rule `json:"-"`
	ID     string     `json:"id"`
	Level  string     `json:"level"`
	Era    string     `json:"era"`
	Status Status     `json:"status"`
	// Seen is what was on the wire, for failures (server text: untrusted).
	Seen []string `json:"seen,omitempty"`
	// Why says why a rule was skipped.
	Why string `json:"why,omitempty"`
	// Checks counts how many times the rule was judged.
	Checks int `json:"checks"`
}

// EraReport is the outcome of every rule of one era.
type EraReport struct {
	Era      string        `json:"era"`
	Server   string        `json:"server,omitempty"`
	Duration time.Duration `json:"-"`
	Millis   int64         `json:"durationMs"`
	// Error is why the era could not be checked at all.
	Error string `json:"error,omitempty"`
	// Notes are what the check did that a reader should know of (a tool
	// call that may have changed the server's state, a restart).
	Notes   []string `json:"notes,omitempty"`
	Results []Result `json:"results"`
}

// Report is a whole check.
type Report struct {
	Command  []string      `json:"command"`
	Started  time.Time     `json:"started"`
	Duration time.Duration `json:"-"`
	Millis   int64         `json:"durationMs"`
	Eras     []EraReport   `json:"eras"`
	// Hosts is the host and model-API rules' outcome (check --host,
	// --model), nil when none was asked for.
	Hosts *HostReport `json:"hosts,omitempty"`
	// Error is why nothing could be checked (the server did not start).
	Error string `json:"error,omitempty"`
	// Recording is the recording judged instead of a server (check
	// --recording): only the host rules, nothing called.
	Recording string `json:"recording,omitempty"`
}

// Failures counts the failed rules at level or stronger.
func (r *Report) Failures(level rules.Level) int {
	n := 0
	for _, e := range r.Eras {
		for _, res := range e.Results {
			if res.Status == Failed && res.Rule.Level <= level {
				n++
			}
		}
	}
	return n
}

// Run checks the server and returns the report. It fails only when ctx is
// done before anything was checked; a server that does not start is a
// report with Error set.
func Run(ctx context.Context, o Options) *Report {
	if o.Timeout <= 0 {
		o.Timeout = 10 * time.Second
	}
	if o.MaxItems <= 0 {
		o.MaxItems = 50
	}
	rep := &Report{Command: append([]string{o.Command}, o.Args...), Started: time.Now()}
	defer func() {
		rep.Duration = time.Since(rep.Started)
		rep.Millis = rep.Duration.Milliseconds()
	}()
	if len(o.Hosts)+len(o.Models) > 0 || o.ContextBudget > 0 {
		o.hosts = newHostWatch()
	}
	eras, err := erasToCheck(ctx, o)
	if err != nil {
		rep.Error = err.Error()
		return rep
	}
	for _, era := range eras {
		rep.Eras = append(rep.Eras, checkEra(ctx, o, era))
	}
	if o.hosts != nil {
		rep.Hosts = o.hosts.judge(o)
	}
	return rep
}

// erasToCheck resolves Options.Era: a negotiation for "", a pinned
// connection per known revision for EraAll (those it accepts), else the
// one revision.
func erasToCheck(ctx context.Context, o Options) ([]string, error) {
	switch o.Era {
	case "":
		c, err := mcp.Connect(ctx, o.Command, o.Args, o.mcpOptions(o.Versions, nil))
		if err != nil {
			return nil, fmt.Errorf("could not connect: %w", err)
		}
		v := c.Version()
		c.Shutdown(time.Second)
		return []string{v}, nil
	case EraAll:
		var out []string
		var last error
		for _, era := range slices.Backward(rules.Eras) {
			if !mcp.KnownVersion(era) {
				continue
			}
			c, err := mcp.Connect(ctx, o.Command, o.Args, o.mcpOptions([]string{era}, nil))
			if err != nil {
				last = err
				continue
			}
			if mcp.Stateless(era) {
				// A pinned 2026-07-28 connection sends nothing: ask.
				if _, err := c.Discover(ctx); err != nil {
					last = err
					c.Shutdown(time.Second)
					continue
				}
			}
			c.Shutdown(time.Second)
			out = append(out, era)
		}
		if len(out) == 0 {
			return nil, fmt.Errorf("the server accepts none of %v: %v", knownEras(), last)
		}
		return out, nil
	}
	if !mcp.KnownVersion(o.Era) {
		return nil, fmt.Errorf("mcptui does not speak protocol %s (it speaks %v)", o.Era, knownEras())
	}
	return []string{o.Era}, nil
}

func knownEras() []string {
	var out []string
	for _, e := range rules.Eras {
		if mcp.KnownVersion(e) {
			out = append(out, e)
		}
	}
	return out
}

// mcpOptions are the options of one connection, traced (Options.Trace);
// observe sees its lines.
func (o Options) mcpOptions(versions []string, observe func(conn.Event)) mcp.Options {
	return o.traceOptions(o.baseOptions(versions, observe))
}

// baseOptions are mcpOptions before tracing: each connection made from
// them is traced on its own (traceOptions), a restart's too.
func (o Options) baseOptions(versions []string, observe func(conn.Event)) mcp.Options {
	co := o.Conn
	co.Observer = o.chain(observe)
	co.Stderr = o.Stderr
	if co.Stderr == nil {
		co.Stderr = io.Discard
	}
	return mcp.Options{Conn: co, HTTP: o.HTTP, Versions: versions, RequestTimeout: o.Timeout,
		Sampling: o.Sampling, ElicitForm: o.ElicitForm, ElicitURL: o.ElicitURL, Roots: o.Roots}
}

// chain is observe, then the options' Observer.
func (o Options) chain(observe func(conn.Event)) func(conn.Event) {
	if o.hosts != nil {
		observe = o.hosts.wrap(observe)
	}
	switch {
	case o.Observer == nil:
		return observe
	case observe == nil:
		return o.Observer
	}
	return func(ev conn.Event) {
		observe(ev)
		o.Observer(ev)
	}
}

// run is one era's check in progress.
type run struct {
	ctx    context.Context
	o      Options
	era    string
	client *mcp.Client

	mu      sync.Mutex
	results map[string]*Result
	// asked are tool calls that got an input_required round (2026-07-28).
	asked []json.RawMessage
	// declined counts the questions the check declined (no --answer
	// rule): a request that failed meanwhile is given no verdict.
	declined int
	// toolsChanged counts the notifications/tools/list_changed received.
	toolsChanged atomic.Int64

	// mo are the main connection's options (to start it again), before
	// tracing (Options.Trace): each start is traced as its own connection.
	mo mcp.Options
	// metas are the RequestMeta of each main connection traced (r.mu):
	// the raw requests on it carry its traceparent too.
	metas map[*mcp.Client]func(method string) json.RawMessage
	// tail is the server's last stderr lines.
	tail *tailWriter
	// probing is the rule whose probe is running: the finding when a
	// request kills the server.
	probing string
	// restartMu serialises starting the server again.
	restartMu sync.Mutex
	restarts  int
	// deaths are the processes whose exit was reported.
	deaths map[*mcp.Client]bool
	// inflight are the requests sent on each client and not yet
	// finished, as "method params": when the server dies with more than
	// one in flight, which one ended it cannot be told.
	inflight map[*mcp.Client]map[*string]bool
	// unanswered are the requests the server left unanswered (by
	// requestKey), with why; silent says why nothing more is asked.
	unanswered map[string]string
	silent     string
	// seen is the evidence on the wire for the live rules.
	seen  evidence
	notes []string
}

// checkEra runs every rule of era.
func checkEra(ctx context.Context, o Options, era string) EraReport {
	start := time.Now()
	r := &run{ctx: ctx, o: o, era: era, results: map[string]*Result{}, tail: &tailWriter{},
		deaths: map[*mcp.Client]bool{}, inflight: map[*mcp.Client]map[*string]bool{}, unanswered: map[string]string{}}
	for _, rule := range o.rulesFor(era) {
		r.results[rule.ID] = &Result{Rule: rule, ID: rule.ID, Level: rule.Level.String(), Era: era}
	}
	rep := EraReport{Era: era}
	mo := o.baseOptions([]string{era}, r.observer())
	mo.Sampling, mo.ElicitForm, mo.ElicitURL, mo.Roots = r.wrap(o.Sampling), r.wrap(o.ElicitForm), r.wrap(o.ElicitURL), r.wrap(o.Roots)
	mo.Conn.Stderr = io.MultiWriter(r.tail, mo.Conn.Stderr)
	r.mo = mo // untraced: a restart (alive) is traced as a connection of its own
	tmo := o.traceOptions(mo)
	c, err := mcp.Connect(ctx, o.Command, o.Args, tmo)
	if err != nil {
		rep.Error = fmt.Sprintf("could not connect on %s: %v", era, err)
		r.lifecycleFailedConnect(err)
	} else {
		r.client = c
		r.setMeta(c, tmo.RequestMeta)
		if mcp.Stateless(era) {
			if d, err := c.Discover(ctx); err == nil && d.ServerInfo != nil {
				rep.Server = d.ServerInfo.Name + " " + d.ServerInfo.Version
			}
		} else {
			s := c.Session().Server
			rep.Server = s.Name + " " + s.Version
		}
		r.all()
		c = r.cur()
		switch {
		case c.Remote():
			r.skip("transport.exit-on-eof", "an HTTP endpoint has no stdin")
			c.Shutdown(time.Second)
		case stopped(c):
			r.skip("transport.exit-on-eof", "the server had exited before the check closed its stdin")
			c.Shutdown(time.Second)
		default:
			r.guard([]string{"transport.exit-on-eof"}, r.exitOnEOF)
		}
	}
	r.mu.Lock()
	silent := r.silent
	if silent == "" && len(r.unanswered) > 0 {
		keys := slices.Sorted(maps.Keys(r.unanswered))
		silent = fmt.Sprintf("the server left %s unanswered for %s; not asked again", strings.Join(keys, ", "), o.Timeout)
	}
	rep.Notes = r.notes
	r.mu.Unlock()
	for _, rule := range o.rulesFor(era) {
		res := r.results[rule.ID]
		if res.Status == "" {
			missing := r.seen.missing(rule.ID)
			switch {
			case rule.Live && r.client != nil && missing == "":
				res.Status = Passed
				res.Checks++
			case rule.Live && r.client != nil:
				res.Status, res.Why = Skipped, "no evidence: "+missing
			default:
				res.Status = Skipped
				if res.Why == "" {
					res.Why = "not exercised"
				}
			}
			if silent != "" && res.Status == Skipped {
				res.Why += " (" + silent + ")"
			}
		}
		rep.Results = append(rep.Results, *res)
	}
	rep.Duration = time.Since(start)
	rep.Millis = rep.Duration.Milliseconds()
	return rep
}

// all runs the active rule groups in order.
func (r *run) all() {
	if !mcp.Stateless(r.era) {
		// A server that answers initialize and then nothing is found out
		// at once, before probes that would each wait for it.
		_, _ = r.raw(mcp.MethodPing, map[string]any{})
	}
	r.guardGroup(r.lifecycle, "lifecycle.")
	r.guardGroup(r.capabilities, "capabilities.")
	r.guardGroup(r.errors, "errors.")
	r.guardGroup(r.utilities, "logging.", "completion.", "progress.", "cancellation.")
	r.guardGroup(r.tools, "tools.", "content.", "pagination.")
	r.guardGroup(r.resources, "resources.", "pagination.")
	r.guardGroup(r.prompts, "prompts.", "pagination.")
	r.guardGroup(r.subscriptions, "subscriptions.", "resources.subscribe")
	r.guardGroup(r.inputRequired, "mrtr.", "sampling.", "elicitation.")
	r.guardGroup(r.integrity, "tools.", "capabilities.", "errors.no-internals")
	r.guardGroup(r.era26, "basic.", "errors.", "transport.", "http.", "lifecycle.", "tools.", "tasks.")
	r.guardGroup(r.extensions, "skills.", "apps.")
	r.robustness() // last: a server that fails it may serve no more
}

// wants reports whether a selected rule of this era has one of the id
// prefixes: probes that cost a process or a tool call run only then.
func (r *run) wants(prefixes ...string) bool {
	if len(r.o.Rules) == 0 {
		return true
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	for id := range r.results {
		for _, p := range prefixes {
			if strings.HasPrefix(id, p) {
				return true
			}
		}
	}
	return false
}

// pass records a successful judgement of rule.
func (r *run) pass(id string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	res := r.results[id]
	if res == nil {
		return
	}
	res.Checks++
	if res.Status != Failed {
		res.Status = Passed
	}
}

// maxSeen bounds the observations kept per rule.
const maxSeen = 5

// fail records a broken rule with what was seen.
func (r *run) fail(id, format string, a ...any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	res := r.results[id]
	if res == nil {
		return
	}
	res.Checks++
	res.Status = Failed
	text := clip(fmt.Sprintf(format, a...), 300)
	if slices.Contains(res.Seen, text) {
		return // said once
	}
	if len(res.Seen) < maxSeen {
		res.Seen = append(res.Seen, text)
	}
}

// skip records why a rule could not be judged (unless it was).
func (r *run) skip(id, why string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if res := r.results[id]; res != nil && res.Status == "" {
		res.Status, res.Why = Skipped, why
	}
}

// judge passes or fails rule on ok.
func (r *run) judge(id string, ok bool, format string, a ...any) {
	if ok {
		r.pass(id)
	} else {
		r.fail(id, format, a...)
	}
}

// observer feeds one connection's lines to its own linter.
func (r *run) observer() func(conn.Event) {
	l := lint.NewWithSchemas(schemaform.Validator)
	inits := &initIDs{}
	var mu sync.Mutex
	var seq uint64
	return func(ev conn.Event) {
		if ev.Kind == conn.Exited {
			return
		}
		if ev.Kind == conn.Received && bytes.Contains(ev.Line, []byte(`"notifications/tools/list_changed"`)) {
			r.toolsChanged.Add(1)
		}
		mu.Lock()
		inits.observe(ev, &r.seen)
		seq++
		fs := l.Observe(lint.Line{Seq: seq, Out: ev.Kind == conn.Sent, Raw: ev.Line,
			Discarded: ev.Kind == conn.Discarded, Reason: errText(ev.Err)})
		mu.Unlock()
		for _, f := range fs {
			r.fail(f.Rule, "%s", f.Message)
		}
	}
}

// wrap records the calls that asked a question inside an input_required
// result, then lets a (declines when nil).
func (r *run) wrap(a mcp.Answerer) mcp.Answerer {
	if a == nil {
		return nil // the capability is not declared
	}
	return mcp.AnswerFunc(func(ctx context.Context, q *mcp.Question) (json.RawMessage, error) {
		if q.Origin.InputRequired() && q.Origin.CallMethod == mcp.MethodCallTool && q.Origin.Round == 1 {
			r.mu.Lock()
			if len(r.asked) < 8 {
				r.asked = append(r.asked, q.Origin.CallParams)
			}
			r.mu.Unlock()
		}
		var res json.RawMessage
		err := &mcp.Error{Code: mcp.CodeInternal, Message: "mcptui check declines: no --answer rule for " + q.Method}
		if a != nil {
			res, err2 := a.Answer(ctx, q)
			if err2 == nil {
				return res, nil
			}
			r.mu.Lock()
			r.declined++
			r.mu.Unlock()
			return res, err2
		}
		r.mu.Lock()
		r.declined++
		r.mu.Unlock()
		return res, err
	})
}

// declines is the number of questions declined so far.
func (r *run) declines() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.declined
}

func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// clip shortens s for a report line.
func clip(s string, n int) string {
	if len(s) > n {
		return s[:n] + "…"
	}
	return s
}

// Exit statuses of mcptui check beside the headless ones.
const (
	// ExitRuleFailed means a rule at the chosen level failed.
	ExitRuleFailed = 10
	// exitNoServer means nothing could be checked (as headless's 3).
	exitNoServer = 3
)

// ExitCode is the exit status for rep: 0 when every rule at level or
// stronger passed (or was skipped), 10 when one failed, 3 when the server
// could not be checked at all.
func ExitCode(rep *Report, level rules.Level) int {
	if rep.Error != "" || len(rep.Eras) == 0 && rep.Recording == "" {
		return exitNoServer
	}
	if rep.Failures(level) > 0 || rep.Hosts != nil && len(rep.Hosts.Findings) > 0 {
		return ExitRuleFailed
	}
	return 0
}

// Tracing is what Options.Trace gives for one connection; any may be nil.
type Tracing struct {
	// Observe sees the connection's events before the check's Observer.
	Observe func(conn.Event)
	// Stderr wraps the connection's stderr writer.
	Stderr func(io.Writer) io.Writer
	// RequestMeta gives the _meta members of each request the client
	// sends (the W3C traceparent of its span), as mcp.Options.RequestMeta.
	RequestMeta func(method string) json.RawMessage
	// OnExchange sees the connection's HTTP exchanges before the
	// options' own OnExchange.
	OnExchange func(httpconn.Exchange)
}

// traced chains Trace's hooks for one more connection into its Observer
// and stderr writer (unchanged when Trace is unset): a probe's raw
// connection, whose hand-written requests carry no _meta of tracing.
func (o Options) traced(observe func(conn.Event), stderr io.Writer) (func(conn.Event), io.Writer) {
	if o.Trace == nil {
		return observe, stderr
	}
	return o.Trace().chain(observe, stderr)
}

func (tr Tracing) chain(observe func(conn.Event), stderr io.Writer) (func(conn.Event), io.Writer) {
	if tr.Stderr != nil {
		stderr = tr.Stderr(stderr)
	}
	if tr.Observe == nil {
		return observe, stderr
	}
	return func(ev conn.Event) {
		tr.Observe(ev)
		if observe != nil {
			observe(ev)
		}
	}, stderr
}

// traceOptions traces one more connection made with mo (unchanged when
// Trace is unset): its events, stderr and HTTP exchanges reach the
// tracer, and each request carries its span's traceparent in _meta.
func (o Options) traceOptions(mo mcp.Options) mcp.Options {
	if o.Trace == nil {
		return mo
	}
	tr := o.Trace()
	mo.Conn.Observer, mo.Conn.Stderr = tr.chain(mo.Conn.Observer, mo.Conn.Stderr)
	if tr.RequestMeta != nil {
		mo.RequestMeta = tr.RequestMeta
	}
	if tr.OnExchange != nil {
		next := mo.HTTP.OnExchange
		mo.HTTP.OnExchange = func(e httpconn.Exchange) {
			tr.OnExchange(e)
			if next != nil {
				next(e)
			}
		}
	}
	return mo
}
