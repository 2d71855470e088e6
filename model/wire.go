package model

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/mcptui/mcptui/internal/protocol"

	"github.com/mcptui/mcptui/internal/rpccall"
)

// wire folds one line into the history and the tables derived from it.
func (s *Session) wire(w Wire) {
	if w.Lost {
		s.lost++
		if w.Line != nil {
			s.stub(w)
			return
		}
		s.history.addLost(w.Time, w.Dir, w.Size, s.conn.Gen)
		return
	}
	raw := w.Line
	if !w.Owned {
		raw = clone(w.Line)
	}
	e := Entry{Time: w.Time, Dir: w.Dir, Size: w.Size, Gen: s.conn.Gen, Raw: raw, Reason: w.Reason}
	switch {
	case w.Discarded:
		e.Kind, e.Summary = KindDiscarded, w.Reason
		if w.Line != nil {
			e.Summary = w.Reason + ": " + clipRaw(w.Line)
		}
		if c := s.lateAnswer(w); c != nil {
			// A server may answer a request it was told to cancel: that
			// answer is dropped, as it should be, and is no error.
			e.Summary = "late answer to cancelled request " + rpccall.MatchKey(c.ID) + ": " + clipRaw(w.Line)
		} else if w.Reason != rpccall.ReasonIDLessErrorBody {
			// (An HTTP error answer's body without an id is counted once,
			// by the failure of the request its POST carried; none for
			// the probe, which an older server answers so.)
			s.errors++
			if c := s.discardedAnswer(w); c != nil {
				e.Summary = c.AnswerDiscarded
				e.ID = clone(c.ID)
				seq := s.history.add(e).Seq
				s.history.link(c.RequestSeq, seq)
				s.lintLine(seq, w)
				return
			}
		}
	case w.Line == nil:
		e.Kind = KindInvalid
	}
	if e.Kind != 0 {
		s.lintLine(s.history.add(e).Seq, w)
		return
	}
	if kind(w.Line) == '[' && s.batch(w, e) {
		return
	}
	env, sum, rank := w.prepared()
	e.Kind, e.ID, e.Method, e.Summary = env.kind, clone(env.id), env.method, s.summaryWith(sum, env, w.Dir, w.Size)
	if w.Reason != "" {
		// A line that went on with a mark (a tap's breakpoint held it).
		e.Summary = "[" + w.Reason + "] " + e.Summary
	}
	if w.Dir == Out {
		if rule := s.autoMarkFor(env); rule != "" {
			e.Summary = "[auto " + rule + "] " + e.Summary
		}
	}
	added := s.history.add(e)
	s.lintLine(added.Seq, w)
	s.dispatch(w, env, added, rank)
}

// dispatch folds one message into the tables; entry is its traffic entry
// (a batch's, for a message inside one).
func (s *Session) dispatch(w Wire, env envelope, entry *Entry, logRank int32) {
	switch env.kind {
	case KindRequest:
		s.request(w, env, entry.Seq)
	case KindResponse, KindError:
		if s.response(w, env, entry.Seq) {
			entry.Negotiation = true
		}
	case KindNotification:
		if w.Dir == In && env.method == protocol.NotificationMessage {
			s.logMessage(logRank, entry.Seq)
		}
		if w.Dir == In {
			s.note(env.method, env.params)
		}
		s.notification(w, env)
	}
}

// discardedAnswer is the open request of ours whose answer a discarded
// line held, when its id can be read from the line (or from the start of
// one over the limit); it notes why on the call, which still times out.
func (s *Session) discardedAnswer(w Wire) *Call {
	id, text := ExplainDiscardedAnswer(w.Line, w.Head, w.Size, s.cfg.MaxLineBytes, w.Reason)
	if id == nil {
		return nil
	}
	c := s.calls[callKey(s.conn.Gen, Out, id)]
	if c == nil || c.Outcome.Kind != Pending {
		return nil
	}
	c.AnswerDiscarded = text
	return c
}

// ExplainDiscardedAnswer reads the id of the answer a discarded line held,
// from the line or, for one over the limit (line nil), from its head, and
// says what happened to it: "request 7's answer, 20.0 MiB, was discarded
// over the 16.0 MiB limit (raise --max-line-bytes)". The id is nil when
// the line is no answer or its id cannot be read. limit 0 means 16 MiB.
func ExplainDiscardedAnswer(line, head []byte, size, limit int, reason string) (id []byte, text string) {
	raw := line
	if raw == nil {
		raw = head
	}
	v, _ := members(raw, "id", "method")
	if v[0] == nil || v[1] != nil || kind(v[0]) == 'n' {
		return nil, ""
	}
	if line == nil {
		if limit <= 0 {
			limit = protocol.MaxLineBytes
		}
		return v[0], fmt.Sprintf("request %s's answer, %s, was discarded over the %s limit (raise --max-line-bytes)",
			clip(rpccall.MatchKey(v[0])), FormatSize(size), FormatSize(limit))
	}
	return v[0], fmt.Sprintf("request %s's answer was discarded: %s", clip(rpccall.MatchKey(v[0])), reason)
}

// stub folds a line whose content the inbox shed under load but whose
// envelope (see EnvelopeStub) it kept: the request it answers closes, and
// the history lists it as a line whose content was lost.
func (s *Session) stub(w Wire) {
	env := parseEnvelope(w.Line)
	e := Entry{Time: w.Time, Dir: w.Dir, Size: w.Size, Gen: s.conn.Gen, Kind: env.kind, ID: clone(env.id),
		Method: env.method, Lost: 1, Summary: stubSummary(w.Size)}
	if env.kind == KindError {
		e.Summary += ": " + clip(env.err.Error())
	}
	seq := s.history.add(e).Seq
	switch env.kind {
	case KindRequest:
		s.request(w, env, seq)
	case KindResponse, KindError:
		s.response(w, env, seq)
	}
}

// stubSummary says that a line's content was dropped under load.
func stubSummary(size int) string {
	return "content dropped under load (" + FormatSize(size) + ")"
}

// maxBatchParts bounds how many messages of one batch are summarized.
const maxBatchParts = 1000

// batch folds a JSON-RPC batch (2025-03-26): one traffic entry whose
// summary lists its parts, each part folded in order as a message of its
// own. An array holding no message at all is no batch: it reports false.
func (s *Session) batch(w Wire, e Entry) bool {
	envs, summary, ok := parseBatch(w.Line)
	if !ok {
		return false
	}
	e.Kind, e.Summary = KindBatch, summary
	added := s.history.add(e)
	s.lintLine(added.Seq, w)
	for _, env := range envs {
		s.dispatch(w, env, added, rankOf(env))
	}
	return true
}

// parseBatch reads the messages of an array line (at most maxBatchParts)
// and its summary; ok is false when it holds no message at all.
func parseBatch(line []byte) (envs []envelope, summary string, ok bool) {
	var names []string
	eachElement(line, func(el []byte) bool {
		env := parseEnvelope(el)
		envs = append(envs, env)
		if len(names) < 8 {
			name := env.kind.String()
			switch {
			case env.method != "":
				name += " " + env.method
			case env.id != nil:
				name += " " + rpccall.MatchKey(env.id)
			}
			names = append(names, name)
		}
		return len(envs) < maxBatchParts
	})
	messages := 0
	for _, env := range envs {
		if env.kind != KindInvalid {
			messages++
		}
	}
	if messages == 0 {
		return nil, "", false
	}
	summary = fmt.Sprintf("batch of %d: %s", len(envs), strings.Join(names, ", "))
	if len(envs) > len(names) {
		summary += ", …"
	}
	return envs, summary, true
}

func (s *Session) request(w Wire, env envelope, seq uint64) {
	key := callKey(s.conn.Gen, w.Dir, env.id)
	if c := s.calls[key]; c != nil {
		if c.Queued && w.Dir == Out {
			s.written(c, env, seq)
		}
		return // otherwise a duplicate id: the first one stays
	}
	c := &Call{Key: key, ID: clone(env.id), Dir: w.Dir, Gen: s.conn.Gen, Method: env.method,
		Target: target(env.method, env.params), Start: w.Time, RequestSeq: seq}
	switch {
	case w.Dir == Out && env.method == protocol.MethodListen:
		// A stream: open until closed, with no timer once acknowledged.
	case w.Dir == Out && env.method == protocol.MethodDiscover && s.conn.Phase != PhaseReady && s.cfg.ProbeTimeout > 0:
		c.setTimer(s.cfg.ProbeTimeout, 0, false)
	case w.Dir == Out:
		if o, ok := s.opts[key]; ok {
			c.setTimer(o.Timeout, o.MaxTotal, o.ResetOnProgress)
			delete(s.opts, key)
		} else {
			c.setTimer(s.cfg.Timeout, s.cfg.MaxTotal, s.cfg.ResetOnProgress)
		}
	}
	if tok := member(member(env.params, "_meta"), "progressToken"); tok != nil {
		c.progressToken = s.tokenKey(w.Dir, tok)
		s.tokens[c.progressToken] = c
	}
	s.calls[key] = c
	s.order = append(s.order, c)
	s.negotiationRequest(w, env)
	if w.Dir == Out && env.method == protocol.MethodListen {
		s.subs = append(s.subs, &Subscription{Key: key, ID: clone(env.id), Gen: s.conn.Gen,
			Asked: clone(member(env.params, "notifications")), Opened: w.Time, Open: true})
	}
}

// tokenKey scopes a progress token to the sender of the request carrying it.
func (s *Session) tokenKey(dir Direction, tok []byte) string {
	return strconv.Itoa(s.conn.Gen) + "/" + dir.String() + "/" + rpccall.MatchKey(tok)
}

// response folds a response; it reports whether the response is a step of
// the negotiation (the probe's error), not a failure.
func (s *Session) response(w Wire, env envelope, seq uint64) bool {
	reqDir := In
	if w.Dir == In {
		reqDir = Out
	}
	key := callKey(s.conn.Gen, reqDir, env.id)
	c := s.calls[key]
	// The probe's error is how an initialize-era server answers it: part
	// of the negotiation, not a failure. An error answer to initialize
	// fails the start, which its Failed event counts.
	probe := c != nil && c.Method == protocol.MethodDiscover && s.conn.Phase != PhaseReady
	initialize := c != nil && c.Method == protocol.MethodInitialize && s.conn.Phase != PhaseReady
	if env.kind == KindError && !probe && !initialize {
		s.errors++
	}
	if c != nil {
		c.ResponseSeq = seq
		s.history.link(c.RequestSeq, seq)
		s.negotiationResponse(c, env, w.Time)
		o := Outcome{Kind: Succeeded, Time: w.Time}
		if rt, _ := str(member(env.result, "resultType")); rt == "input_required" {
			o.Kind = NeedsInput
		}
		if c.Method == protocol.MethodCallTool && env.kind != KindError && string(trimValue(member(env.result, "isError"))) == "true" {
			// The tool failed: the header counts it with the errors.
			o.ToolError = true
			s.errors++
		}
		if env.kind == KindError {
			o = Outcome{Kind: FailedWithError, Time: w.Time, Err: env.err, Negotiation: probe}
		}
		s.finish(c, o)
	}
	if sub := s.subscription(key); sub != nil {
		reason := "the server ended it"
		if env.err != nil {
			reason = env.err.Error()
		}
		sub.end(w.Time, reason)
	}
	if q := s.Question(key); q != nil {
		if env.kind == KindError {
			q.resolve(w.Time, Rejected, nil, env.err)
		} else {
			if q.Kind == AskRoots {
				q.Summary.Roots, q.Summary.RootsSent = rootsSent(env.result), true
			}
			q.resolve(w.Time, answeredState(q, env.result), env.result, nil)
		}
	}
	return probe && env.kind == KindError
}

// rootsSent are the roots of a roots/list result as sent (none for one too
// large to take apart: the reducer's work per line stays bounded).
func rootsSent(result []byte) []Root {
	if len(result) > summaryScanBytes {
		return nil
	}
	var r struct {
		Roots []Root `json:"roots"`
	}
	_ = json.Unmarshal(result, &r)
	return r.Roots
}

// answeredState is Rejected for an elicitation declined or cancelled.
func answeredState(q *Question, result []byte) QuestionState {
	if q.Kind == AskElicitForm || q.Kind == AskElicitURL {
		if a, _ := str(member(result, "action")); a == "decline" || a == "cancel" {
			return Rejected
		}
	}
	return Answered
}

func (s *Session) subscription(key string) *Subscription {
	for _, sub := range s.subs {
		if sub.Key == key {
			return sub
		}
	}
	return nil
}

func (s *Session) notification(w Wire, env envelope) {
	if w.Dir == In && s.openSubs() && s.subscriptionEvent(w, env) {
		return
	}
	switch env.method {
	case protocol.NotificationProgress:
		v, _ := members(env.params, "progressToken", "progress", "total", "message")
		// Progress about a request travels the other way.
		reqDir := Out
		if w.Dir == Out {
			reqDir = In
		}
		c := s.tokens[s.tokenKey(reqDir, v[0])]
		if c == nil {
			return
		}
		value, _ := num(v[1])
		total, _ := num(v[2])
		msg, _ := str(v[3])
		c.progressed(w.Time, value, total, msg)
	case protocol.NotificationCancelled:
		v, _ := members(env.params, "requestId", "reason")
		// A cancellation names a request its sender made.
		key := callKey(s.conn.Gen, w.Dir, v[0])
		reason, _ := str(v[1])
		if c := s.calls[key]; c != nil {
			s.probeAbandoned(w, c)
			c.Cancelled, c.CancelReason = true, reason
			if w.Dir == Out {
				c.GaveUp = w.GaveUp
			}
			s.finish(c, Outcome{Kind: CancelledByCaller, Time: w.Time})
		} else if w.Dir == Out && w.GaveUp != nil {
			s.gaveUpAfterItEnded(key, reason, w.GaveUp)
		}
		if sub := s.subscription(key); sub != nil {
			sub.end(w.Time, "closed by client")
		}
		if q := s.Question(key); q != nil {
			q.resolve(w.Time, CancelledByServer, nil, nil)
		}
	}
}

// gaveUpAfterItEnded folds the cancellation we sent for a call whose own
// end came first: over HTTP the caller hears its timer's error before the
// transport has written the notification. The call ended the way it does
// when the cancellation comes first (cancelled, with why: the timer that
// fired, or the person), at the time its end came.
func (s *Session) gaveUpAfterItEnded(key, reason string, g *rpccall.GaveUp) {
	c := s.Call(key)
	if c == nil || c.GaveUp != nil || (c.Outcome.Kind != FailedLocally && c.Outcome.Kind != CancelledByCaller) {
		return
	}
	c.Cancelled, c.CancelReason, c.GaveUp = true, reason, g
	c.Outcome = Outcome{Kind: CancelledByCaller, Time: c.Outcome.Time}
}

// subscriptionEvent counts a notification tagged with an open
// subscription's id, or records its acknowledgement.
func (s *Session) subscriptionEvent(w Wire, env envelope) bool {
	id := member(member(env.params, "_meta"), subscriptionIDKey)
	if id == nil {
		return false
	}
	sub := s.subscription(callKey(s.conn.Gen, Out, id))
	if sub == nil {
		return false
	}
	if env.method == ackMethod {
		sub.Accepted, sub.AckedAt = clone(member(env.params, "notifications")), w.Time
		return true
	}
	sub.Events++
	sub.LastTime, sub.LastMethod = w.Time, env.method
	sub.LastSummary = notificationSummary(env.method, env.params)
	return true
}

// lateAnswer is the request of ours, cancelled, that a discarded line
// answers; nil when the line is anything else.
func (s *Session) lateAnswer(w Wire) *Call {
	if w.Dir != In || w.Line == nil {
		return nil
	}
	env := parseEnvelope(w.Line)
	if env.kind != KindResponse && env.kind != KindError {
		return nil
	}
	c := s.Call(callKey(s.conn.Gen, Out, env.id))
	if c == nil || c.Outcome.Kind != CancelledByCaller {
		return nil
	}
	return c
}

// written completes a call listed as queued now that its line went out.
func (s *Session) written(c *Call, env envelope, seq uint64) {
	c.Queued, c.RequestSeq, c.Method = false, seq, env.method
	c.Target = target(env.method, env.params)
	if tok := member(member(env.params, "_meta"), "progressToken"); tok != nil {
		c.progressToken = s.tokenKey(Out, tok)
		s.tokens[c.progressToken] = c
	}
}

// openSubs reports whether any subscription is open (so a notification
// may belong to one).
func (s *Session) openSubs() bool {
	for _, sub := range s.subs {
		if sub.Open {
			return true
		}
	}
	return false
}
