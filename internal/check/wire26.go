package check

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"time"

	"github.com/mcptui/mcptui/conn"
	"github.com/mcptui/mcptui/mcp"
)

// The rules that begin at 2026-07-28 and need the raw wire: a line that
// is not JSON, an envelope that is no message, a batch, a request whose
// id the probe chose. They run on a separate process (the protocol is
// stateless, so nothing is lost), written through conn's raw-line path;
// the answers come back as lines to ids conn never sent, seen through the
// connection's Observer.

// era26 runs the probes of the rules added for 2026-07-28, and the raw
// wire probes, which hold on every era (batches from 2025-06-18).
func (r *run) era26() {
	raw := []string{"basic.string-id", "errors.parse-error", "errors.invalid-request", "transport.batch-refused"}
	switch {
	case r.cur().Remote():
		for _, id := range raw {
			r.skip(id, "a raw-line probe of stdio servers")
		}
	case r.wants(raw...):
		r.rawWire()
	}
	if !mcp.Stateless(r.era) {
		if r.wants("http.origin") {
			r.legacyOrigin()
		}
		return
	}
	if r.wants("http.") {
		r.httpProbes()
	}
	r.metaFields()
	if r.wants("lifecycle.removed-methods") {
		r.removedMethods()
	}
	if r.wants("tools.x-mcp-header", "tools.deterministic-order") {
		r.paramHeaders()
	}
	if r.wants("tasks.") {
		r.tasks()
	}
}

// wireProbe is a second connection whose response lines are collected.
type wireProbe struct {
	r     *run
	c     *conn.Conn
	lines chan []byte // response lines (no method), in order
	n     int         // sentinels sent
}

// maxProbeLines bounds the answers a probe keeps.
const maxProbeLines = 64

// dialProbe starts a process whose answers the probe reads.
func (r *run) dialProbe() (*wireProbe, error) {
	if why := r.silence(); why != "" {
		return nil, fmt.Errorf("not started: %s", why)
	}
	p := &wireProbe{r: r, lines: make(chan []byte, maxProbeLines)}
	lint := r.o.chain(r.observer())
	co := r.o.Conn
	co.Stderr = r.o.Stderr
	if co.Stderr == nil {
		co.Stderr = io.Discard
	}
	co.Observer = func(ev conn.Event) {
		lint(ev)
		// The probes' answers name ids conn never sent: conn discards
		// them (the answers to its own initialize it keeps).
		if ev.Kind == conn.Discarded && isAnswer(ev.Line) {
			select {
			case p.lines <- bytes.Clone(ev.Line):
			default: // a server flooding answers: the probe has enough
			}
		}
	}
	co.Observer, co.Stderr = r.o.traced(co.Observer, co.Stderr)
	c, err := conn.Dial(r.ctx, r.o.Command, r.o.Args, co)
	if err != nil {
		return nil, err
	}
	p.c = c
	if !mcp.Stateless(r.era) {
		// An initialize-era server is initialized first, on this process.
		if _, e := rawCall(r.ctx, c, mcp.MethodInitialize, r.initParams(r.era), r.o); e != nil {
			c.Shutdown(time.Second)
			return nil, fmt.Errorf("initialize got %s", describe(e))
		}
		if err := c.Notify(r.ctx, mcp.NotificationInitialized, map[string]any{}); err != nil {
			c.Shutdown(time.Second)
			return nil, err
		}
	}
	return p, nil
}

// isAnswer reports whether a server line is a response (or a batch of
// them): a JSON array, or an object without a method.
func isAnswer(line []byte) bool {
	t := bytes.TrimSpace(line)
	if len(t) == 0 {
		return false
	}
	if t[0] == '[' {
		return true
	}
	m := object(t)
	return m != nil && m["method"] == nil
}

// probeMethod is the harmless request of the era: server/discover on
// 2026-07-28, ping before.
func (p *wireProbe) probeMethod() string {
	if mcp.Stateless(p.r.era) {
		return mcp.MethodDiscover
	}
	return mcp.MethodPing
}

// request is a request line of the era with id (a JSON value).
func (p *wireProbe) request(id, method string, params map[string]any) []byte {
	if params == nil {
		params = map[string]any{}
	}
	if mcp.Stateless(p.r.era) {
		params["_meta"] = meta(p.r.era)
	}
	b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": json.RawMessage(id), "method": method, "params": params})
	return b
}

// send writes lines, then the era's probe request with a fresh string id, and
// returns the answers up to the one for that sentinel. A stdio server
// reads in order: once it answered the sentinel it has read every line
// before it, so what it said about them has come (or never will).
// answered is false when the sentinel got no answer within the timeout
// (the server stopped, or stopped reading).
func (p *wireProbe) send(lines ...[]byte) (answers [][]byte, answered bool, err error) {
	return p.sendAwaiting(0, lines...)
}

// sendAwaiting is send for lines that are well-formed requests: a server
// may answer requests in any order, so past the sentinel's answer it waits
// (within the same timeout) until want answers to the lines have come.
func (p *wireProbe) sendAwaiting(want int, lines ...[]byte) (answers [][]byte, answered bool, err error) {
	p.n++
	sentinel := fmt.Sprintf(`"mcptui-check-sentinel-%d"`, p.n)
	for _, l := range append(lines, p.request(sentinel, p.probeMethod(), nil)) {
		if err := p.c.WriteRawLine(p.r.ctx, l); err != nil {
			return nil, false, err
		}
	}
	timer := time.NewTimer(p.r.o.Timeout)
	defer timer.Stop()
	for {
		select {
		case l := <-p.lines:
			if string(object(l)["id"]) == sentinel {
				answered = true
			} else {
				answers = append(answers, l)
			}
			if answered && len(answers) >= want {
				return answers, true, nil
			}
		case <-p.c.Done():
			return answers, answered, nil
		case <-timer.C:
			return answers, answered, nil
		case <-p.r.ctx.Done():
			return answers, false, p.r.ctx.Err()
		}
	}
}

// rawWire runs the raw-line probes on one separate process.
func (r *run) rawWire() {
	p, err := r.dialProbe()
	if err != nil {
		for _, id := range []string{"basic.string-id", "errors.parse-error", "errors.invalid-request", "transport.batch-refused"} {
			r.skip(id, "a second connection did not start: "+err.Error())
		}
		return
	}
	defer p.c.Shutdown(time.Second)
	r.stringID(p)
	r.parseError(p)
	r.invalidRequest(p)
	r.batchRefused(p)
}

// stringID sends the era's probe request with the id "0042", which a
// server that turns ids into numbers answers as 42.
func (r *run) stringID(p *wireProbe) {
	const id = `"0042"`
	method := p.probeMethod()
	answers, answered, err := p.sendAwaiting(1, p.request(id, method, nil))
	if err != nil {
		r.skip("basic.string-id", "the probe could not write: "+err.Error())
		return
	}
	if !answered {
		r.skip("basic.string-id", "the server stopped answering")
		return
	}
	switch {
	case len(answers) == 0:
		r.fail("basic.string-id", "%s with id %s got no answer (the next request's came, and %s passed)", method, id, r.o.Timeout)
	case string(object(answers[0])["id"]) != id:
		r.fail("basic.string-id", "%s with id %s was answered with id %s", method, id, orAbsent(object(answers[0])["id"]))
	default:
		r.pass("basic.string-id")
	}
}

// nullIDError finds an answer that is an error without a usable id (null
// or absent) and returns its code.
func nullIDError(answers [][]byte) (code int, line []byte, ok bool) {
	for _, a := range answers {
		m := object(a)
		if m == nil || m["error"] == nil {
			continue
		}
		if id := m["id"]; id != nil && string(id) != "null" {
			continue
		}
		var e struct{ Code int }
		_ = json.Unmarshal(m["error"], &e)
		return e.Code, a, true
	}
	return 0, nil, false
}

// refused judges the answers to one bad line: an error with code want and
// a null id, then the server still answering.
func (r *run) refused(rule, what string, want int, answers [][]byte, answered bool, err error) {
	switch {
	case err != nil:
		r.skip(rule, "the probe could not write: "+err.Error())
	case !answered:
		r.fail(rule, "after %s the server stopped answering (the next request got no answer)", what)
	default:
		code, line, ok := nullIDError(answers)
		switch {
		case !ok && len(answers) > 0:
			r.fail(rule, "%s was answered %s (want error %d, id null)", what, clip(string(answers[0]), 160), want)
		case !ok:
			r.fail(rule, "%s got no answer (want error %d, id null)", what, want)
		default:
			r.judge(rule, code == want, "%s was answered %s (want error %d)", what, clip(string(line), 160), want)
		}
	}
}

func (r *run) parseError(p *wireProbe) {
	if !r.wants("errors.parse-error") {
		return
	}
	const line = `mcptui check: this line is not JSON {`
	answers, answered, err := p.send([]byte(line))
	r.refused("errors.parse-error", "a line that is not JSON", -32700, answers, answered, err)
}

func (r *run) invalidRequest(p *wireProbe) {
	if !r.wants("errors.invalid-request") {
		return
	}
	const line = `{"jsonrpc":"2.0","params":{}}`
	answers, answered, err := p.send([]byte(line))
	r.refused("errors.invalid-request", "the object "+line+" (no method, no id)", -32600, answers, answered, err)
}

// batchRefused sends two of the era's probe requests as one JSON array.
func (r *run) batchRefused(p *wireProbe) {
	if !r.wants("transport.batch-refused") {
		return
	}
	const rule = "transport.batch-refused"
	a, b := `"mcptui-check-batch-1"`, `"mcptui-check-batch-2"`
	m := p.probeMethod()
	batch := append(append(append([]byte{'['}, p.request(a, m, nil)...), ','), p.request(b, m, nil)...)
	batch = append(batch, ']')
	answers, answered, err := p.send(batch)
	if err != nil || !answered {
		r.refused(rule, "a batch of two requests", -32600, answers, answered, err)
		return
	}
	for _, ans := range answers {
		if t := bytes.TrimSpace(ans); t[0] == '[' {
			r.fail(rule, "a batch of two requests was answered with a batch: %s", clip(string(ans), 160))
			return
		}
		if id := string(object(ans)["id"]); id == a || id == b {
			r.fail(rule, "an element of a batch was processed: %s", clip(string(ans), 160))
			return
		}
	}
	// One error refuses the batch, whatever its code: mcp-go answers
	// -32700, the array being no message it can parse.
	if code, _, ok := nullIDError(answers); ok {
		r.refused(rule, "a batch of two requests", code, answers, answered, err)
		return
	}
	r.refused(rule, "a batch of two requests", -32600, answers, answered, err)
}
