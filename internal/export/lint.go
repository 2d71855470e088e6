package export

import (
	"time"

	"github.com/mcptui/mcptui/internal/check/lint"
	"github.com/mcptui/mcptui/internal/record"
	"github.com/mcptui/mcptui/model"
)

// Finding is a rule of the specification one of the session's lines broke,
// as the live lint (internal/check/lint) judges it: the rule, what was
// seen, and the line.
type Finding struct {
	lint.Finding
	// Time is the line's.
	Time time.Time
	// Msg is the line, nil for a line mcptui discarded (not JSON-RPC).
	Msg *Message
}

// Lint judges rec's lines in order with l, the live lint the inspector
// runs (a new process starts it again), and keeps its findings in
// s.Findings; s is Build(rec). A line a tap's breakpoint withheld was not
// seen by its receiver and is not judged.
func (s *Session) Lint(rec *record.Recording, l model.Linter) {
	s.Findings, s.Linted = nil, true
	for i := range rec.Entries {
		e := &rec.Entries[i]
		if e.Type == record.TypeExit {
			l.Reset()
			continue
		}
		if !e.IsLine() || e.Withheld {
			continue
		}
		ln := lint.Line{Seq: uint64(i) + 1, Out: e.Type == record.TypeSent, Raw: e.Content(), Discarded: e.Type == record.TypeDiscarded, Reason: e.Reason}
		for _, f := range l.Observe(ln) {
			s.addFinding(i, e.Time, f)
		}
	}
}

// addFinding keeps f, found on the line that is rec's entry i.
func (s *Session) addFinding(i int, t time.Time, f lint.Finding) {
	s.Findings = append(s.Findings, Finding{Finding: f, Time: t, Msg: s.msgs[i]})
}

// FindingsOn are the findings on x's lines: its request, its answer, its
// progress and cancellation, the notifications and the questions (both
// ways) while it was in flight, and the lines mcptui discarded meanwhile.
func (s *Session) FindingsOn(x *Exchange) []Finding {
	if len(s.Findings) == 0 {
		return nil
	}
	mine := map[*Message]bool{x.Request: true}
	add := func(ms ...*Message) {
		for _, m := range ms {
			if m != nil {
				mine[m] = true
			}
		}
	}
	add(x.Response, x.Cancel)
	add(x.Progress...)
	notes, questions, _, _ := s.During(x)
	add(notes...)
	for _, q := range questions {
		add(q.Request, q.Response)
	}
	from, to := x.Start(), x.End(s.End)
	var out []Finding
	for _, f := range s.Findings {
		if f.Msg != nil && mine[f.Msg] || f.Msg == nil && !f.Time.Before(from) && !f.Time.After(to) {
			out = append(out, f)
		}
	}
	return out
}
