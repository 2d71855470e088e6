// Package verify is mcptui replay --verify: it sends the client side of a
// recorded session (its requests, its notifications, its answers to the
// server's questions) to a new build of the server, in the recorded order,
// and compares every answer with the recorded one, normalised: ids,
// timestamps and _meta are left out, the lists' items sorted, and the
// user's ignore paths skipped. Each exchange is same, changed (with the
// differences) or missing.
package verify

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/mcptui/mcptui/conn"
	"github.com/mcptui/mcptui/httpconn"
	"github.com/mcptui/mcptui/internal/protocol"
	"github.com/mcptui/mcptui/internal/record"
	"github.com/mcptui/mcptui/internal/rpccall"
	"github.com/mcptui/mcptui/mcp"
)

// Options say which server to verify and how.
type Options struct {
	// Command starts the server (with Args), or is its URL (Streamable
	// HTTP, or HTTP+SSE as HTTP.Mode says).
	Command string
	Args    []string
	// HTTP configures a URL's connection (headers, mode).
	HTTP httpconn.Options
	// Env are NAME=VALUE entries added to the inherited environment.
	Env []string
	// Unset are variables removed from it.
	Unset []string
	Dir   string
	// Timeout bounds the wait for each answer; 0 means 30 s.
	Timeout time.Duration
	// Ignore are paths left out of the comparison: .result._meta,
	// .result.content[].text ([] is any index); a path covers what is
	// under it.
	Ignore []string
	// MaxLineBytes is the longest line read from the server; 0 is 16 MiB.
	MaxLineBytes int
	// Stderr receives the server's stderr (nil: dropped).
	Stderr io.Writer
}

// Status is an exchange's outcome.
type Status string

// The outcomes.
const (
	Same    Status = "same"
	Changed Status = "changed"
	Missing Status = "missing"
)

// Difference is one place where the answers differ.
type Difference struct {
	Path   string `json:"path"`
	Before string `json:"before,omitempty"`
	After  string `json:"after,omitempty"`
}

// Exchange is one recorded request and its answer, or one question the
// server asked.
type Exchange struct {
	// N is the exchange's place in the recording, from 1.
	N int `json:"n"`
	// Method is the request's; Name what it named (a tool, a URI, a
	// prompt) when it named one.
	Method string `json:"method"`
	Name   string `json:"name,omitempty"`
	// FromServer marks a question the server asked (sampling,
	// elicitation, roots) rather than a request the client sent.
	FromServer  bool         `json:"fromServer,omitempty"`
	Status      Status       `json:"status"`
	Differences []Difference `json:"differences,omitempty"`
	// Why says why an answer is missing.
	Why string `json:"why,omitempty"`
}

// Label is the exchange in words: "#3 tools/call add".
func (e Exchange) Label() string {
	s := "#" + strconv.Itoa(e.N) + " " + e.Method
	if e.Name != "" {
		s += " " + e.Name
	}
	if e.FromServer {
		s += " (asked by the server)"
	}
	return s
}

// Report is a whole verification.
type Report struct {
	Recording string         `json:"recording"`
	Command   []string       `json:"command"`
	Exchanges []Exchange     `json:"exchanges"`
	Counts    map[Status]int `json:"counts"`
	ignore    [][]string
}

// Fails reports whether the report fails the bar failOn: a missing answer
// is breaking, a changed one risky (diff's --fail-on words).
func (r *Report) Fails(failOn string) bool {
	switch failOn {
	case "none":
		return false
	case "breaking":
		return r.Counts[Missing] > 0
	}
	return r.Counts[Missing]+r.Counts[Changed] > 0
}

// line is one recorded line of the wire, parsed.
type line struct {
	sent   bool
	raw    []byte
	id     json.RawMessage
	method string
	params json.RawMessage
	answer bool // a result or an error (no method)
}

func parse(raw []byte) (line, bool) {
	var m struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
		Params json.RawMessage `json:"params"`
		Result json.RawMessage `json:"result"`
		Error  json.RawMessage `json:"error"`
	}
	if json.Unmarshal(raw, &m) != nil {
		return line{}, false
	}
	return line{raw: raw, id: m.ID, method: m.Method, params: m.Params, answer: m.Method == "" && (m.Result != nil || m.Error != nil)}, true
}

// Run verifies the server of o against rec.
func Run(ctx context.Context, rec *record.Recording, o Options) (*Report, error) {
	if o.Timeout <= 0 {
		o.Timeout = 30 * time.Second
	}
	if o.MaxLineBytes <= 0 {
		o.MaxLineBytes = protocol.MaxLineBytes
	}
	rep := &Report{Command: append([]string{o.Command}, o.Args...), Counts: map[Status]int{}}
	for _, p := range o.Ignore {
		rep.ignore = append(rep.ignore, splitPath(p))
	}
	var lines []line
	for _, e := range rec.Entries {
		if (e.Type != record.TypeSent && e.Type != record.TypeReceived) || e.Withheld {
			continue
		}
		if l, ok := parse(e.Content()); ok {
			l.sent = e.Type == record.TypeSent
			lines = append(lines, l)
		}
	}
	if !anySent(lines) {
		return nil, errors.New("the recording holds no line sent to the server")
	}
	s, err := start(ctx, o)
	if err != nil {
		return nil, err
	}
	defer s.stop()
	s.drive(ctx, rep, lines)
	for _, e := range rep.Exchanges {
		rep.Counts[e.Status]++
	}
	return rep, nil
}

func anySent(lines []line) bool {
	for _, l := range lines {
		if l.sent {
			return true
		}
	}
	return false
}

// server is the running new build, spoken to through mcptui's transports
// (a process over stdio, or a URL over Streamable HTTP or HTTP+SSE): the
// recorded requests go out as calls, the recorded answers to the server's
// questions as the answers of the connection's handler, and the Observer
// sees every answer as it came.
type server struct {
	tr mcp.Transport
	o  Options

	mu sync.Mutex
	// answers are the answers received, as they came on the wire, by the
	// recorded id of the request they answer.
	answers map[string][]byte
	// live maps the ids the connection gave the requests to their
	// recorded ids: next is the recorded id of the request being sent,
	// given to the first request the Observer sees go out, and sent is
	// signalled then. early are answers the Observer saw before their
	// request's Sent (the reading side can run ahead of the writing one).
	live  map[string]string
	next  string
	sent  chan struct{}
	early map[string][]byte
	// asked are the server's questions, per method, in order.
	asked map[string][]*question
	// changed is signalled on anything received.
	changed chan struct{}
	// calls end the calls still waiting when the verification stops.
	calls  context.Context
	cancel context.CancelFunc
}

// question is one request of the server's, waiting for the recorded answer.
type question struct {
	params json.RawMessage
	reply  chan reply
}

// reply is a recorded answer: its result, or its error.
type reply struct {
	result json.RawMessage
	err    *conn.Error
}

func start(ctx context.Context, o Options) (*server, error) {
	s := &server{o: o, answers: map[string][]byte{}, live: map[string]string{}, sent: make(chan struct{}, 1), early: map[string][]byte{},
		asked: map[string][]*question{}, changed: make(chan struct{}, 1)}
	s.calls, s.cancel = context.WithCancel(context.Background())
	var env []conn.EnvVar
	for _, u := range o.Unset {
		env = append(env, conn.EnvVar{Name: u})
	}
	for _, kv := range o.Env {
		name, value, _ := strings.Cut(kv, "=")
		env = append(env, conn.EnvVar{Name: name, Value: &value})
	}
	opts := mcp.Options{HTTP: o.HTTP, Conn: conn.Options{Env: env, Dir: o.Dir, MaxLineBytes: o.MaxLineBytes,
		Stderr: o.Stderr, Observer: s.observe, OnServerRequest: s.ask}}
	tr, err := mcp.Dial(ctx, o.Command, o.Args, opts)
	if err != nil {
		s.cancel()
		return nil, fmt.Errorf("starting %s: %w", o.Command, err)
	}
	s.tr = tr
	return s, nil
}

// observe files each answer under its request's recorded id, and tells
// send the id each request went out with.
func (s *server) observe(e conn.Event) {
	if e.Line == nil || (e.Kind != conn.Sent && e.Kind != conn.Received && e.Kind != conn.Discarded) {
		return
	}
	l, ok := parse(bytes.TrimSpace(e.Line))
	if !ok || l.id == nil {
		return
	}
	live := rpccall.MatchKey(l.id)
	s.mu.Lock()
	defer s.mu.Unlock()
	switch {
	case e.Kind == conn.Sent && l.method != "":
		if s.next == "" {
			return // not one of request's (a transport's own re-initialize)
		}
		s.live[live], s.next = s.next, ""
		if early, ok := s.early[live]; ok {
			s.answers[s.live[live]] = early
			delete(s.early, live)
		}
		s.sent <- struct{}{}
	case e.Kind != conn.Sent && l.answer:
		if rid, ok := s.live[live]; ok {
			s.answers[rid] = bytes.Clone(l.raw)
		} else {
			s.early[live] = bytes.Clone(l.raw)
		}
	default:
		return
	}
	s.signal()
}

// ask is the handler of the server's questions: it files the question and
// waits for drive to hand it the recorded answer.
func (s *server) ask(ctx context.Context, req *conn.Request) (json.RawMessage, error) {
	q := &question{params: bytes.Clone(req.Params), reply: make(chan reply, 1)}
	s.mu.Lock()
	s.asked[req.Method] = append(s.asked[req.Method], q)
	s.mu.Unlock()
	s.signal()
	select {
	case r := <-q.reply:
		if r.err != nil {
			return nil, r.err
		}
		return r.result, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

func (s *server) signal() {
	select {
	case s.changed <- struct{}{}:
	default:
	}
}

// wait waits until cond holds (it is called under s.mu) or the timeout.
func (s *server) wait(ctx context.Context, cond func() bool) bool {
	deadline := time.NewTimer(s.o.Timeout)
	defer deadline.Stop()
	for {
		s.mu.Lock()
		ok := cond()
		s.mu.Unlock()
		if ok {
			return true
		}
		select {
		case <-s.changed:
		case <-s.tr.Done():
			s.mu.Lock()
			ok := cond()
			s.mu.Unlock()
			return ok
		case <-deadline.C:
			return false
		case <-ctx.Done():
			return false
		}
	}
}

// request sends a recorded request (raw, with the recorded id) as a call,
// and returns once it went out: its answer is filed under the recorded id.
func (s *server) request(raw []byte) error {
	var m struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
		Params json.RawMessage `json:"params"`
	}
	if err := json.Unmarshal(raw, &m); err != nil {
		return err
	}
	select {
	case <-s.sent: // a stale signal of a request that failed as it went out
	default:
	}
	s.mu.Lock()
	s.next = rpccall.MatchKey(m.ID)
	s.mu.Unlock()
	failed := make(chan error, 1)
	go func() {
		// No timer of the connection's: judge waits Options.Timeout for
		// the answer itself, and a late answer is filed all the same.
		_, err := s.tr.Call(s.calls, m.Method, params(m.Params), conn.WithTimeout(0))
		var ce *conn.Error
		if err != nil && (!errors.As(err, &ce) || ce.Cause != nil || ce.Code == conn.CodeConnection) {
			failed <- err
		}
	}()
	select {
	case <-s.sent:
		return nil
	case err := <-failed:
		s.mu.Lock()
		s.next = ""
		s.mu.Unlock()
		return err
	}
}

// params is a request's params as Call takes them (absent stays absent).
func params(raw json.RawMessage) any {
	if len(raw) == 0 {
		return nil
	}
	return raw
}

// notify sends a recorded notification.
func (s *server) notify(raw []byte) {
	var m struct {
		Method string          `json:"method"`
		Params json.RawMessage `json:"params"`
	}
	if json.Unmarshal(raw, &m) == nil && m.Method != "" {
		_ = s.tr.Notify(s.calls, m.Method, params(m.Params))
	}
}

// answer hands the recorded answer raw to the server's question q.
func (q *question) answer(raw []byte) {
	var m struct {
		Result json.RawMessage `json:"result"`
		Error  *struct {
			Code    int             `json:"code"`
			Message string          `json:"message"`
			Data    json.RawMessage `json:"data"`
		} `json:"error"`
	}
	_ = json.Unmarshal(raw, &m)
	if m.Error != nil {
		q.reply <- reply{err: &conn.Error{Code: m.Error.Code, Message: m.Error.Message, Data: m.Error.Data}}
		return
	}
	q.reply <- reply{result: m.Result}
}

// stop ends the calls still waiting and the connection (stdin closed, then
// the process tree ended if it does not exit).
func (s *server) stop() {
	s.cancel()
	_ = s.tr.Shutdown(2 * time.Second)
}

// drive sends the recorded client lines in order and judges the answers.
func (s *server) drive(ctx context.Context, rep *Report, lines []line) {
	type pending struct {
		ex       *Exchange
		recorded []byte
	}
	var open []pending              // requests whose answer is awaited
	serverAsks := map[string]int{}  // method → questions seen in the recording
	serverIDs := map[string]line{}  // recorded question id → the question
	ordinal := map[string]int{}     // recorded question id → its place among its method's
	answered := map[string][]byte{} // recorded answers by recorded request id
	for _, l := range lines {
		if !l.sent && l.answer && l.id != nil {
			answered[rpccall.MatchKey(l.id)] = l.raw
		}
	}
	n := 0
	// subst maps opaque values the recorded server handed out and the
	// client sent back (2026-07-28's requestState) to the new build's.
	subst := map[string]string{}
	judge := func(p pending) {
		key := rpccall.MatchKey(mustID(p.recorded))
		got := s.wait(ctx, func() bool { return s.answers[key] != nil })
		if !got {
			p.ex.Status, p.ex.Why = Missing, s.missingWhy()
			return
		}
		s.mu.Lock()
		now := s.answers[key]
		s.mu.Unlock()
		if old, neu := requestState(p.recorded), requestState(now); old != "" && neu != "" && old != neu {
			subst[old] = neu
		}
		p.ex.Differences = rep.compare(p.ex.Method, p.recorded, now)
		p.ex.Status = Same
		if len(p.ex.Differences) > 0 {
			p.ex.Status = Changed
		}
	}
	for i, l := range lines {
		switch {
		case !l.sent && l.method != "" && l.id != nil:
			// The server asked a question in the recording: the new
			// build must ask it too, in the same order.
			k := rpccall.MatchKey(l.id)
			serverIDs[k] = l
			ordinal[k] = serverAsks[l.method]
			serverAsks[l.method]++
		case l.sent && l.method != "" && l.id != nil:
			n++
			ex := &Exchange{N: n, Method: l.method, Name: named(l.params)}
			rep.Exchanges = append(rep.Exchanges, *ex)
			ex = &rep.Exchanges[len(rep.Exchanges)-1]
			if err := s.request(substitute(l.raw, subst)); err != nil {
				ex.Status, ex.Why = Missing, s.sendFailed(ctx, err)
				continue
			}
			rec := answered[rpccall.MatchKey(l.id)]
			if rec == nil {
				// Never answered in the recording either: nothing to
				// compare.
				ex.Status = Same
				continue
			}
			p := pending{ex: ex, recorded: rec}
			if answeredBeforeNextSend(lines[i+1:], l.id) {
				judge(p)
			} else {
				open = append(open, p)
			}
		case l.sent && l.answer && l.id != nil:
			// Our recorded answer to a question of the server's: send it
			// to the new build's same question, under its id.
			q, ok := serverIDs[rpccall.MatchKey(l.id)]
			if !ok {
				continue
			}
			n++
			ex := Exchange{N: n, Method: q.method, FromServer: true}
			k := ordinal[rpccall.MatchKey(l.id)]
			if !s.wait(ctx, func() bool { return len(s.asked[q.method]) > k }) {
				ex.Status, ex.Why = Missing, "the server did not ask it ("+s.missingWhy()+")"
				rep.Exchanges = append(rep.Exchanges, ex)
				continue
			}
			s.mu.Lock()
			nq := s.asked[q.method][k]
			s.mu.Unlock()
			ex.Differences = rep.compareParams(q.params, nq.params)
			ex.Status = Same
			if len(ex.Differences) > 0 {
				ex.Status = Changed
			}
			rep.Exchanges = append(rep.Exchanges, ex)
			nq.answer(l.raw)
		case l.sent:
			// A notification (initialized, cancelled, roots changed).
			s.notify(substitute(l.raw, subst))
		}
	}
	// Exchanges' pointers into rep.Exchanges may have moved: judge by N.
	for _, p := range open {
		for i := range rep.Exchanges {
			if rep.Exchanges[i].N == p.ex.N && !rep.Exchanges[i].FromServer {
				judge(pending{ex: &rep.Exchanges[i], recorded: p.recorded})
			}
		}
	}
	// Questions the new build asked beyond the recorded ones.
	s.mu.Lock()
	var extra []Exchange
	for method, qs := range s.asked {
		for i := serverAsks[method]; i < len(qs); i++ {
			n++
			extra = append(extra, Exchange{N: n, Method: method, FromServer: true, Status: Changed,
				Differences: []Difference{{Path: "(request)", After: "asked by the new build, not in the recording"}}})
		}
	}
	s.mu.Unlock()
	sort.Slice(extra, func(i, j int) bool { return extra[i].Method < extra[j].Method })
	rep.Exchanges = append(rep.Exchanges, extra...)
}

// answeredBeforeNextSend reports whether the recording got the answer to
// id before the client sent anything else: then the new build is given
// the same chance.
func answeredBeforeNextSend(rest []line, id json.RawMessage) bool {
	k := rpccall.MatchKey(id)
	for _, l := range rest {
		if l.sent {
			return false
		}
		if l.answer && rpccall.MatchKey(l.id) == k {
			return true
		}
	}
	return false
}

// sendFailed says why a request could not be sent: the server is gone,
// or the error.
func (s *server) sendFailed(ctx context.Context, err error) string {
	if s.wait(ctx, func() bool { return s.exited() }) {
		return s.missingWhy()
	}
	return "could not send: " + err.Error()
}

// exited reports whether the connection has stopped.
func (s *server) exited() bool {
	select {
	case <-s.tr.Done():
		return true
	default:
		return false
	}
}

func (s *server) missingWhy() string {
	if s.exited() {
		err := s.tr.Err()
		var ce *conn.Error
		switch {
		case s.tr.PID() != 0 && errors.As(err, &ce) && ce.Cause != nil:
			return "the server exited (" + ce.Cause.Error() + ")"
		case err != nil:
			return "the connection ended: " + err.Error()
		}
		return "the server exited"
	}
	return "no answer within " + s.o.Timeout.String()
}

// requestState is an answer's result.requestState ("" when none).
func requestState(raw []byte) string {
	var m struct {
		Result struct {
			RequestState string `json:"requestState"`
		} `json:"result"`
	}
	_ = json.Unmarshal(raw, &m)
	return m.Result.RequestState
}

// substitute replaces, in a line to send, each opaque value of the
// recorded server by the new build's (as JSON strings).
func substitute(raw []byte, subst map[string]string) []byte {
	for old, neu := range subst {
		qo, _ := json.Marshal(old)
		qn, _ := json.Marshal(neu)
		raw = bytes.ReplaceAll(raw, qo, qn)
	}
	return raw
}

// named is what a request's params name: a tool, prompt, URI.
func named(params json.RawMessage) string {
	var p struct {
		Name string `json:"name"`
		URI  string `json:"uri"`
	}
	_ = json.Unmarshal(params, &p)
	if p.Name != "" {
		return p.Name
	}
	return p.URI
}

func mustID(raw []byte) json.RawMessage {
	var m struct {
		ID json.RawMessage `json:"id"`
	}
	_ = json.Unmarshal(raw, &m)
	return m.ID
}
