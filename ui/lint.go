package ui

import (
	"fmt"

	"github.com/mcptui/mcptui/model"
	"github.com/mcptui/mcptui/ui/kit"
)

// The live lint on screen (its findings come from model, which runs the
// rules of mcptui check on every line): a mark on each traffic line that
// broke a rule, in place of the request/response link, and a count in the
// header.

// lintMark is the mark of a traffic line that broke a rule.
const lintMark = "✗"

// linkCell is the traffic row's two-cell link column: the lint mark when
// the line broke a rule, else the link.
func (m *Model) linkCell(e *model.Entry, link string) kit.Seg {
	if m.sess.LintMark(e.Seq) != "" {
		return kit.Own(lintMark+" ", 2, m.styles.Error)
	}
	return kit.Own(link+" ", 2, m.styles.Muted)
}

// lintCounter is the header's count of broken rules ("" when none).
func (m *Model) lintCounter() string {
	n := m.sess.FindingCount()
	if n == 0 {
		return ""
	}
	return m.styles.Error.Render(fmt.Sprintf("lint %d", n)) + "  "
}
