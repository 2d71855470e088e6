package catalog

import (
	"encoding/json"
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"github.com/mcptui/mcptui/internal/drift"
	"github.com/mcptui/mcptui/internal/inert"
	"github.com/mcptui/mcptui/internal/toolcost"
	"github.com/mcptui/mcptui/mcp"
	"github.com/mcptui/mcptui/ui/catalog/marks"
	"github.com/mcptui/mcptui/ui/kit"
)

// The marks of --baseline, --host and --model (package marks): worked out
// once per listing in a Cmd, then found by key for each row drawn.

// marksMsg carries a list's marks; gen is the listing they were worked
// out for.
type marksMsg struct {
	kind Kind
	gen  int
	set  *marks.Set
	// raws are the tools to cost next (nil: no cost is due).
	raws []json.RawMessage
}

// costMsg carries the tool list's context cost, worked out after its
// rules (tokenizing 50,000 tools takes seconds: the rows' marks do not
// wait for it).
type costMsg struct {
	gen  int
	cost *toolcost.List
	err  error
}

// fields are the lists' members in a snapshot.
var fields = [...]string{Tools: "tools", Resources: "resources", Templates: "resourceTemplates", Prompts: "prompts"}

// marking reports whether rows of kind k carry marks.
func (m *Model) marking(k Kind) bool { return m.opts.Marks.On() && k < Skills }

// workMarks works out the marks of list k's listing, off the UI goroutine:
// the rules first, then (tools) the context cost.
func (m *Model) workMarks(k Kind) tea.Cmd {
	if !m.marking(k) {
		return nil
	}
	l := m.lists[k]
	raws := make([]json.RawMessage, len(l.items))
	for i := range l.items {
		raws[i] = l.items[i].raw
	}
	cfg, gen, info := m.opts.Marks, l.gen, m.srv.Info()
	return func() tea.Msg {
		msg := marksMsg{kind: k, gen: gen, set: cfg.Rules(fields[k], info.Version, info.Name, raws)}
		if cfg.Costs(fields[k]) {
			msg.raws = raws
		}
		return msg
	}
}

// marked installs marks that are still the listing's, then has the
// tools' cost worked out.
func (m *Model) marked(msg marksMsg) tea.Cmd {
	l := m.lists[msg.kind]
	if l.gen != msg.gen {
		return nil
	}
	l.ms = msg.set
	if msg.raws == nil {
		return nil
	}
	cfg, gen, raws := m.opts.Marks, msg.gen, msg.raws
	return func() tea.Msg {
		cost, err := cfg.Cost(raws)
		return costMsg{gen: gen, cost: cost, err: err}
	}
}

// costed installs the tools' cost into their marks, if still theirs.
func (m *Model) costed(msg costMsg) {
	if l := m.lists[Tools]; l.gen == msg.gen && l.ms != nil {
		l.ms.AddCost(msg.cost, msg.err)
	}
}

// classTag is a change class's letter and style.
func (m *Model) classTag(c drift.Class) (string, lipgloss.Style) {
	switch c {
	case drift.Breaking:
		return "B", m.st.Error
	case drift.Risky:
		return "R", m.st.Warn
	case drift.Additive:
		return "A", m.st.OK
	case drift.Info:
		return "i", m.st.Muted
	}
	return " ", m.st.Text
}

// rowTag is the row's marks, 3 cells: the class of its change since the
// baseline, H when it breaks a chosen host's or model's rule.
func (m *Model) rowTag(l *listing, key string) []kit.Seg {
	mk := l.ms.Of(key)
	if mk == nil {
		return []kit.Seg{kit.Txt("   ", m.st.Text)}
	}
	c, cst := m.classTag(mk.Class)
	h := " "
	if len(mk.Breaks) > 0 {
		h = "H"
	}
	return []kit.Seg{kit.Txt(c, cst), kit.Txt(h, m.st.Error), kit.Txt(" ", m.st.Text)}
}

// markStatus is the status line's account of the shown list's marks.
func (m *Model) markStatus(l *listing) []kit.Seg {
	st, s := m.st, l.ms
	if s == nil {
		return []kit.Seg{kit.Txt(" marking…", st.Muted)}
	}
	var segs []kit.Seg
	sep := func() {
		if len(segs) > 0 {
			segs = append(segs, kit.Txt(" ·", st.Muted))
		}
	}
	if s.Compared {
		segs = append(segs, kit.Txt(" vs ", st.Muted), kit.SrvFree(m.opts.Marks.BaselineName, 24, st.Muted), kit.Txt(":", st.Muted))
		any := false
		for _, c := range drift.Classes[:3] {
			if n := s.Counts[c]; n > 0 {
				t, cst := m.classTag(c)
				segs = append(segs, kit.Txt(inert.Line(" "+t), cst), kit.Txt(inert.Line(fmt.Sprintf(" %d %s", n, c)), st.Muted))
				any = true
			}
		}
		if !any {
			segs = append(segs, kit.Txt(" no changes", st.Muted))
		}
		if len(s.Removed) > 0 {
			segs = append(segs, kit.Txt(fmt.Sprintf(" (%d removed: ", len(s.Removed)), st.Error), kit.SrvFree(strings.Join(s.Removed, ", "), 30, st.Error), kit.Txt(")", st.Error))
		}
	}
	if len(s.Targets) > 0 {
		sep()
		if s.Broken > 0 {
			what := "tools break a rule"
			if s.Broken == 1 {
				what = "tool breaks a rule"
			}
			segs = append(segs, kit.Txt(" H", st.Error), kit.Txt(inert.Line(fmt.Sprintf(" %d %s of %s", s.Broken, what, strings.Join(s.Targets, ", "))), st.Muted))
		} else {
			segs = append(segs, kit.Txt(inert.Line(" none breaks "+strings.Join(s.Targets, ", ")), st.Muted))
		}
	}
	if s.Err != "" {
		sep()
		segs = append(segs, kit.Txt(" ", st.Muted), kit.SrvFree(s.Err, 60, st.Error))
	}
	return segs
}

// markDetails are the details pane's lines of a row's marks.
func (m *Model) markDetails(l *listing, key string, w int) []string {
	mk := l.ms.Of(key)
	if mk == nil {
		return nil
	}
	st := m.st
	var out []string
	// para is a tag, then own words and server text wrapped under it (a
	// few lines at most).
	para := func(tag string, tst lipgloss.Style, own, srv string, sst lipgloss.Style) {
		ws := kit.WrapSafe(own+inert.Line(srv), max(w-4, 8))
		if len(ws) > 6 {
			ws = append(ws[:5], "…")
		}
		for i, t := range ws {
			if i > 0 {
				tag = "   "
			}
			out = append(out, kit.Row(st, w, false, kit.Txt(tag, tst), kit.Txt(t, sst)))
		}
	}
	for _, ch := range mk.Changes {
		t, cst := m.classTag(ch.Class)
		what := ch.Message
		if ch.Path != "" {
			what += " (" + ch.Path + ")"
		}
		if ch.Before != "" || ch.After != "" {
			what += ": " + orNone(ch.Before) + " → " + orNone(ch.After)
		}
		para(" "+t+" ", cst, string(ch.Class)+" since the baseline: ", what, st.Text)
		if ch.Words != "" {
			para("   ", st.Text, "", ch.Words, st.Muted)
		}
	}
	for _, b := range mk.Breaks {
		para(" H ", st.Error, b.Target+": ", b.Seen, st.Text)
		para("   ", st.Muted, "fix: ", b.Fix, st.Muted)
	}
	if mk.Tokens > 0 && l.ms.Cost != nil {
		c := l.ms.Cost
		para(" ", st.Muted, fmt.Sprintf("context cost: %d tokens, %.2f%% of a %d-token context (%s)", mk.Tokens, float64(mk.Tokens)/float64(c.Context)*100, c.Context, c.Tokenizer), "", st.Muted)
	}
	return out
}

func orNone(s string) string {
	if s == "" {
		return "(none)"
	}
	return s
}

// resultMarksMsg carries what a result goes over (marks.Config.Result).
type resultMarksMsg struct {
	res  *result
	over []string
}

// markResult measures a tool's result against the chosen hosts' caps
// after it is shown: counting its tokens takes a while for a large one.
func (m *Model) markResult(t *mcp.Tool, raw json.RawMessage, res *result) tea.Cmd {
	cfg := m.opts.Marks
	if t == nil || !cfg.Caps() {
		return nil
	}
	return func() tea.Msg { return resultMarksMsg{res: res, over: cfg.Result(t.Raw, raw)} }
}

// ContextCost is what the tool list costs in context, in words, once the
// catalog worked it out (with --host or --model); "" before or without.
func (m *Model) ContextCost() string {
	s := m.lists[Tools].ms
	if s == nil || s.Cost == nil {
		return ""
	}
	c := s.Cost
	return fmt.Sprintf("%d tokens for %d tools, %.1f%% of a %d-token context (%s)", c.Total, len(c.Tools), c.Share, c.Context, c.Tokenizer)
}

// ToolRaw is tool name's entry as the catalog listed it (nil: not
// listed), for what its _meta declares.
func (m *Model) ToolRaw(name string) json.RawMessage {
	for _, it := range m.lists[Tools].items {
		if it.tool != nil && it.tool.Name == name {
			return it.tool.Raw
		}
	}
	return nil
}
