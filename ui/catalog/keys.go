package catalog

import (
	"encoding/json"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/mcptui/mcptui/mcp"
	"github.com/mcptui/mcptui/skills"
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
		switch {
		case key.Matches(msg, m.keys.Catalog.Back):
			m.leaveRun()
		case key.Matches(msg, m.keys.Catalog.Cancel):
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
	if cmd, ok := m.screenKey(msg); ok {
		return cmd
	}
	if m.tab == Log {
		return m.logKey(msg)
	}
	return m.rowKey(msg)
}

// screenKey handles the keys that work on every tab (closing, switching
// tabs, the level, subscribe and roots dialogs, listing again); ok is false
// for any other key.
func (m *Model) screenKey(msg tea.KeyPressMsg) (cmd tea.Cmd, ok bool) {
	c := m.keys.Catalog
	switch {
	case key.Matches(msg, c.Back):
		if m.filters[m.tab] != "" {
			m.filters[m.tab] = ""
			return nil, true
		}
		m.close = true
	case key.Matches(msg, c.NextList):
		m.setTab(m.nextTab(1))
	case key.Matches(msg, c.PrevList):
		m.setTab(m.nextTab(kinds - 1))
	case key.Matches(msg, c.Tools):
		m.setTab(Tools)
	case key.Matches(msg, c.Resources):
		m.setTab(Resources)
	case key.Matches(msg, c.Templates):
		m.setTab(Templates)
	case key.Matches(msg, c.Prompts):
		m.setTab(Prompts)
	case key.Matches(msg, c.Skills):
		if !m.offered(Skills) {
			m.say(true, "the server declares no "+skills.ExtensionID+" extension: it serves no skills")
			return nil, true
		}
		m.setTab(Skills)
	case key.Matches(msg, c.Log):
		m.setTab(Log)
	case key.Matches(msg, c.Level):
		if info := m.srv.Info(); info.Capabilities.Logging == nil && !mcp.Stateless(info.Version) {
			// MCP: only what the server declared is requested.
			m.say(true, "the server declares no logging capability: logging/setLevel is not sent")
			return nil, true
		}
		m.dlg = dialog{kind: dlgLevel, level: kit.NewLevelPicker(m.log.Conn().LogLevel)}
	case key.Matches(msg, c.Subscribe):
		if m.opts.Subscribe != nil {
			uri := ""
			if r := m.current(); r != nil && r.it.res != nil {
				uri = r.it.res.URI
			}
			return m.opts.Subscribe(uri), true
		}
		m.dlg = dialog{kind: dlgSubscribe, picked: map[int]bool{}}
	case key.Matches(msg, c.Roots):
		m.openRoots()
	case key.Matches(msg, c.Relist):
		m.say(false, "listing again…")
		return m.refreshAll(), true
	default:
		return nil, false
	}
	return nil, true
}

// rowKey handles the keys of a list tab: filtering, moving the cursor,
// scrolling the detail, opening and copying the selected row.
func (m *Model) rowKey(msg tea.KeyPressMsg) tea.Cmd {
	l := m.lists[m.tab]
	n := l.rows(m.filters[m.tab]).len()
	c, mv := m.keys.Catalog, m.keys.List
	switch {
	case key.Matches(msg, c.Filter):
		// A fresh filter: the old one is shown selected, so typing
		// replaces it and an arrow keeps it to edit.
		m.filtering = true
		m.filter = kit.NewLineEdit(m.filters[m.tab])
		m.filter.SelectAll()
	case key.Matches(msg, mv.Up):
		l.cursor = max(l.cursor-1, 0)
		m.scroll = 0
	case key.Matches(msg, mv.Down):
		l.cursor = min(l.cursor+1, max(n-1, 0))
		m.scroll = 0
	case key.Matches(msg, mv.PageUp) && !key.Matches(msg, c.DetailUp):
		l.cursor = max(l.cursor-10, 0)
	case key.Matches(msg, mv.PageDown) && !key.Matches(msg, c.DetailDown):
		l.cursor = min(l.cursor+10, max(n-1, 0))
	case key.Matches(msg, c.Top):
		l.cursor = 0
	case key.Matches(msg, c.Bottom):
		l.cursor = max(n-1, 0)
	case key.Matches(msg, c.DetailDown):
		m.scroll++
	case key.Matches(msg, c.DetailUp):
		m.scroll = max(m.scroll-1, 0)
	case key.Matches(msg, c.Open):
		if r := m.current(); r != nil {
			return m.open(r)
		}
	case key.Matches(msg, c.App) && m.tab == Tools:
		if r := m.current(); r != nil && r.it.tool != nil && !r.removed {
			return m.openApp(*r.it.tool)
		}
	case key.Matches(msg, c.Copy):
		if r := m.current(); r != nil {
			cmd, status, ok := kit.Copy(string(r.it.raw), "entry's JSON", "")
			m.say(!ok, status)
			return cmd
		}
	}
	return nil
}

// nextTab is the tab step tabs away (mod kinds), passing over the Skills
// tab where the server declares no skills.
func (m *Model) nextTab(step Kind) Kind {
	k := (m.tab + step) % kinds
	if k == Skills && !m.offered(Skills) {
		k = (k + step) % kinds
	}
	return k
}

// setTab shows another list.
func (m *Model) setTab(k Kind) {
	m.tab, m.scroll = k, 0
}

// filterKey edits the filter: it applies as it is typed.
func (m *Model) filterKey(msg tea.KeyPressMsg) tea.Cmd {
	mv := m.keys.List
	switch {
	case key.Matches(msg, m.keys.Traffic.KeepFilter, mv.Up, mv.Down) && msg.Text == "":
		m.filtering = false
	case key.Matches(msg, m.keys.Traffic.ClearFilter):
		m.filtering = false
		m.filters[m.tab] = ""
	default:
		m.filter.Key(msg, m.keys.Text)
		m.filters[m.tab] = m.filter.Value()
		m.lists[min(m.tab, Skills)].cursor = 0
	}
	return nil
}

// logKey moves in the log pane; enter opens an entry's data.
func (m *Model) logKey(msg tea.KeyPressMsg) tea.Cmd {
	p := m.logs
	rows := p.rows()
	n := len(rows)
	if p.follow {
		p.cursor = max(n-1, 0)
	}
	c, mv := m.keys.Catalog, m.keys.List
	switch {
	case key.Matches(msg, mv.Up):
		p.move(-1, n)
	case key.Matches(msg, mv.Down):
		p.move(1, n)
	case key.Matches(msg, mv.PageUp):
		p.move(-10, n)
	case key.Matches(msg, mv.PageDown):
		p.move(10, n)
	case key.Matches(msg, c.Bottom):
		p.move(n, n)
	case key.Matches(msg, c.Top):
		p.move(-n, n)
	case key.Matches(msg, c.Open):
		if p.cursor < n {
			m.openLogRow(rows[p.cursor])
		}
	}
	return nil
}

// openLogRow opens a row's data: an event's, or a log message's as the
// server sent it (read from the book's traffic line).
func (m *Model) openLogRow(r logRow) {
	var level string
	var at time.Time
	var data json.RawMessage
	if r.ev >= 0 {
		e := m.logs.events[r.ev]
		level, at, data = e.level, e.at, e.data
	} else {
		b := m.log.Logs()
		e := b.At(r.msg)
		level, at, data = e.Level, e.Time, b.Data(r.msg)
	}
	if len(data) == 0 {
		return
	}
	if jv, err := kit.NewJSONView(data); err == nil {
		m.push(&result{title: "log " + level, at: at, raw: data, saveBase: "log",
			items: []*ritem{{kind: "data", head: "data", jv: jv, raw: data}}})
	}
}
