package explorer

import (
	tea "charm.land/bubbletea/v2"

	"github.com/mcptui/mcptui/mcp"
	"github.com/mcptui/mcptui/ui/kit"
)

// key routes a key: the dialog, the filter, the page, then the lists.
func (m *Model) key(msg tea.KeyPressMsg) tea.Cmd {
	m.notice, m.noticeErr = "", false
	if m.dlg.kind != dlgNone {
		return m.dialogKey(msg)
	}
	if m.filtering {
		return m.filterKey(msg)
	}
	switch m.page {
	case pageForm:
		return m.formKey(msg)
	case pageRunning:
		// esc goes back and never cancels: c cancels.
		switch msg.String() {
		case "esc":
			m.leaveRun()
		case "c":
			m.cancelRun()
		}
		return nil
	case pageResult:
		return m.resultKey(msg)
	case pageTask:
		return m.taskKey(msg)
	}
	return m.listKey(msg)
}

// paste goes to whatever has a text field open.
func (m *Model) paste(msg tea.PasteMsg) tea.Cmd {
	switch {
	case m.dlg.kind == dlgSave:
		m.dlg.save.path.Insert(msg.Content)
	case m.dlg.kind == dlgRoots:
		return m.dlg.roots.Update(msg)
	case m.filtering:
		m.filter.Insert(msg.Content)
		m.filters[m.tab] = m.filter.Value()
	case m.page == pageForm && m.act != nil:
		if m.act.editOpts {
			return m.act.opts.Update(msg)
		}
		return tea.Batch(m.act.form.Update(msg), m.suggest())
	}
	return nil
}

// listKey handles keys on the lists.
func (m *Model) listKey(msg tea.KeyPressMsg) tea.Cmd {
	k := msg.String()
	if cmd, ok := m.screenKey(k); ok {
		return cmd
	}
	if m.tab == Log {
		return m.logKey(k)
	}
	return m.rowKey(k)
}

// screenKey handles the keys that work on every tab (closing, switching
// tabs, the level, subscribe and roots dialogs, listing again); ok is false
// for any other key.
func (m *Model) screenKey(k string) (cmd tea.Cmd, ok bool) {
	switch k {
	case "esc":
		if m.filters[m.tab] != "" {
			m.filters[m.tab] = ""
			return nil, true
		}
		m.close = true
	case "right", "]", "l":
		m.setTab((m.tab + 1) % kinds)
	case "left", "[", "h":
		m.setTab((m.tab + kinds - 1) % kinds)
	case "t":
		m.setTab(Tools)
	case "R":
		m.setTab(Resources)
	case "T":
		m.setTab(Templates)
	case "p":
		m.setTab(Prompts)
	case "g":
		m.setTab(Log)
	case "L":
		if info := m.srv.Info(); info.Capabilities.Logging == nil && !mcp.Stateless(info.Version) {
			// MCP: only what the server declared is requested.
			m.say(true, "the server declares no logging capability: logging/setLevel is not sent")
			return nil, true
		}
		m.dlg = dialog{kind: dlgLevel}
		for i, l := range logLevels {
			if l == m.level {
				m.dlg.cursor = i
			}
		}
	case "s":
		m.dlg = dialog{kind: dlgSubscribe, picked: map[int]bool{}}
	case "o":
		m.openRoots()
	case "u", "ctrl+l":
		m.say(false, "listing again…")
		return m.refreshAll(), true
	default:
		return nil, false
	}
	return nil, true
}

// rowKey handles the keys of a list tab: filtering, moving the cursor,
// scrolling the detail, opening and copying the selected row.
func (m *Model) rowKey(k string) tea.Cmd {
	l := m.lists[m.tab]
	n := len(l.rows(m.filters[m.tab]))
	switch k {
	case "/":
		m.filtering = true
		m.filter = kit.NewLineEdit(m.filters[m.tab])
	case "up", "k":
		l.cursor = max(l.cursor-1, 0)
		m.scroll = 0
	case "down", "j":
		l.cursor = min(l.cursor+1, max(n-1, 0))
		m.scroll = 0
	case "pgup":
		l.cursor = max(l.cursor-10, 0)
	case "pgdown":
		l.cursor = min(l.cursor+10, max(n-1, 0))
	case "home":
		l.cursor = 0
	case "end":
		l.cursor = max(n-1, 0)
	case "J", "ctrl+d":
		m.scroll++
	case "K", "ctrl+u":
		m.scroll = max(m.scroll-1, 0)
	case "enter":
		if r := m.current(); r != nil {
			return m.open(r)
		}
	case "y":
		if r := m.current(); r != nil {
			cmd, status, ok := kit.Copy(string(r.it.raw), "entry's JSON", "")
			m.say(!ok, status)
			return cmd
		}
	}
	return nil
}

// setTab shows another list.
func (m *Model) setTab(k Kind) {
	m.tab, m.scroll = k, 0
}

// filterKey edits the filter: it applies as it is typed.
func (m *Model) filterKey(msg tea.KeyPressMsg) tea.Cmd {
	switch msg.String() {
	case "enter", "down", "up":
		m.filtering = false
	case "esc":
		m.filtering = false
		m.filters[m.tab] = ""
	default:
		m.filter.Key(msg)
		m.filters[m.tab] = m.filter.Value()
		m.lists[min(m.tab, Prompts)].cursor = 0
	}
	return nil
}

// logKey moves in the log pane; enter opens an entry's data.
func (m *Model) logKey(k string) tea.Cmd {
	p := m.logs
	switch k {
	case "up", "k":
		p.move(-1)
	case "down", "j":
		p.move(1)
	case "pgup":
		p.move(-10)
	case "pgdown":
		p.move(10)
	case "end", "G":
		p.move(len(p.entries))
	case "home":
		p.move(-len(p.entries))
	case "enter":
		if p.cursor < len(p.entries) {
			e := p.entries[p.cursor]
			if len(e.data) > 0 {
				if jv, err := kit.NewJSONView(e.data); err == nil {
					m.push(&result{title: "log " + e.level, at: e.at, raw: e.data, saveBase: "log",
						items: []*ritem{{kind: "data", head: "data", jv: jv, raw: e.data}}})
				}
			}
		}
	}
	return nil
}
