package ui

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"encoding/json"
	"fmt"
	"github.com/mcptui/mcptui/keymap"

	"github.com/mcptui/mcptui/internal/inert"
	"github.com/mcptui/mcptui/model"
	"github.com/mcptui/mcptui/ui/kit"
)

// viewer shows one traffic entry in kit's JSON viewer (its lazy face:
// only the visible lines are read, formatted and escaped), scrolled
// sideways by left cells.
type viewer struct {
	entry model.Entry // a copy: the history may evict the original
	*kit.JSONView
	left int
}

func newViewer(e *model.Entry) *viewer {
	return &viewer{entry: *e, JSONView: kit.NewLazyJSONView(e.Raw)}
}

// viewerTitle says what is open.
func (v *viewer) title() string {
	e := &v.entry
	dir := "→"
	if e.Dir == model.In {
		dir = "←"
	}
	s := fmt.Sprintf("#%d %s %s · %s", e.Seq, dir, e.Kind, model.FormatSize(e.Size))
	if e.Seq == 0 {
		s = model.FormatSize(e.Size)
	}
	if len(e.ID) > 0 {
		s += " · id " + inert.Fit(string(e.ID), 16)
	}
	if e.Method != "" {
		s += " · " + inert.Fit(e.Method, 30)
	}
	if e.Link != 0 {
		s += fmt.Sprintf(" · ↔ #%d", e.Link)
	}
	return s
}

// View renders the viewer's body: h-1 lines of document and a position
// line.
func (v *viewer) View(m *Model, w, h int) []string {
	st := m.styles
	e := &v.entry
	if e.Raw == nil {
		msg := "this line was not kept"
		switch {
		case e.Kind == model.KindDiscarded:
			msg = "discarded (" + e.Reason + "): the line was not kept"
		case e.Size > 0:
			msg = "the line (" + model.FormatSize(e.Size) + ") is larger than the history cap and was not kept"
		}
		return []string{kit.Row(m.styles, w, false, kit.Srv(" "+msg, w, st.Muted))}
	}
	out := v.Rows(st, v.left, w, max(h-1, 1))
	status, text := v.Status()
	pos := " " + status
	if v.left > 0 {
		pos += fmt.Sprintf(" · column %d", v.left+1)
	}
	if !text {
		pos += " · " + keymap.Hint(keymap.Described(m.keys.Viewer.Fold, "folds"))
	}
	out = append(out, kit.Row(m.styles, w, false, kit.Own(pos, w, st.Muted)))
	return out
}

// openSeq opens the viewer on a traffic entry, if it is still kept.
func (m *Model) openSeq(seq uint64) {
	e := m.sess.History().BySeq(seq)
	if e == nil {
		m.say(true, "that line is no longer in the history")
		return
	}
	m.openEntry(e)
}

// openEntry opens the viewer on an entry.
func (m *Model) openEntry(e *model.Entry) {
	m.show(newViewer(e))
}

// openRaw opens the viewer on a piece of JSON that is not a traffic line.
func (m *Model) openRaw(title string, raw json.RawMessage) {
	m.show(newViewer(&model.Entry{Raw: raw, Size: len(raw), Method: title}))
}

// orNull is raw, or JSON null when there is none.
func orNull(raw json.RawMessage) json.RawMessage {
	if len(raw) == 0 {
		return json.RawMessage("null")
	}
	return raw
}

// Update drives the viewer by its keys.
func (v *viewer) Update(m *Model, msg tea.Msg) tea.Cmd {
	if k, ok := msg.(tea.KeyPressMsg); ok {
		return v.key(m, k)
	}
	return nil
}

// key moves, folds, jumps, copies or closes the viewer.
func (v *viewer) key(m *Model, msg tea.KeyPressMsg) tea.Cmd {
	l, t, vk := m.keys.List, m.keys.Traffic, m.keys.Viewer
	page := max(bodyRect(m.width, m.height).h-4, 1)
	switch {
	case key.Matches(msg, m.keys.Overlay.Close, m.keys.Global.Quit):
		m.closeOverlay(v)
	case key.Matches(msg, l.Up):
		v.MoveBy(-1)
	case key.Matches(msg, l.Down):
		v.MoveBy(1)
	case key.Matches(msg, l.PageUp):
		v.MoveBy(-page)
	case key.Matches(msg, l.PageDown):
		v.MoveBy(page)
	case key.Matches(msg, l.Top):
		v.Home()
		v.left = 0
	case key.Matches(msg, l.Bottom):
		v.End()
	case key.Matches(msg, l.Left):
		v.left = max(v.left-8, 0)
	case key.Matches(msg, l.Right):
		v.left += 8
	case key.Matches(msg, vk.Fold):
		if !v.ToggleFold() {
			m.say(true, "nothing to fold here")
		}
	case key.Matches(msg, vk.FoldAll):
		v.FoldAll()
	case key.Matches(msg, vk.UnfoldAll):
		v.UnfoldAll()
	case key.Matches(msg, t.Jump):
		if v.entry.Link == 0 {
			m.say(true, "no linked request or response")
		} else {
			m.openSeq(v.entry.Link)
		}
	case key.Matches(msg, t.Copy):
		return m.copyEntry(&v.entry)
	case key.Matches(msg, vk.CopyValue):
		val := v.ValueAt()
		if val == nil {
			m.say(true, "no value under the cursor")
			return nil
		}
		cmd, status, ok := kit.Copy(string(val), "value", "fold it ("+vk.Fold.Help().Key+") and copy a smaller part")
		m.say(!ok, "%s", status)
		return cmd
	}
	return nil
}

// wheel scrolls the document.
func (v *viewer) wheel(_ *Model, delta int) { v.MoveBy(delta) }

// Title says what is open.
func (v *viewer) Title(*Model) string { return v.title() }

// Context is the viewer's.
func (v *viewer) Context(*Model) keymap.Context { return keymap.ViewerOverlay }

// Keys are the context's.
func (v *viewer) Keys(*Model) []key.Binding { return nil }
