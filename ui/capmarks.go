package ui

import (
	"encoding/json"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/mcptui/mcptui/internal/hostprofile"
	"github.com/mcptui/mcptui/mcp"
	"github.com/mcptui/mcptui/model"
	"github.com/mcptui/mcptui/ui/kit"
)

// Pane 1 marks a tools/call whose result goes over the cap of a host the
// person chose (mcptui --host; the catalog's marks.Config, whose Overs is
// the one place a result is measured): a line under the request's row,
// "over claude-code's 25k-token cap: >25,871 tokens". Without a chosen
// host nothing is marked, as the catalog marks nothing: which host the
// server is meant for is the person's to say. A result is measured once,
// off the UI goroutine (a 15 MiB result takes its JSON's parse and the
// tokenizer up to the cap), after it arrives; its row shows the mark
// when the measure comes back.

// capMarks are the measures by call key: nil while being measured.
type capMarks map[string]*capMark

// capMark is what a call's result goes over (none: within every cap).
type capMark struct{ overs []hostprofile.Over }

// capMarkMsg carries one call's measure.
type capMarkMsg struct {
	key   string
	overs []hostprofile.Over
}

// measureResults starts measuring the results of the finished tools/calls
// in pane 1 not yet measured, and forgets the calls pane 1 no longer
// shows.
func (m *Model) measureResults() tea.Cmd {
	cfg := m.opts.CatalogMarks
	if !cfg.Caps() {
		return nil
	}
	if m.caps == nil {
		m.caps = capMarks{}
	}
	rows := m.flightRows()
	var cmds []tea.Cmd
	for _, c := range rows {
		if c.Method != mcp.MethodCallTool || c.Outcome.Kind != model.Succeeded || c.ResponseSeq == 0 {
			continue
		}
		if _, ok := m.caps[c.Key]; ok {
			continue
		}
		e := m.sess.History().BySeq(c.ResponseSeq)
		if e == nil || e.Raw == nil {
			// The line was not kept: nothing to measure.
			m.caps[c.Key] = &capMark{}
			continue
		}
		m.caps[c.Key] = nil
		var tool json.RawMessage
		if m.rich.catalog != nil {
			tool = m.rich.catalog.ToolRaw(c.Target)
		}
		key, line := c.Key, e.Raw
		cmds = append(cmds, func() tea.Msg {
			var resp struct {
				Result json.RawMessage `json:"result"`
			}
			if json.Unmarshal(line, &resp) != nil || resp.Result == nil {
				return capMarkMsg{key: key}
			}
			overs, _ := cfg.Overs(tool, resp.Result)
			return capMarkMsg{key: key, overs: overs}
		})
	}
	if len(m.caps) > 2*len(rows) {
		// Forget the calls pane 1 no longer shows, now and then rather
		// than on every batch of a flood.
		shown := make(map[string]bool, len(rows))
		for _, c := range rows {
			shown[c.Key] = true
		}
		for k := range m.caps {
			if !shown[k] {
				delete(m.caps, k)
			}
		}
	}
	return tea.Batch(cmds...)
}

// measured installs a call's measure, unless pane 1 forgot the call.
func (m *Model) measured(msg capMarkMsg) {
	if _, ok := m.caps[msg.key]; ok {
		m.caps[msg.key] = &capMark{overs: msg.overs}
	}
}

// capOvers are the caps call c's result goes over (nil: none, or not
// measured yet).
func (m *Model) capOvers(c *model.Call) []hostprofile.Over {
	if mk := m.caps[c.Key]; mk != nil {
		return mk.overs
	}
	return nil
}

// capLine is the line under a marked call's row.
func (m *Model) capLine(overs []hostprofile.Over, w int, sel bool) string {
	words := make([]string, len(overs))
	for i, o := range overs {
		words[i] = o.Short()
	}
	// The words are the host profiles' and the counts': no server text.
	return kit.Row(m.styles, w, sel, kit.Own("    ✗ ", 6, m.styles.Error), kit.Own(strings.Join(words, "; "), max(w-6, 0), m.styles.Error))
}
