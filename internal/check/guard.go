package check

import (
	"bytes"
	"encoding/json"
	"fmt"
	"runtime/debug"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/mcptui/mcptui/conn"
	"github.com/mcptui/mcptui/internal/rpccall"
	"github.com/mcptui/mcptui/mcp"
)

// The guards around every probe: a rule's probe that panics fails that
// rule and the check goes on; a probe that kills the server is that
// probe's finding (with the server's last stderr lines), and the server is
// started again for the rules after it; a request the server left
// unanswered is not asked again, and when the server answers nothing any
// more nothing more is asked of it.

// codeNotAsked marks a request the check did not send (never on the
// wire): the server left the same request unanswered before, or answers
// nothing any more, or could not be started again. Like a timeout, it is
// no verdict on the server.
const codeNotAsked = 2

// notAsked reports whether e is a request the check did not send.
func notAsked(e *mcp.Error) bool { return e != nil && e.Code == codeNotAsked }

// judgeAnswer is judge, for a verdict on the answer to a request that
// may not have been sent (then the rule is skipped, saying why).
func (r *run) judgeAnswer(id string, e *mcp.Error, ok bool, format string, a ...any) {
	if notAsked(e) {
		r.skip(id, describe(e))
		return
	}
	r.judge(id, ok, format, a...)
}

// maxRestarts bounds how often one era's server is started again after a
// probe killed it.
const maxRestarts = 3

// stderrTailLines is how many of the server's last stderr lines a death
// finding quotes.
const stderrTailLines = 5

// tailWriter keeps the last lines written to it.
type tailWriter struct {
	mu      sync.Mutex
	lines   []string
	partial []byte
}

func (t *tailWriter) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.partial = append(t.partial, p...)
	for {
		i := bytes.IndexByte(t.partial, '\n')
		if i < 0 {
			break
		}
		if line := strings.TrimRight(string(t.partial[:i]), "\r"); strings.TrimSpace(line) != "" {
			t.lines = append(t.lines, line)
		}
		t.partial = t.partial[i+1:]
		if n := len(t.lines); n > stderrTailLines {
			t.lines = append(t.lines[:0], t.lines[n-stderrTailLines:]...)
		}
	}
	if len(t.partial) > 4096 {
		t.partial = t.partial[len(t.partial)-4096:]
	}
	return len(p), nil
}

// last is the tail, the unfinished line included, joined for a report.
func (t *tailWriter) last() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	lines := t.lines
	if p := strings.TrimSpace(string(t.partial)); p != "" {
		lines = append(slicesClone(lines), p)
	}
	if len(lines) == 0 {
		return "nothing on stderr"
	}
	return "stderr: " + strings.Join(lines, " | ")
}

func slicesClone(s []string) []string { return append([]string(nil), s...) }

// guard runs one probe, which judges the rules ids: a panic inside it
// fails each of them that it had not judged yet (a bug in mcptui check,
// said as such), and the check goes on. The probe's requests are charged
// to ids[0] when they kill the server.
func (r *run) guard(ids []string, probe func()) {
	r.mu.Lock()
	before := r.probing
	if len(ids) > 0 {
		r.probing = ids[0]
	}
	r.mu.Unlock()
	defer func() {
		r.mu.Lock()
		r.probing = before
		r.mu.Unlock()
		v := recover()
		if v == nil {
			return
		}
		where := firstFrame(debug.Stack())
		r.mu.Lock()
		defer r.mu.Unlock()
		for _, id := range ids {
			res := r.results[id]
			if res == nil || res.Status != "" {
				continue
			}
			res.Status = Failed
			res.Checks++
			res.Seen = append(res.Seen, clip(fmt.Sprintf("mcptui check itself crashed while probing this rule (a bug in mcptui, not necessarily in the server; please report it): %v at %s", v, where), 300))
		}
	}()
	probe()
}

// guardGroup is guard over every rule of the era whose id starts with one
// of the prefixes.
func (r *run) guardGroup(probe func(), prefixes ...string) {
	var ids []string
	for _, rule := range r.o.rulesFor(r.era) {
		for _, p := range prefixes {
			if strings.HasPrefix(rule.ID, p) {
				ids = append(ids, rule.ID)
				break
			}
		}
	}
	r.guard(ids, probe)
}

// probeAs names the rule the requests that follow are sent for, until the
// returned function puts the previous one back.
func (r *run) probeAs(id string) (restore func()) {
	r.mu.Lock()
	before := r.probing
	r.probing = id
	r.mu.Unlock()
	return func() {
		r.mu.Lock()
		r.probing = before
		r.mu.Unlock()
	}
}

// firstFrame is the first frame of a panic's stack inside this module
// past the runtime's own, for the report.
func firstFrame(stack []byte) string {
	lines := strings.Split(string(stack), "\n")
	for i := 0; i+1 < len(lines); i++ {
		l := strings.TrimSpace(lines[i])
		if strings.Contains(l, "github.com/mcptui/mcptui/") && !strings.Contains(l, "internal/check.(*run).guard") && !strings.HasPrefix(l, "panic(") {
			return strings.TrimSpace(lines[i+1])
		}
	}
	return "an unknown place"
}

// requestKey is what "the same request" is for the unanswered memory: the
// method, and for a call the tool, prompt or resource it names.
func requestKey(method string, params any) string {
	var p map[string]any
	switch v := params.(type) {
	case map[string]any:
		p = v
	case json.RawMessage:
		_ = json.Unmarshal(v, &p)
	}
	switch method {
	case mcp.MethodCallTool, mcp.MethodGetPrompt:
		if n, ok := p["name"].(string); ok {
			return method + " " + n
		}
	case mcp.MethodReadResource:
		if u, ok := p["uri"].(string); ok {
			return method + " " + u
		}
	}
	return method
}

// client is the era's connection now (it changes when a probe killed
// the server and it was started again).
func (r *run) cur() *mcp.Client {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.client
}

// before is asked before each request on the main connection: the client
// to send it on, or why it is not sent.
func (r *run) before(method string, params any) (*mcp.Client, *mcp.Error) {
	key := requestKey(method, params)
	r.mu.Lock()
	silent, why := r.silent, r.unanswered[key]
	r.mu.Unlock()
	switch {
	case silent != "":
		return nil, &mcp.Error{Code: codeNotAsked, Message: "not sent: " + silent}
	case why != "":
		return nil, &mcp.Error{Code: codeNotAsked, Message: "not asked again: " + why}
	}
	return r.alive()
}

// alive is the main client, started again when a probe killed its server.
func (r *run) alive() (*mcp.Client, *mcp.Error) {
	r.restartMu.Lock()
	defer r.restartMu.Unlock()
	c := r.cur()
	if c == nil {
		return nil, &mcp.Error{Code: codeNotAsked, Message: "not sent: the server is not running"}
	}
	if c.Remote() || !stopped(c) {
		return c, nil
	}
	r.mu.Lock()
	n := r.restarts
	r.restarts++
	r.mu.Unlock()
	if n >= maxRestarts {
		r.setSilent(fmt.Sprintf("the server exited %d times; it was not started again", n+1))
		return nil, &mcp.Error{Code: codeNotAsked, Message: "not sent: the server exited and was not started again"}
	}
	c.Shutdown(time.Second) // reaps it; how it ended is already reported
	mo := r.mo
	mo.Conn.Observer = r.o.chain(r.observer())
	tmo := r.o.traceOptions(mo) // a connection of its own in the trace
	nc, err := mcp.Connect(r.ctx, r.o.Command, r.o.Args, tmo)
	if err != nil {
		r.setSilent("the server exited and did not start again: " + err.Error())
		return nil, &mcp.Error{Code: codeNotAsked, Message: "not sent: the server exited and did not start again"}
	}
	r.mu.Lock()
	r.client = nc
	r.mu.Unlock()
	r.setMeta(nc, tmo.RequestMeta)
	r.note("the server exited during the check (see the finding or note that names the request); it was started again for the rules after it")
	return nc, nil
}

func stopped(c *mcp.Client) bool {
	select {
	case <-c.Done():
		return true
	default:
		return false
	}
}

// silence is why nothing more is sent to the server ("" while it answers).
func (r *run) silence() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.silent
}

// setSilent stops every later request (the first reason stays).
func (r *run) setSilent(why string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.silent == "" {
		r.silent = why
	}
}

// after learns from a request's failure on client c: a timeout marks the
// request unanswered (and when a ping then times out too, the server
// silent); a lost process is the probing rule's finding.
func (r *run) after(c *mcp.Client, method string, params any, e *mcp.Error) {
	if e == nil || c == nil {
		return
	}
	switch {
	case e.Code == conn.CodeTimeout:
		if r.ctx.Err() != nil {
			return
		}
		key := requestKey(method, params)
		why := fmt.Sprintf("the server left %s unanswered for %s", key, r.o.Timeout)
		r.mu.Lock()
		if r.unanswered[key] == "" {
			r.unanswered[key] = why
		}
		pingKnown := r.unanswered[mcp.MethodPing] != ""
		r.mu.Unlock()
		if method == mcp.MethodPing || pingKnown {
			if method == mcp.MethodPing {
				r.setSilent(why + ": the server answers nothing more")
			}
			return
		}
		// Is it this request, or everything? One ping tells.
		ping := mcp.MethodPing
		var p any = map[string]any{}
		if mcp.Stateless(r.era) {
			ping, p = mcp.MethodDiscover, r.params(nil)
		}
		if _, pe := rawCall(r.ctx, c.Transport(), ping, p, r.o); pe != nil && pe.Code == conn.CodeTimeout && r.ctx.Err() == nil {
			r.setSilent(why + ", then " + ping + " too: the server answers nothing more")
		}
	case transportFailed(e) && !rpccall.AnswerDiscarded(e) && !c.Remote():
		// A Cause says the connection itself failed: a server's own
		// -32000 answer has none, and ends nothing; an answer discarded
		// (too long, too deep) ended only its call.
		select {
		case <-c.Done():
		case <-time.After(r.o.Timeout): // the process may linger on
			return
		case <-r.ctx.Done():
			return
		}
		r.died(c, method, params, e)
	}
}

// track records a request in flight on c until the returned function
// is called (after the request's failure was learnt from).
func (r *run) track(c *mcp.Client, method string, params any) (done func()) {
	b, _ := json.Marshal(params)
	desc := method + " " + clip(string(b), 120)
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.inflight[c] == nil {
		r.inflight[c] = map[*string]bool{}
	}
	r.inflight[c][&desc] = true
	return func() {
		r.mu.Lock()
		defer r.mu.Unlock()
		delete(r.inflight[c], &desc)
	}
}

// died reports that the server of c exited while method was in flight,
// once per process. It is the probing rule's finding only when that
// request was the only one in flight and no tool call: with several in
// flight the one that ended it cannot be told, and a tool may end its
// server on purpose (--call-tools calls tools that may do anything), so
// those are notes, never a verdict.
func (r *run) died(c *mcp.Client, method string, params any, e *mcp.Error) {
	r.mu.Lock()
	if r.deaths[c] {
		r.mu.Unlock()
		return
	}
	r.deaths[c] = true
	rule := r.probing
	if rule == "" || r.results[rule] == nil {
		rule = "lifecycle.keeps-serving"
	}
	var pending []string
	for d := range r.inflight[c] {
		pending = append(pending, *d)
	}
	r.mu.Unlock()
	sort.Strings(pending)
	b, _ := json.Marshal(params)
	tail := r.tail.last()
	switch {
	case len(pending) > 1:
		r.note("the server exited while %d requests were in flight (which one ended it cannot be told): %s; %s", len(pending), strings.Join(pending, "; "), tail)
	case method == mcp.MethodCallTool:
		r.note("the server exited on %s %s (%s): a tool may end its server, so this is no finding; %s", method, clip(string(b), 120), describe(e), tail)
	case r.results[rule] == nil:
		r.note("the server exited on %s %s (%s); %s", method, clip(string(b), 120), describe(e), tail)
	default:
		r.fail(rule, "the server exited on %s %s (%s); %s", method, clip(string(b), 120), describe(e), tail)
	}
}

// note adds a line to the era's notes, printed above its rules.
func (r *run) note(format string, a ...any) {
	line := clip(fmt.Sprintf(format, a...), 400)
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, n := range r.notes {
		if n == line {
			return // said once
		}
	}
	r.notes = append(r.notes, line)
}
