package catalog

import (
	"context"
	"encoding/json"

	tea "charm.land/bubbletea/v2"

	"github.com/mcptui/mcptui/mcp"
)

// completeMsg carries completion/complete's answer for one field.
type completeMsg struct {
	seq    int
	field  string
	values []string
	more   bool
	err    error
}

// suggest asks for completions of the focused field of a prompt's or a
// template's form when its text changed (stale answers are dropped by
// sequence number).
func (m *Model) suggest() tea.Cmd {
	a := m.act
	if a == nil || a.kind == actTool || m.srv.Info().Capabilities.Completions == nil {
		return nil
	}
	v := a.form.Focused()
	if v == nil {
		a.sugg = nil
		return nil
	}
	text := ""
	if v.Set {
		text = v.Text
	}
	field := v.Field.Name
	if field == a.suggFor && text == a.lastText && a.sugg != nil {
		return nil
	}
	if field != a.suggFor {
		a.sugg = nil // the suggestions were for another field
	}
	a.suggFor, a.lastText = field, text
	m.seq++
	a.suggSeq = m.seq
	ref := mcp.PromptRef(a.it.key)
	if a.kind == actTemplate {
		ref = mcp.ResourceRef(a.it.key)
	}
	ctxArgs := map[string]string{}
	if inst, errs := a.form.Value().JSON(); len(errs) == 0 {
		var all map[string]any
		_ = json.Unmarshal(inst, &all)
		for k, val := range all {
			if s, ok := val.(string); ok && k != field {
				ctxArgs[k] = s
			}
		}
	}
	if len(ctxArgs) == 0 {
		ctxArgs = nil
	}
	srv, seq, base := m.srv, m.seq, m.ctx
	return func() tea.Msg {
		res, err := srv.Complete(base, ref, field, text, ctxArgs)
		if err != nil {
			return completeMsg{seq: seq, field: field, err: err}
		}
		return completeMsg{seq: seq, field: field, values: res.Values, more: res.HasMore}
	}
}

// completed installs suggestions, if they are still wanted.
func (m *Model) completed(msg completeMsg) {
	a := m.act
	if a == nil || msg.seq != a.suggSeq {
		return
	}
	if msg.err != nil {
		a.sugg, a.suggMore = []string{}, false
		if !isContextErr(msg.err) {
			m.say(true, "completion: "+msg.err.Error())
		}
		return
	}
	a.sugg, a.suggMore, a.suggSel = msg.values, msg.more, 0
	if a.sugg == nil {
		a.sugg = []string{}
	}
}

func isContextErr(err error) bool {
	return err == context.Canceled || err == context.DeadlineExceeded
}
