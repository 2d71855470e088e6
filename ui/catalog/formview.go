package catalog

import (
	"fmt"
	"github.com/mcptui/mcptui/keymap"
	"strings"
	"time"

	"github.com/mcptui/mcptui/mcp"
	"github.com/mcptui/mcptui/themes"
	"github.com/mcptui/mcptui/ui/kit"
)

// formView draws a call's form, its options, suggestions and errors.
func (m *Model) formView(w, h int) []string {
	st := m.st
	a := m.act
	verb := map[actionKind]string{actTool: "Call tool", actPrompt: "Get prompt", actTemplate: "Read from template"}[a.kind]
	head := []kit.Seg{kit.Txt(" "+verb+" ", st.Muted), kit.SrvFree(a.it.key, w/2, st.Bold.Foreground(st.Accent.GetForeground()))}
	if n := a.form.Remembered(); n > 0 {
		// Which: the fields marked ↺; the form's reset key forgets them.
		head = append(head, kit.Txt(fmt.Sprintf("  (%d value(s) ↺ from the last call · %s)", n, keymap.Hint(m.keys.Form.Reset)), st.Muted))
	}
	out := []string{kit.Row(st, w, false, head...)}
	if a.kind == actTemplate {
		out = append(out, kit.Row(st, w, false, kit.Txt(" → ", st.Muted), kit.SrvFree(a.tpl.expand(templateVals(a)), w-3, st.Info)))
	}
	if a.kind == actTool {
		out = append(out, m.optionsLine(a, w))
	}
	var tail []string
	if v := a.form.Focused(); a.sugg != nil && v != nil && v.Field.Name == a.suggFor && !a.editOpts {
		tail = append(tail, m.suggestLine(a, w))
	}
	if a.err != "" {
		tail = append(tail, kit.Row(st, w, false, kit.Txt(" ✗ ", st.Error), kit.SrvFree(a.err, w-3, st.Error)))
	}
	bodyH := max(h-len(out)-len(tail), 3)
	if a.editOpts {
		out = append(out, kit.Row(st, w, false, kit.Own(" Call options ("+keymap.Hint(keymap.Described(m.keys.Catalog.Options, "back to the arguments"))+"):", w, st.TitleFocus)))
		out = append(out, a.opts.View(w, bodyH-1)...)
	} else {
		out = append(out, a.form.View(w, bodyH)...)
	}
	return kit.Pad(append(out, tail...), w, h)
}

// templateVals are a template form's current values.
func templateVals(a *action) map[string]string {
	vals := map[string]string{}
	for _, p := range a.form.Value().Props {
		if p.Set {
			vals[p.Field.Name] = p.Text
		}
	}
	return vals
}

// optionsLine sums up a tool call's options.
func (m *Model) optionsLine(a *action, w int) string {
	st := m.st
	raw, _ := a.opts.Value().JSON()
	spec, err := callOptions(raw)
	var parts []string
	switch {
	case err != nil:
		parts = append(parts, "timeout ?")
	case spec.opts.Timeout < 0:
		parts = append(parts, "no timeout")
	case spec.opts.Timeout == 0:
		parts = append(parts, "default timeout")
		if t := DefaultTimeoutText(m.opts.DefaultTimeout); t != "" {
			parts[len(parts)-1] = "timeout " + t + " (default)"
		}
	default:
		parts = append(parts, "timeout "+spec.opts.Timeout.String())
	}
	if spec.progress {
		parts = append(parts, "progress")
	}
	if spec.opts.ResetOnProgress {
		parts = append(parts, "reset on progress")
	}
	if spec.task {
		parts = append(parts, "as a task")
	}
	if len(spec.meta) > 0 {
		parts = append(parts, "_meta "+string(spec.meta))
	}
	return kit.Row(st, w, false, kit.Own(" options: "+strings.Join(parts, " · ")+"  ("+keymap.Hint(keymap.Described(m.keys.Catalog.Options, "changes them"))+")", w, st.Muted))
}

// suggestLine shows completion suggestions.
func (m *Model) suggestLine(a *action, w int) string {
	st := m.st
	if len(a.sugg) == 0 {
		return kit.Row(st, w, false, kit.Own(" no suggestions", w, st.Muted))
	}
	segs := []kit.Seg{kit.Txt(" suggestions: ", st.Muted)}
	for i, s := range a.sugg {
		if i >= 12 {
			break
		}
		sty := st.Text
		if i == a.suggSel {
			sty = st.Selected
		}
		segs = append(segs, kit.SrvFree(s, 30, sty), kit.Txt("  ", st.Text))
	}
	if a.suggMore || len(a.sugg) > 12 {
		segs = append(segs, kit.Txt("…", st.Muted))
	}
	c := m.keys.Catalog
	segs = append(segs, kit.Txt("("+keymap.Hint(keymap.Described(c.Take, "takes it"), keymap.Pair(c.SuggestBack, c.Suggest, "picks"))+")", st.Subtle))
	return kit.Row(st, w, false, segs...)
}

// runningView shows a call in flight with its progress.
func (m *Model) runningView(w, h int) []string {
	st := m.st
	r := m.run
	if r == nil {
		return nil
	}
	elapsed := m.now().Sub(r.started).Round(100 * time.Millisecond)
	out := []string{kit.Blank(w),
		kit.Row(st, w, false, kit.Txt("  ", st.Text), kit.Txt("waiting for ", st.Muted), kit.SrvFree(r.what, w/2, st.Bold),
			kit.Txt(" — "+elapsed.String(), st.Muted)),
		kit.Blank(w)}
	if p := r.prog; p != nil {
		bar := progressBar(st, p.Progress, p.Total, min(w-20, 60))
		label := " " + kit.Number(p.Progress)
		if p.Total > 0 {
			label += "/" + kit.Number(p.Total)
		}
		out = append(out, kit.Row(st, w, false, kit.Txt("  ", st.Text), kit.Seg{S: bar, St: st.Text}, kit.Txt(label, st.Muted),
			kit.Txt(fmt.Sprintf("  (%d updates)", r.count), st.Muted)))
		if p.Message != "" {
			mark := mcp.NotIn(m.srv.Info().Version, mcp.FeatureProgressMessage)
			if mark != "" {
				mark = " " + mark
			}
			out = append(out, kit.Row(st, w, false, kit.Txt("  ", st.Text), kit.SrvFree(p.Message, max(w-2-len(mark), 1), st.Text), kit.Txt(mark, st.Muted)))
		}
	} else {
		out = append(out, kit.Row(st, w, false, kit.Own("  no progress reported (yet)", w, st.Muted)))
	}
	out = append(out, kit.Blank(w), kit.Row(st, w, false, kit.Own("  "+keymap.Hint(keymap.Described(m.keys.Catalog.Cancel, "cancels it (notifications/cancelled)"), keymap.Described(m.keys.Catalog.Back, "goes back, the call goes on")), w, st.Subtle)))
	return out
}

// progressBar draws value/total in w cells (a moving block without total).
func progressBar(st *themes.Styles, value, total float64, w int) string {
	w = max(w, 4)
	if total <= 0 {
		pos := int(value) % w
		return st.ProgressEmpty.Render(strings.Repeat("─", pos)) + st.ProgressFull.Render("███") + st.ProgressEmpty.Render(strings.Repeat("─", max(w-pos-3, 0)))
	}
	f := min(max(value/total, 0), 1)
	n := int(f * float64(w))
	return st.ProgressFull.Render(strings.Repeat("█", n)) + st.ProgressEmpty.Render(strings.Repeat("░", w-n))
}

// taskView draws a task being followed.
func (m *Model) taskView(w, h int) []string {
	st := m.st
	tv := m.task
	if tv == nil {
		return nil
	}
	t := tv.t
	sst := st.Info
	switch t.Status {
	case "completed":
		sst = st.OK
	case "failed", "cancelled":
		sst = st.Error
	case "input_required":
		sst = st.Warn
	}
	name := "a task"
	if tv.tool != nil {
		name = tv.tool.Name
	}
	out := []string{kit.Blank(w),
		kit.Row(st, w, false, kit.Txt("  task ", st.Muted), kit.SrvFree(t.TaskID, w/2, st.Bold), kit.Txt(" of ", st.Muted), kit.SrvFree(name, w/3, st.Accent)),
		kit.Row(st, w, false, kit.Txt("  status  ", st.Muted), kit.SrvFree(t.Status, 20, sst.Bold(true)), kit.Txt("  ", st.Text), kit.SrvFree(t.StatusMessage, w-34, st.Text)),
	}
	if t.Status == "input_required" {
		out = append(out, kit.Row(st, w, false, kit.Own("  the task needs input: answer the server's question in the pending pane", w, st.Warn)))
	}
	if t.PollInterval != nil {
		out = append(out, kit.Row(st, w, false, kit.Own(fmt.Sprintf("  polls   every %dms (%d so far)", *t.PollInterval, tv.polls), w, st.Muted)))
	}
	if tv.err != "" {
		out = append(out, kit.Row(st, w, false, kit.Txt("  ✗ ", st.Error), kit.SrvFree(tv.err, w-4, st.Error)))
	}
	out = append(out, kit.Blank(w), kit.Row(st, w, false, kit.Own("  history", w, st.Muted)))
	for _, hline := range tv.history[max(len(tv.history)-(h-12), 0):] {
		out = append(out, kit.Row(st, w, false, kit.Txt("   ", st.Text), kit.SrvFree(hline, w-3, st.Text)))
	}
	c := m.keys.Catalog
	keys := "  " + keymap.Hint(keymap.Described(c.Cancel, "cancels the task (tasks/cancel)"), c.Poll, keymap.Described(c.Back, "leaves it"))
	if tv.done {
		keys = "  " + keymap.Hint(keymap.Described(c.Fetch, "fetches the result again"), keymap.Described(c.Back, "leaves it"))
	}
	return append(out, kit.Blank(w), kit.Row(st, w, false, kit.Own(keys, w, st.Subtle)))
}
