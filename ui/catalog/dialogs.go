package catalog

import (
	"charm.land/bubbles/v2/key"
	"fmt"
	"github.com/mcptui/mcptui/keymap"

	tea "charm.land/bubbletea/v2"

	"github.com/mcptui/mcptui/mcp"
	"github.com/mcptui/mcptui/ui/answer"
	"github.com/mcptui/mcptui/ui/kit"
)

// dialogKind is a small dialog over the catalog.
type dialogKind int

const (
	dlgNone dialogKind = iota
	dlgSave
	dlgLevel
	dlgSubscribe
	dlgRoots
)

// dialog is the open dialog's state.
type dialog struct {
	kind   dialogKind
	save   *saveDialog
	cursor int
	// level is the log level picker (the inspector's too).
	level *kit.LevelPicker
	// subscribe: what is picked, by row.
	picked map[int]bool
	roots  *answer.Roots
}

// subRows are the rows of the subscribe dialog: the three list kinds,
// then each resource, then the open subscriptions (to close).
type subRow struct {
	label string
	uri   string
	kind  int // 0 tools, 1 prompts, 2 resources list changed, 3 a resource, 4 an open subscription
	sub   *sub
}

func (m *Model) subRows() []subRow {
	rows := []subRow{
		{label: "tools list changed", kind: 0},
		{label: "prompts list changed", kind: 1},
		{label: "resources list changed", kind: 2},
	}
	for _, it := range m.lists[Resources].items {
		rows = append(rows, subRow{label: "updates of " + it.key, uri: it.key, kind: 3})
	}
	for _, s := range m.subs {
		if !s.auto {
			rows = append(rows, subRow{label: fmt.Sprintf("open subscription %d: %d events, accepted %s", s.id, s.events, s.accepted), kind: 4, sub: s})
		}
	}
	return rows
}

// levelSetMsg reports logging level changes.
type levelSetMsg struct {
	level string
	err   error
}

// dialogKey handles keys in a dialog.
func (m *Model) dialogKey(msg tea.KeyPressMsg) tea.Cmd {
	d := &m.dlg
	c, mv := m.keys.Catalog, m.keys.List
	switch d.kind {
	case dlgSave:
		switch {
		case key.Matches(msg, c.Back):
			d.kind = dlgNone
		case key.Matches(msg, c.Choose, c.Send):
			s := d.save
			d.kind = dlgNone
			return m.save(s)
		default:
			d.save.path.Key(msg, m.keys.Text)
		}
	case dlgLevel:
		level, done := d.level.Key(msg, &m.keys)
		if done {
			d.kind = dlgNone
		}
		if level != "" {
			srv, ctx := m.srv, m.ctx
			return func() tea.Msg { return levelSetMsg{level: level, err: srv.SetLogLevel(ctx, level)} }
		}
	case dlgSubscribe:
		rows := m.subRows()
		switch {
		case key.Matches(msg, c.Back):
			d.kind = dlgNone
		case key.Matches(msg, mv.Up):
			d.cursor = max(d.cursor-1, 0)
		case key.Matches(msg, mv.Down):
			d.cursor = min(d.cursor+1, len(rows)-1)
		case key.Matches(msg, c.Toggle):
			if d.cursor < len(rows) && rows[d.cursor].kind == 4 {
				d.kind = dlgNone
				return m.closeSub(rows[d.cursor].sub)
			}
			d.picked[d.cursor] = !d.picked[d.cursor]
		case key.Matches(msg, c.Choose):
			var f mcp.Filter
			for i, r := range rows {
				if !d.picked[i] {
					continue
				}
				switch r.kind {
				case 0:
					f.ToolsListChanged = true
				case 1:
					f.PromptsListChanged = true
				case 2:
					f.ResourcesListChanged = true
				case 3:
					f.ResourceSubscriptions = append(f.ResourceSubscriptions, r.uri)
				}
			}
			if !f.ToolsListChanged && !f.PromptsListChanged && !f.ResourcesListChanged && len(f.ResourceSubscriptions) == 0 {
				m.say(true, "pick something to subscribe to ("+c.Toggle.Help().Key+")")
				return nil
			}
			d.kind = dlgNone
			m.say(false, "subscribing…")
			return m.listen(f, false)
		}
	case dlgRoots:
		cmd := d.roots.Update(msg)
		if out, done := d.roots.Done(); done {
			d.kind = dlgNone
			if !out.Closed && d.roots.Changed {
				return tea.Batch(cmd, m.rootsChanged())
			}
		}
		return cmd
	}
	return nil
}

// rootsChanged tells the server that the roots changed, as its protocol
// allows (the Server decides: a notification before 2026-07-28, nothing
// after).
func (m *Model) rootsChanged() tea.Cmd {
	srv, ctx := m.srv, m.ctx
	return func() tea.Msg {
		did, err := srv.RootsChanged(ctx)
		if err != nil {
			return noticeMsg{text: "roots saved, but telling the server failed: " + err.Error(), err: true}
		}
		return noticeMsg{text: "roots saved; " + did}
	}
}

// openRoots opens the roots editor.
func (m *Model) openRoots() {
	if m.opts.Roots == nil {
		m.say(true, "no roots to edit here")
		return
	}
	m.dlg = dialog{kind: dlgRoots, roots: answer.NewRoots(nil, answer.Options{Styles: m.st, Roots: m.opts.Roots, Keys: &m.keys})}
}

// dialogView draws the open dialog in w×h.
func (m *Model) dialogView(w, h int) []string {
	st, c := m.st, m.keys.Catalog
	d := &m.dlg
	var body []string
	title := ""
	switch d.kind {
	case dlgSave:
		title = "Save to a file"
		what := "this item"
		if d.save.whole {
			what = "the whole result (JSON)"
		}
		body = []string{
			kit.Row(st, w-2, false, kit.Own(" Save "+what+" to (an existing file is not overwritten):", w-2, st.Muted)),
			kit.Row(st, w-2, false, kit.Txt(" ", st.Text), kit.Seg{S: d.save.path.View(w-4, true, st.Text, st.Selected, st.Muted, "path"), St: st.Text}),
			kit.Blank(w - 2),
			kit.Row(st, w-2, false, kit.Own(" "+keymap.Hint(keymap.Described(c.Choose, "saves"), keymap.Described(c.Back, "cancels")), w-2, st.Subtle)),
		}
	case dlgLevel:
		title = kit.LevelPickerTitle
		body = d.level.View(st, &m.keys, w-2, h-2, m.log.Conn().LogLevel, m.srv.Info().Version)
	case dlgSubscribe:
		title = "Subscribe"
		body = append(body, kit.Row(st, w-2, false, kit.Own(" Pick what to be told about ("+c.Toggle.Help().Key+"), then "+c.Choose.Help().Key+":", w-2, st.Muted)))
		rows := m.subRows()
		listH := max(h-4, 1)
		off := kit.Window(0, d.cursor, len(rows), listH)
		for i := off; i < len(rows) && i < off+listH; i++ {
			r := rows[i]
			mark := "[ ] "
			if r.kind == 4 {
				mark = " x  "
			} else if d.picked[i] {
				mark = "[x] "
			}
			body = append(body, kit.Row(st, w-2, i == d.cursor, kit.Txt("  "+mark, st.Accent), kit.SrvFree(r.label, w-8, st.Text)))
		}
		body = append(body, kit.Row(st, w-2, false, kit.Own(" "+keymap.Hint(keymap.Described(c.Toggle, "picks (closes an open one)"), keymap.Described(c.Choose, "subscribes"), keymap.Described(c.Back, "cancels")), w-2, st.Subtle)))
	case dlgRoots:
		title = d.roots.Title()
		body = d.roots.View(w-2, h-2)
	}
	return boxLines(st, w, h, title, body)
}
