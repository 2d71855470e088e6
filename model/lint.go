package model

import (
	"github.com/mcptui/mcptui/internal/check/lint"
)

// Live lint: every line of traffic goes through the linter of mcptui
// check (internal/check/lint), and what it finds is kept here, by the
// traffic entry it concerns, for the header's count and the marks on
// traffic lines (and the server view's list).

// maxFindings bounds the findings kept; older ones are dropped (and still
// counted).
const maxFindings = 1000

// Finding is a rule of the specification the server broke on one line:
// the rule's id (rules.Get describes it), the entry's Seq and what was
// seen (server text: escape it before drawing).
type Finding = lint.Finding

// linted keeps the live lint's state and findings.
type linted struct {
	linter   *lint.Linter
	findings []Finding
	total    int
	marks    map[uint64]string // entry Seq -> first rule it broke
}

func (s *Session) lintState() *linted {
	if s.lint == nil {
		s.lint = &linted{linter: lint.New(), marks: map[uint64]string{}}
	}
	return s.lint
}

// lintLine judges one line of the current connection.
func (s *Session) lintLine(seq uint64, w Wire) {
	l := s.lintState()
	ln := lint.Line{Seq: seq, Out: w.Dir == Out, Raw: w.Line, Discarded: w.Discarded, Reason: w.Reason}
	ln.Head, ln.HeadOK, ln.HeadRead = w.lintHead()
	fs := l.linter.Observe(ln)
	for _, f := range fs {
		l.total++
		l.findings = append(l.findings, f)
		if _, ok := l.marks[f.Seq]; !ok {
			l.marks[f.Seq] = f.Rule
		}
	}
	if len(l.findings) > maxFindings {
		l.findings = append([]Finding(nil), l.findings[len(l.findings)-maxFindings/2:]...)
		first := s.history.FirstSeq()
		for seq := range l.marks {
			if seq < first || seq < l.findings[0].Seq {
				delete(l.marks, seq)
			}
		}
	}
}

// lintRestart forgets the old process's requests (a new one started).
func (s *Session) lintRestart() {
	if s.lint != nil {
		s.lint.linter.Reset()
	}
}

// Findings are the live lint's findings kept, oldest first (shared: do
// not modify).
func (s *Session) Findings() []Finding {
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
