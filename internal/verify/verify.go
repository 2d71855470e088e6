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
	"os"
	"os/exec"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/mcptui/mcptui/internal/record"

	"github.com/mcptui/mcptui/internal/protocol"

	"github.com/mcptui/mcptui/internal/rpccall"
)

// Options say which server to verify and how.
type Options struct {
	Command string
	Args    []string
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

// server is the running new build.
type server struct {
	cmd   *exec.Cmd
	stdin io.WriteCloser
	o     Options

	mu sync.Mutex
	// answers are the answers received, by id.
	answers map[string][]byte
	// asked are the server's requests received, per method, in order.
	asked map[string][]line
	// changed is signalled on anything received.
	changed chan struct{}
	done    chan struct{}
	readErr error
}

func start(ctx context.Context, o Options) (*server, error) {
	cmd := exec.Command(o.Command, o.Args...)
	cmd.Dir = o.Dir
	env := os.Environ()
	for _, u := range o.Unset {
		env = without(env, u)
	}
	for _, kv := range o.Env {
		name, _, _ := strings.Cut(kv, "=")
		env = append(without(env, name), kv)
	}
	cmd.Env = env
	ownTree(cmd)
	cmd.Stderr = o.Stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("starting %s: %w", o.Command, err)
	}
	s := &server{cmd: cmd, stdin: stdin, o: o, answers: map[string][]byte{}, asked: map[string][]line{},
		changed: make(chan struct{}, 1), done: make(chan struct{})}
	go s.read(stdout)
	return s, nil
}

func without(env []string, name string) []string {
	out := env[:0:0]
	for _, kv := range env {
		if !strings.HasPrefix(kv, name+"=") {
			out = append(out, kv)
		}
	}
	return out
}

func (s *server) read(r io.Reader) {
	defer close(s.done)
	br := record.NewLineReader(r, s.o.MaxLineBytes)
	for {
		b, _, err := br.Next()
		if err != nil {
			s.mu.Lock()
			if !errors.Is(err, io.EOF) {
				s.readErr = err
			}
			s.mu.Unlock()
			s.signal()
			return
		}
		l, ok := parse(bytes.TrimSpace(b))
		if !ok {
			continue
		}
		s.mu.Lock()
		switch {
		case l.answer && l.id != nil:
			s.answers[rpccall.MatchKey(l.id)] = append([]byte{}, l.raw...)
		case l.method != "" && l.id != nil:
			l.raw = append([]byte{}, l.raw...)
			s.asked[l.method] = append(s.asked[l.method], l)
		}
		s.mu.Unlock()
		s.signal()
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
		case <-s.done:
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

func (s *server) send(b []byte) error {
	_, err := s.stdin.Write(append(append([]byte{}, b...), '\n'))
	return err
}

// stop closes stdin, and ends the process group if it does not exit.
func (s *server) stop() {
	s.stdin.Close()
	exited := make(chan struct{})
	go func() { s.cmd.Wait(); close(exited) }()
	select {
	case <-exited:
	case <-time.After(2 * time.Second):
		killTree(s.cmd)
		<-exited
	}
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
			if err := s.send(substitute(l.raw, subst)); err != nil {
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
			_ = s.send(withID(l.raw, nq.id))
		case l.sent:
			// A notification (initialized, cancelled, roots changed).
			_ = s.send(substitute(l.raw, subst))
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

// sendFailed says why a line could not be sent: the server exited (its
// output ends too), or the error.
func (s *server) sendFailed(ctx context.Context, err error) string {
	if s.wait(ctx, func() bool { return s.exited() }) {
		return s.missingWhy()
	}
	return "could not send: " + err.Error()
}

// exited reports whether the server's output has ended.
func (s *server) exited() bool {
	select {
	case <-s.done:
		return true
	default:
		return false
	}
}

func (s *server) missingWhy() string {
	select {
	case <-s.done:
		s.mu.Lock()
		defer s.mu.Unlock()
		if s.readErr != nil {
			return "the server's output failed: " + s.readErr.Error()
		}
		return "the server exited"
	default:
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

// withID is the message raw with its id replaced.
func withID(raw []byte, id json.RawMessage) []byte {
	var m map[string]json.RawMessage
	if json.Unmarshal(raw, &m) != nil {
		return raw
	}
	m["id"] = id
	b, err := json.Marshal(m)
	if err != nil {
		return raw
	}
	return b
}
