package model

import (
	"slices"
	"strconv"
	"time"

	"github.com/mcptui/mcptui/internal/rpccall"
)

// Apply folds one event into the session. An event stamped with an older
// generation than the current one (a line, stderr or the exit of a process
// that was restarted) is kept in the history under its own generation but
// changes nothing about the current connection.
func (s *Session) Apply(ev Event) {
	switch e := ev.(type) {
	case Wire:
		if s.stale(e.Gen) {
			s.staleWire(e)
			return
		}
		s.wire(e)
	case Stderr:
		gen := s.conn.Gen
		if s.stale(e.Gen) {
			gen = e.Gen
		}
		s.stderr.add(StderrLine{Time: e.Time, Gen: gen, Text: e.Line})
	case Started:
		s.started(e)
	case Exchange:
		s.exchange(e)
	case ExchangeUpdate:
		s.exchangeUpdate(e)
	case Lost:
		s.lost += e.N
	case LintAhead:
		s.lintAhead = e.On
	default:
		if st, ok := ev.(interface{ stamp() Stamp }); ok && s.stale(st.stamp().Gen) {
			return
		}
		s.applyCurrent(ev)
	}
}

// applyCurrent folds an event of the current generation.
func (s *Session) applyCurrent(ev Event) {
	switch e := ev.(type) {
	case Negotiating:
		if s.conn.Phase == PhaseStarting {
			s.conn.Phase, s.conn.Since = PhaseNegotiating, e.Time
		}
		s.addStep(e.Time, e.Step)
	case Ready:
		s.conn.Phase, s.conn.Since, s.conn.Step = PhaseReady, e.Time, ""
		s.conn.ServerName, s.conn.ServerVersion, s.conn.Protocol = e.ServerName, e.ServerVersion, e.Protocol
		s.conn.Offered, s.conn.Server = e.Offered, e.Info
		if e.Transport != "" {
			s.conn.Transport = e.Transport
		}
		if e.PID != 0 {
			s.conn.PID = e.PID
		}
	case Spawned:
		s.conn.PID = e.PID
	case LogLevelSet:
		s.conn.LogLevel, s.conn.LogLevelErr = e.Level, e.Err
	case Authorizing:
		s.conn.Authorizing = e
	case Stopping:
		s.conn.Stopping = e.Stage
	case Exited:
		if !s.abandonedExit(e.Time, e.Status) {
			s.exited(e.Time, e.Status)
		}
	case Failed:
		s.errors++
		s.exited(e.Time, e.Err)
		if e.Err != s.conn.ExitStatus {
			s.conn.Failure = e.Err
		}
		if e.Stopped {
			s.stoppedAfterFailure(e.Err)
		}
	case CallOptions:
		s.callOptions(e)
	case CallEnded:
		s.callEnded(e)
	case Extended:
		if c := s.calls[callKey(s.conn.Gen, Out, e.ID)]; c != nil && !c.Deadline.IsZero() {
			c.Deadline = c.Deadline.Add(e.By)
			if !c.MaxDeadline.IsZero() {
				c.MaxDeadline = c.MaxDeadline.Add(e.By)
			}
		}
	case QuestionAsked:
		s.asked(e)
	case QuestionResolved:
		if q := s.Question(questionKey(s.conn.Gen, e.RequestID, e.Key)); q != nil {
			if q.State == Waiting && e.Auto != "" {
				q.Auto = e.Auto
				s.markAuto(q)
			}
			q.resolve(e.Time, e.State, e.Answer, e.Err)
		}
	case SubscriptionOpened:
		s.subs = append(s.subs, &Subscription{Key: localSubKey(s.conn.Gen, e.ID), ID: clone(e.ID), Gen: s.conn.Gen,
			Asked: clone(e.Asked), Accepted: clone(e.Accepted), Opened: e.Time, AckedAt: e.Time, Open: true})
	case SubscriptionEvent:
		if sub := s.subscription(localSubKey(s.conn.Gen, e.ID)); sub != nil {
			sub.Events++
			sub.LastTime, sub.LastMethod = e.Time, e.Method
			sub.LastSummary = notificationSummary(e.Method, e.Params)
		}
	case SubscriptionEnded:
		if sub := s.subscription(localSubKey(s.conn.Gen, e.ID)); sub != nil {
			sub.end(e.Time, e.Reason)
		}
	}
}

// stale reports whether an event stamped with gen belongs to a process that
// was restarted since.
func (s *Session) stale(gen int) bool { return staleGen(gen, s.conn.Gen) }

// staleGen reports whether an event stamped gen belongs to a generation
// before cur (0 stamps the current one).
func staleGen(gen, cur int) bool { return gen != 0 && gen < cur }

// nextGen is the generation a Started stamped gen begins after cur, and
// false for a duplicate or one out of order (that generation began
// already).
func nextGen(gen, cur int) (int, bool) {
	if gen != 0 && gen <= cur {
		return 0, false
	}
	return max(gen, cur+1), true
}

// staleWire lists a late line of a restarted process under its own
// generation; the tables of the current connection do not see it.
func (s *Session) staleWire(w Wire) {
	e := Entry{Time: w.Time, Dir: w.Dir, Size: w.Size, Gen: w.Gen, Raw: clone(w.Line), Reason: w.Reason}
	switch {
	case w.Lost && w.Line != nil:
		s.lost++
		env := parseEnvelope(w.Line)
		e.Raw, e.Kind, e.ID, e.Method, e.Summary, e.Lost = nil, env.kind, clone(env.id), env.method, stubSummary(w.Size), 1
	case w.Lost:
		s.lost++
		s.history.addLost(w.Time, w.Dir, w.Size, w.Gen)
		return
	case w.Discarded:
		e.Kind, e.Summary = KindDiscarded, w.Reason
	case w.Line == nil:
		e.Kind = KindInvalid
	default:
		env := parseEnvelope(w.Line)
		e.Kind, e.ID, e.Method, e.Summary = env.kind, clone(env.id), env.method, s.summary(env, w.Dir, w.Size)
	}
	s.history.add(e)
}

// localSubKey names a subscription the backend described with
// SubscriptionOpened.
func localSubKey(gen int, id []byte) string {
	return strconv.Itoa(gen) + "/local/" + rpccall.MatchKey(id)
}

// ApplyAll folds events in order.
func (s *Session) ApplyAll(evs []Event) {
	for _, ev := range evs {
		s.Apply(ev)
	}
}

func (s *Session) started(e Started) {
	gen, ok := nextGen(e.Gen, s.conn.Gen)
	if !ok {
		return
	}
	if s.conn.Gen > 0 {
		s.endGeneration(e.Time, "restarted")
		s.history.add(Entry{Time: e.Time, Kind: KindBoundary, Gen: gen, Summary: "restarted"})
		s.stderr.add(StderrLine{Time: e.Time, Gen: gen, Boundary: true, Text: "restarted"})
	}
	s.conn = ConnState{Phase: PhaseStarting, Gen: gen, Command: e.Command, PID: e.PID, Since: e.Time, Started: e.Time}
	s.settledAtEnd = nil
	s.abandoned = 0
	clear(s.opts)
	s.lintRestart()
}

func (s *Session) exited(t time.Time, status string) {
	if s.conn.Phase == PhaseExited {
		return
	}
	s.endGeneration(t, "connection died")
	s.conn.Phase, s.conn.Since, s.conn.ExitStatus = PhaseExited, t, status
	s.conn.Authorizing = Authorizing{} // no flow outlives its connection
}

// stoppedAfterFailure folds a start that failed while the server ran:
// mcptui stopped the server, so the requests its end settled did not die
// with the connection; they failed with the start (an initialize whose
// timer fired is "timed out", not "conn died").
func (s *Session) stoppedAfterFailure(failure string) {
	s.conn.StoppedByUs = true
	for _, c := range s.settledAtEnd {
		if c.Outcome.Kind == ConnectionDied {
			c.Outcome = Outcome{Kind: FailedLocally, Time: c.Outcome.Time, Err: &RPCError{Message: failure}}
		}
	}
}

// endGeneration settles everything the current process left open.
func (s *Session) endGeneration(t time.Time, reason string) {
	s.settledAtEnd = slices.Clone(s.order)
	for _, c := range s.settledAtEnd {
		s.finish(c, Outcome{Kind: ConnectionDied, Time: t})
	}
	for _, q := range s.qs {
		q.resolve(t, QuestionConnectionDied, nil, nil)
	}
	for _, sub := range s.subs {
		sub.end(t, reason)
	}
}

func (s *Session) callOptions(e CallOptions) {
	key := callKey(s.conn.Gen, Out, e.ID)
	if c := s.calls[key]; c != nil {
		c.setTimer(e.Timeout, e.MaxTotal, e.ResetOnProgress)
		return
	}
	if s.Call(key) != nil {
		// It has ended already: its answer came before the sender's word
		// on its timer (a fast server, a first round answered
		// input_required). Listing it again would show it twice.
		return
	}
	if e.Method == "" || len(s.order) >= maxQueued {
		if len(s.opts) < 1024 {
			s.opts[key] = e
		}
		return
	}
	// Listed at once, as queued, until its line is written.
	c := &Call{Key: key, ID: clone(e.ID), Dir: Out, Gen: s.conn.Gen, Method: e.Method, Start: e.Time, Queued: true}
	c.setTimer(e.Timeout, e.MaxTotal, e.ResetOnProgress)
	s.calls[key] = c
	s.order = append(s.order, c)
}

// maxQueued bounds the calls in flight that CallOptions alone can add.
const maxQueued = 4096

func (s *Session) asked(e QuestionAsked) {
	key := questionKey(s.conn.Gen, e.RequestID, e.Key)
	if s.Question(key) != nil {
		return
	}
	k := ClassifyQuestion(e.Method, e.Params)
	callKeyOf := ""
	if e.RequestID == nil && len(e.CallID) > 0 {
		callKeyOf = callKey(s.conn.Gen, Out, e.CallID)
	}
	s.qs = append(s.qs, &Question{
		Key: key, Kind: k, RequestID: clone(e.RequestID), Method: e.Method, Params: clone(e.Params),
		CallMethod: e.CallMethod, Round: e.Round, CallKey: callKeyOf, Gen: s.conn.Gen, Arrived: e.Time,
		InputKey: inputKey(e), Note: e.Note,
		Summary: summarizeQuestion(k, e.Params, s.cfg.Roots),
	})
	s.pruneQuestions()
}

func inputKey(e QuestionAsked) string {
	if e.RequestID != nil {
		return ""
	}
	return e.Key
}

// pruneQuestions drops the oldest resolved questions over the cap.
func (s *Session) pruneQuestions() {
	resolved := 0
	for _, q := range s.qs {
		if q.State != Waiting {
			resolved++
		}
	}
	for i := 0; resolved > s.cfg.ClosedQuestions && i < len(s.qs); {
		if s.qs[i].State != Waiting {
			s.qs = slices.Delete(s.qs, i, i+1)
			resolved--
			continue
		}
		i++
	}
}

// resolve leaves the waiting state once.
func (q *Question) resolve(t time.Time, st QuestionState, answer []byte, err *RPCError) {
	if q.State != Waiting {
		return
	}
	q.State, q.Resolved, q.Answer, q.Err = st, t, clone(answer), err
}

// callEnded folds the sender's word on how one of our requests ended. A
// request still in flight ends with it; so does a round that ended with
// input_required, when the request failed before its next round was sent
// (the person rejected a question of its, or cancelled it): its record
// says how the request ended, not "asked you".
func (s *Session) callEnded(e CallEnded) {
	key := callKey(s.conn.Gen, Out, e.ID)
	c := s.calls[key]
	if c == nil {
		if r := s.Call(key); r != nil && r.Outcome.Kind == NeedsInput {
			c = r
		}
	}
	if c == nil || e.Err == "" {
		return
	}
	o := Outcome{Kind: FailedLocally, Time: e.Time, Err: &RPCError{Code: e.Code, Message: e.Err}}
	if e.Cancelled {
		c.Cancelled = true
		o = Outcome{Kind: CancelledByCaller, Time: e.Time}
	}
	if c.Outcome.Kind != NeedsInput {
		s.finish(c, o)
		return
	}
	// Listed among the recent ones already: its record changes.
	switch {
	case s.questionOf(c, QuestionConnectionDied):
		// Its question died with the connection (a restart): so did it.
		o = Outcome{Kind: ConnectionDied, Time: e.Time}
	case o.Kind == FailedLocally:
		// It failed before its next round (its question rejected): the
		// header counts it, as it counts error answers.
		s.errors++
	}
	c.Outcome = o
}

// questionOf reports whether one of the questions c's input_required
// result asked is in state st.
func (s *Session) questionOf(c *Call, st QuestionState) bool {
	for _, q := range s.QuestionsOf(c) {
		if q.State == st {
			return true
		}
	}
	return false
}

// finish moves a call from in flight to recent.
func (s *Session) finish(c *Call, o Outcome) {
	if c.Outcome.Kind != Pending {
		return
	}
	c.Outcome = o
	delete(s.calls, c.Key)
	if c.progressToken != "" && s.tokens[c.progressToken] == c {
		delete(s.tokens, c.progressToken)
	}
	if i := slices.Index(s.order, c); i >= 0 {
		s.order = slices.Delete(s.order, i, i+1)
	}
	s.recent = append(s.recent, c)
	if over := len(s.recent) - s.cfg.RecentCalls; over > 0 {
		s.recent = slices.Delete(s.recent, 0, over)
	}
}
