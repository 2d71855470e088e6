// Package replay turns an mcptui recording back into a session: model
// events for the inspector to show read-only (Events, Backend; ui/timeline
// is the program that steps through them), and a stdio server that answers
// a client under test as the recorded server did (Serve).
package replay

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/mcptui/mcptui/conn"
	"github.com/mcptui/mcptui/internal/jsonscan"
	"github.com/mcptui/mcptui/internal/record"
	"github.com/mcptui/mcptui/internal/rpccall"
	"github.com/mcptui/mcptui/model"

	"github.com/mcptui/mcptui/internal/protocol"
)

// Config is the model configuration a recording was made with: its roots
// and timer settings, so that the panes show what the live session showed.
func Config(rec *record.Recording, historyBytes int) model.Config {
	s := rec.Header.Settings
	cfg := model.Config{HistoryBytes: historyBytes, ResetOnProgress: s.ResetTimeoutOnProgress}
	cfg.Timeout, _ = time.ParseDuration(s.Timeout)
	cfg.MaxTotal, _ = time.ParseDuration(s.MaxTotalTimeout)
	for _, r := range s.Roots {
		cfg.Roots = append(cfg.Roots, model.Root{URI: r})
	}
	return cfg
}

// timed is an event with the position it came from, for a stable order.
type timed struct {
	ev  model.Event
	seq int
}

// Events turns a recording into the model events of the session, in the
// order they happened: each connection starting, every line both ways (the
// model follows the negotiation in them), stderr, the questions the server
// asked and how they were answered (found in the lines), readiness, and the
// exit.
func Events(rec *record.Recording) []model.Event {
	command := append([]string{rec.Header.Command}, rec.Header.Args...)
	var out []timed
	add := func(ev model.Event) { out = append(out, timed{ev: ev, seq: len(out)}) }

	// A negotiation entry is one connection (a generation): it starts
	// when its first process was spawned. The steps themselves are not
	// events: the model follows the negotiation on the wire.
	negs := negotiations(rec)
	var exits []exitAt
	for j := range rec.Entries {
		if e := &rec.Entries[j]; e.Type == record.TypeExit {
			exits = append(exits, exitAt{key: int64(j), t: e.Time})
		}
	}
	dropExit := map[int64]bool{}
	for _, neg := range negs {
		maps.Copy(dropExit, abandonedExits(exits, neg))
		if i := slices.IndexFunc(neg.Steps, func(s record.Step) bool { return s.Kind == "spawn" && s.Error == "" }); i >= 0 {
			add(model.Started{Stamp: model.Stamp{Time: neg.Steps[i].Start}, Command: command, PID: neg.Steps[i].PID})
		}
	}
	if len(negs) == 0 {
		add(model.Started{Stamp: model.Stamp{Time: rec.Header.Time}, Command: command})
	}
	q := newQuestions()
	var rd *readiness
	if !slices.ContainsFunc(rec.Entries, func(e record.Entry) bool { return e.Type == record.TypeReady }) {
		rd = &readiness{requests: map[string]string{}}
	}
	for i := range rec.Entries {
		if dropExit[int64(i)] {
			continue
		}
		for _, ev := range entryEvents(&rec.Entries[i], q, rd) {
			add(ev)
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		ti, tj := out[i].ev.When(), out[j].ev.When()
		if !ti.Equal(tj) {
			return ti.Before(tj)
		}
		return out[i].seq < out[j].seq
	})
	evs := make([]model.Event, len(out))
	for i, t := range out {
		evs[i] = t.ev
	}
	return evs
}

// entryEvents are the model events of one entry: a line (and the questions
// and readiness it implies), stderr, the exit, readiness, a failure or a
// loss. rd is nil when the recording has "ready" entries of its own.
func entryEvents(e *record.Entry, q *questions, rd *readiness) []model.Event {
	switch e.Type {
	case record.TypeSent, record.TypeReceived, record.TypeDiscarded:
		ev := lineEvent(e)
		out := []model.Event{ev}
		if w, ok := ev.(model.Wire); ok && !w.Discarded {
			out = append(out, q.observe(w)...)
			if rd != nil {
				if r, ok := rd.observe(w); ok {
					out = append(out, r)
				}
			}
		}
		return out
	case record.TypeStderr:
		return []model.Event{stderrEvent(e)}
	case record.TypeExit:
		status := ""
		if e.Status != nil {
			status = *e.Status
		}
		return []model.Event{model.Exited{Stamp: model.Stamp{Time: e.Time}, Status: status}}
	case record.TypeReady:
		r := model.Ready{Stamp: model.Stamp{Time: e.Time}, Protocol: e.Protocol, PID: e.PID}
		if e.Server != nil {
			r.ServerName, r.ServerVersion = e.Server.Name, e.Server.Version
		}
		return []model.Event{r}
	case record.TypeFailed:
		return []model.Event{model.Failed{Stamp: model.Stamp{Time: e.Time}, Err: e.Error, Stopped: e.Stopped}}
	case record.TypeLost:
		return []model.Event{model.Lost{Time: e.Time, N: e.Count}}
	}
	return nil
}

// stderrEvent is the event of a stderr entry.
func stderrEvent(e *record.Entry) model.Event {
	return model.Stderr{Stamp: model.Stamp{Time: e.Time}, Line: string(e.Content())}
}

// lineEvent is the wire event of a line entry. A line a tap's breakpoint
// held carries its mark as the reason; one it withheld is shown as
// discarded, in the direction it was going.
func lineEvent(e *record.Entry) model.Event {
	ev := model.FromConn(connEvent(e))
	w, ok := ev.(model.Wire)
	if !ok || e.Mark == "" {
		return ev
	}
	if e.Type == record.TypeSent {
		w.Dir = model.Out
	}
	w.Reason = e.Mark
	if e.Withheld {
		w.Discarded = true
	}
	return w
}

// connEvent rebuilds the conn event a line entry recorded.
func connEvent(e *record.Entry) conn.Event {
	ev := conn.Event{Time: e.Time, Line: e.Content(), Size: e.Size}
	switch e.Type {
	case record.TypeSent:
		ev.Kind = conn.Sent
		if g := e.GaveUp.Err(); g != nil {
			ev.Err = g // why mcptui cancelled: which timer fired
		}
	case record.TypeReceived:
		ev.Kind = conn.Received
	default:
		ev.Kind = conn.Discarded
		if e.Reason != "" {
			ev.Err = errors.New(e.Reason)
		}
	}
	return ev
}

// negotiations are the recording's negotiations, one per connection.
func negotiations(rec *record.Recording) []*record.Negotiation {
	var out []*record.Negotiation
	for i := range rec.Entries {
		if e := &rec.Entries[i]; e.Type == record.TypeNegotiation && e.Negotiation != nil {
			out = append(out, e.Negotiation)
		}
	}
	return out
}

// exitAt is an exit entry: where it is (its index, or its offset in the
// file) and when.
type exitAt struct {
	key int64
	t   time.Time
}

// abandonedExits finds the exit entries (among exits, in file order) of
// processes the negotiation abandoned that came after the next process had
// started: shown, they would end the new process's session.
func abandonedExits(exits []exitAt, neg *record.Negotiation) map[int64]bool {
	drop := map[int64]bool{}
	for i, st := range neg.Steps {
		if st.Kind != "abandon" {
			continue
		}
		var nextSpawn time.Time
		for _, later := range neg.Steps[i+1:] {
			if later.Kind == "spawn" {
				nextSpawn = later.Start
				break
			}
		}
		for _, e := range exits {
			if drop[e.key] || e.t.Before(st.Start) {
				continue
			}
			if !nextSpawn.IsZero() && e.t.After(nextSpawn) {
				drop[e.key] = true
			}
			break
		}
	}
	return drop
}

// questions finds the server's questions in the lines and how they ended:
// server-to-client requests (sampling, elicitation, roots) answered by our
// responses, and input_required entries answered by the next round's
// inputResponses.
type questions struct {
	asked    map[string]string     // server request id -> method
	requests map[string]outRequest // our request id -> request
	rounds   map[string]int        // method -> last input_required round
	open     map[string][]string   // input key -> unique keys still open
	method   map[string]string     // unique key -> question method
}

type outRequest struct {
	method string
	params json.RawMessage
}

func newQuestions() *questions {
	return &questions{asked: map[string]string{}, requests: map[string]outRequest{}, rounds: map[string]int{},
		open: map[string][]string{}, method: map[string]string{}}
}

// envelope is the part of a JSON-RPC message the question finder reads.
type envelope struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Params json.RawMessage `json:"params"`
	Result json.RawMessage `json:"result"`
	Error  *struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

// decode is json.Unmarshal(line, env) with the line checked once and read
// in place (jsonscan.UnmarshalFields): a 15 MiB result is not checked,
// scanned and copied again here. Its raw members are the line's: clone
// what is kept.
func (env *envelope) decode(line []byte) error {
	if !jsonscan.Valid(line) {
		return json.Unmarshal(line, env) // its error
	}
	return jsonscan.UnmarshalFields(line, jsonscan.Field{Name: "id", Dst: &env.ID}, jsonscan.Field{Name: "method", Dst: &env.Method},
		jsonscan.Field{Name: "params", Dst: &env.Params}, jsonscan.Field{Name: "result", Dst: &env.Result}, jsonscan.Field{Name: "error", Dst: &env.Error})
}

func isQuestion(method string) bool {
	return method == protocol.MethodCreateMessage || method == protocol.MethodElicit || method == protocol.MethodListRoots
}

// observe returns the question events one line implies.
func (q *questions) observe(w model.Wire) []model.Event {
	var env envelope
	if env.decode(w.Line) != nil {
		return nil
	}
	id := string(env.ID)
	hasID := len(env.ID) > 0 && id != "null"
	switch {
	case w.Dir == model.In && hasID && env.Method != "":
		if !isQuestion(env.Method) {
			return nil
		}
		q.asked[id] = env.Method
		return []model.Event{model.QuestionAsked{Stamp: model.Stamp{Time: w.Time}, RequestID: bytes.Clone(env.ID), Method: env.Method, Params: orEmpty(bytes.Clone(env.Params))}}
	case w.Dir == model.Out && hasID && env.Method == "":
		method, ok := q.asked[id]
		if !ok {
			return nil
		}
		delete(q.asked, id)
		return []model.Event{resolution(w.Time, env, method, bytes.Clone(env.ID), "")}
	case w.Dir == model.In && !hasID && env.Method == protocol.NotificationCancelled:
		var p struct {
			RequestID json.RawMessage `json:"requestId"`
		}
		if json.Unmarshal(env.Params, &p) == nil {
			if _, ok := q.asked[string(p.RequestID)]; ok {
				delete(q.asked, string(p.RequestID))
				return []model.Event{model.QuestionResolved{Stamp: model.Stamp{Time: w.Time}, RequestID: p.RequestID, State: model.CancelledByServer}}
			}
		}
	case w.Dir == model.Out && hasID && env.Method != "":
		q.requests[id] = outRequest{method: env.Method, params: bytes.Clone(env.Params)}
		return q.answered(w.Time, env.Params)
	case w.Dir == model.In && hasID && env.Result != nil:
		req, ok := q.requests[id]
		delete(q.requests, id)
		if ok {
			return q.inputRequired(w.Time, id, req, env.Result)
		}
	case w.Dir == model.In && hasID:
		delete(q.requests, id)
	}
	return nil
}

// resolution is how our response settled a server request: an elicitation
// that is not accepted counts as rejected, as the inspector counts it.
func resolution(t time.Time, env envelope, method string, id json.RawMessage, key string) model.QuestionResolved {
	r := model.QuestionResolved{Stamp: model.Stamp{Time: t}, RequestID: id, Key: key}
	if env.Error != nil {
		r.State, r.Err = model.Rejected, &model.RPCError{Code: env.Error.Code, Message: env.Error.Message}
		return r
	}
	r.State, r.Answer = model.Answered, bytes.Clone(env.Result)
	if method == protocol.MethodElicit {
		var a struct {
			Action string `json:"action"`
		}
		if json.Unmarshal(env.Result, &a) == nil && a.Action != "accept" {
			r.State = model.Rejected
		}
	}
	return r
}

// inputRequired lists the questions of an input_required result.
func (q *questions) inputRequired(t time.Time, id string, req outRequest, result json.RawMessage) []model.Event {
	var r struct {
		ResultType    string `json:"resultType"`
		InputRequests map[string]struct {
			Method string          `json:"method"`
			Params json.RawMessage `json:"params"`
		} `json:"inputRequests"`
	}
	// Most results are no question: told by their resultType alone,
	// read in place (result is a valid line's), before decoding them.
	var resultType string
	if jsonscan.UnmarshalFields(result, jsonscan.Field{Name: "resultType", Dst: &resultType}) != nil || resultType != "input_required" {
		return nil
	}
	if json.Unmarshal(result, &r) != nil || r.ResultType != "input_required" {
		return nil
	}
	round := 1
	var p struct {
		InputResponses json.RawMessage `json:"inputResponses"`
		RequestState   json.RawMessage `json:"requestState"`
	}
	if json.Unmarshal(req.params, &p) == nil && (p.InputResponses != nil || p.RequestState != nil) {
		round = q.rounds[req.method] + 1
	}
	q.rounds[req.method] = round
	keys := make([]string, 0, len(r.InputRequests))
	for k := range r.InputRequests {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var out []model.Event
	for _, k := range keys {
		en := r.InputRequests[k]
		unique := fmt.Sprintf("%s@%s", k, strings.Trim(id, `"`))
		q.open[k] = append(q.open[k], unique)
		q.method[unique] = en.Method
		out = append(out, model.QuestionAsked{Stamp: model.Stamp{Time: t}, Key: unique, Method: en.Method, Params: orEmpty(en.Params),
			CallMethod: req.method, Round: round, CallID: json.RawMessage(id)})
	}
	return out
}

// answered settles the input questions a request's inputResponses answer.
func (q *questions) answered(t time.Time, params json.RawMessage) []model.Event {
	var p struct {
		InputResponses map[string]json.RawMessage `json:"inputResponses"`
	}
	if json.Unmarshal(params, &p) != nil || len(p.InputResponses) == 0 {
		return nil
	}
	keys := make([]string, 0, len(p.InputResponses))
	for k := range p.InputResponses {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var out []model.Event
	for _, k := range keys {
		open := q.open[k]
		if len(open) == 0 {
			continue
		}
		unique := open[0]
		q.open[k] = open[1:]
		env := envelope{Result: p.InputResponses[k]}
		out = append(out, resolution(t, env, q.method[unique], nil, unique))
	}
	return out
}

func orEmpty(p json.RawMessage) json.RawMessage {
	if len(p) == 0 || string(p) == "null" {
		return json.RawMessage("{}")
	}
	return p
}

// readiness finds the end of the handshake in the lines, for recordings
// without "ready" entries (made by a program that recorded only the wire):
// an initialize result, or a server/discover result that offers
// 2026-07-28.
type readiness struct {
	requests map[string]string // our request id -> method
}

func (r *readiness) observe(w model.Wire) (model.Ready, bool) {
	var env envelope
	if env.decode(w.Line) != nil || len(env.ID) == 0 {
		return model.Ready{}, false
	}
	if w.Dir == model.Out {
		if env.Method == protocol.MethodInitialize || env.Method == protocol.MethodDiscover {
			r.requests[rpccall.MatchKey(env.ID)] = env.Method
		}
		return model.Ready{}, false
	}
	method, ok := r.requests[rpccall.MatchKey(env.ID)]
	if !ok || env.Result == nil {
		return model.Ready{}, false
	}
	delete(r.requests, rpccall.MatchKey(env.ID))
	var res struct {
		ProtocolVersion   string   `json:"protocolVersion"`
		SupportedVersions []string `json:"supportedVersions"`
		ServerInfo        struct {
			Name    string `json:"name"`
			Version string `json:"version"`
		} `json:"serverInfo"`
		Meta map[string]json.RawMessage `json:"_meta"`
	}
	if json.Unmarshal(env.Result, &res) != nil {
		return model.Ready{}, false
	}
	ready := model.Ready{Stamp: model.Stamp{Time: w.Time}, ServerName: res.ServerInfo.Name, ServerVersion: res.ServerInfo.Version}
	switch {
	case method == protocol.MethodInitialize && res.ProtocolVersion != "":
		ready.Protocol = res.ProtocolVersion
	case method == protocol.MethodDiscover && slices.Contains(res.SupportedVersions, protocol.Rev20260728):
		ready.Protocol = protocol.Rev20260728
		_ = json.Unmarshal(res.Meta["io.modelcontextprotocol/serverInfo"], &res.ServerInfo)
		ready.ServerName, ready.ServerVersion = res.ServerInfo.Name, res.ServerInfo.Version
	default:
		return model.Ready{}, false
	}
	return ready, true
}
