package model

import (
	"time"

	"github.com/mcptui/mcptui/internal/check/lint"
)

// Live lint: every line of traffic goes through the linter of mcptui
// check (internal/check/lint), and what it finds is kept here, by the
// traffic entry it concerns, for the header's count and the marks on
// traffic lines (and the server view's list).

// maxFindings bounds the findings kept; older ones are dropped (and still
// counted).
const maxFindings = 1000

// Linter judges lines of traffic, in order, against the rules of the
// specification that traffic shows, remembering what it needs between
// them. The live lint plugs in from above (model.Config.Linter,
// NewPrelinterWith): the full one compiles the tools' output schemas with
// a JSON Schema validator, which this package does not import.
type Linter interface {
	// Observe judges one line and returns the rules it breaks.
	Observe(lint.Line) []lint.Finding
	// Reset forgets the session (a restarted server).
	Reset()
}

// DefaultLinter is the live lint without a JSON Schema validator: every
// rule but the one that checks structured tool output against its
// schema.
func DefaultLinter() Linter { return lint.New() }

// linted keeps the live lint's state and findings.
type linted struct {
	// linter judges the lines that come unjudged (a Prelinter judges them
	// off the UI goroutine otherwise); nil until one does.
	linter   Linter
	findings []lint.Finding
	total    int
	marks    map[uint64]string // entry Seq -> first rule it broke
}

func (s *Session) lintState() *linted {
	if s.lint == nil {
		s.lint = &linted{marks: map[uint64]string{}}
	}
	return s.lint
}

// lintLine keeps the findings of one line of the current connection: those
// a Prelinter found (between LintAhead marks), or the linter's.
func (s *Session) lintLine(seq uint64, w Wire) {
	l := s.lintState()
	fs := w.findings
	if !s.lintAhead {
		if l.linter == nil {
			l.linter = s.newLinter()
		}
		fs = l.linter.Observe(w.lintLine())
	}
	for _, f := range fs {
		f.Seq = seq
		l.total++
		l.findings = append(l.findings, f)
		if _, ok := l.marks[f.Seq]; !ok {
			l.marks[f.Seq] = f.Rule
		}
	}
	if len(l.findings) > maxFindings {
		l.findings = append([]lint.Finding(nil), l.findings[len(l.findings)-maxFindings/2:]...)
		first := s.history.FirstSeq()
		for seq := range l.marks {
			if seq < first || seq < l.findings[0].Seq {
				delete(l.marks, seq)
			}
		}
	}
}

// newLinter is the configured live lint, or DefaultLinter.
func (s *Session) newLinter() Linter {
	if s.cfg.Linter != nil {
		return s.cfg.Linter()
	}
	return DefaultLinter()
}

// lintRestart forgets the old process's requests (a new one started).
func (s *Session) lintRestart() {
	if s.lint != nil && s.lint.linter != nil {
		s.lint.linter.Reset()
	}
}

// lintLine is the wire as the linter reads it (Seq is set where it is
// known).
func (w *Wire) lintLine() lint.Line {
	ln := lint.Line{Out: w.Dir == Out, Raw: w.Line, Discarded: w.Discarded, Reason: w.Reason}
	ln.Head, ln.HeadOK, ln.HeadRead, ln.Valid = w.lintHead()
	return ln
}

// Prelinter runs the live lint ahead of Apply, where the events are taken
// from the backend (off the UI goroutine): judging a line costs time that
// grows with it (a 16 MiB result takes seconds), and Apply then only keeps
// what was found. It sees the events in the order Apply will, and judges
// the same lines. Not safe for concurrent use: one caller at a time, in
// order. Lines already judged (between LintAhead marks, by a Prelinter
// nearer the connection) are left as they are.
type Prelinter struct {
	linter Linter
	gen    int // the current connection generation, as Apply counts it
	// judged is set between LintAhead marks in the events seen so far
	// (the marks may fall in different batches).
	judged bool
}

// NewPrelinter is a Prelinter with DefaultLinter, for a session that has
// not started yet.
func NewPrelinter() *Prelinter { return NewPrelinterWith(DefaultLinter()) }

// NewPrelinterWith is a Prelinter that judges with l.
func NewPrelinterWith(l Linter) *Prelinter { return &Prelinter{linter: l} }

// Lint judges the lines among evs, in order; a line that broke a rule is
// replaced in evs by one that carries what it broke (a clean line stays as
// it is: no copy for each line of a flood). Judged hands them to Apply.
func (p *Prelinter) Lint(evs []Event) {
	for i, ev := range evs {
		if mark, ok := ev.(LintAhead); ok {
			p.judged = mark.On
			continue
		}
		if p.judged {
			continue
		}
		switch e := ev.(type) {
		case Started:
			gen, ok := nextGen(e.Gen, p.gen)
			if !ok {
				continue // Apply ignores it too
			}
			p.gen = gen
			p.linter.Reset()
		case Wire:
			if e.Lost || staleGen(e.Gen, p.gen) {
				continue // not judged by Apply either
			}
			if fs := p.linter.Observe(e.lintLine()); len(fs) > 0 {
				e.findings = fs
				evs[i] = e
			}
		}
	}
}

// LintAhead marks where lines a Prelinter judged begin (On) and end in the
// events given to Apply: between the marks Apply keeps the findings the
// lines carry and judges none itself.
type LintAhead struct{ On bool }

// When implements Event (a mark happens at no time).
func (LintAhead) When() time.Time { return time.Time{} }

// Judged is evs, judged by a Prelinter, between LintAhead marks.
func Judged(evs []Event) []Event {
	out := make([]Event, 0, len(evs)+2)
	out = append(out, LintAhead{On: true})
	out = append(out, evs...)
	return append(out, LintAhead{On: false})
}

// Findings are the live lint's findings kept, oldest first (shared: do
// not modify).
func (s *Session) Findings() []lint.Finding {
	if s.lint == nil {
		return nil
	}
	return s.lint.findings
}

// FindingCount is how many findings the live lint has made in all.
func (s *Session) FindingCount() int {
	if s.lint == nil {
		return 0
	}
	return s.lint.total
}

// LintMark is the first rule the traffic entry with that Seq broke, or "".
func (s *Session) LintMark(seq uint64) string {
	if s.lint == nil {
		return ""
	}
	return s.lint.marks[seq]
}
