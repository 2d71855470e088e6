// Package viewer is the inspector's JSON viewer of one traffic line, a
// result or any piece of JSON (enter on a line, i and o on a request): an
// overlay of the root model (ui.Overlay) kept out of the root package,
// generic over its host H and constrained by Host, which *ui.Model
// implements. The root opens it (ui/viewer.go: openSeq, openEntry,
// openRaw).
package viewer

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"fmt"
	"github.com/mcptui/mcptui/keymap"

	"github.com/mcptui/mcptui/internal/inert"
	"github.com/mcptui/mcptui/model"
	"github.com/mcptui/mcptui/ui/kit"
	"github.com/mcptui/mcptui/ui/overlay"
)

// Host is the root model as the viewer sees it: an overlay's host that
// opens another traffic line (the linked request or response), copies a
// line, and says how many rows a page is.
type Host interface {
	overlay.Host
	// OpenSeq opens the viewer on the traffic line seq, or says it is no
	// longer kept.
	OpenSeq(seq uint64)
	// CopyEntry copies a traffic line to the clipboard.
	CopyEntry(e *model.Entry) tea.Cmd
	// Page is how many rows pgup and pgdn move.
	Page() int
}

// Viewer shows one traffic entry in kit's JSON viewer (its lazy face:
// only the visible lines are read, formatted and escaped), scrolled
// sideways by left cells. It is an overlay of the root model H.
type Viewer[H Host] struct {
	entry model.Entry // a copy: the history may evict the original
	*kit.JSONView
	left int
}

// New is the viewer of e (a copy of it).
func New[H Host](e *model.Entry) *Viewer[H] {
	return &Viewer[H]{entry: *e, JSONView: kit.NewLazyJSONView(e.Raw)}
}

// viewerTitle says what is open.
func (v *Viewer[H]) title() string {
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
func (v *Viewer[H]) View(m H, w, h int) []string {
	st := m.Styles()
	e := &v.entry
	if e.Raw == nil {
		msg := "this line was not kept"
		switch {
		case e.Kind == model.KindDiscarded:
			msg = "discarded (" + e.Reason + "): the line was not kept"
		case e.Size > 0:
			msg = "the line (" + model.FormatSize(e.Size) + ") is larger than the history cap and was not kept"
		}
		return []string{kit.Row(m.Styles(), w, false, kit.Srv(" "+msg, w, st.Muted))}
	}
	out := v.Rows(st, v.left, w, max(h-1, 1))
	status, text := v.Status()
	pos := " " + status
	if v.left > 0 {
		pos += fmt.Sprintf(" · column %d", v.left+1)
	}
	if !text {
		pos += " · " + keymap.Hint(keymap.Described(m.Keys().Viewer.Fold, "folds"))
	}
	out = append(out, kit.Row(m.Styles(), w, false, kit.Own(pos, w, st.Muted)))
	return out
}

// Update drives the viewer by its keys.
func (v *Viewer[H]) Update(m H, msg tea.Msg) tea.Cmd {
	if k, ok := msg.(tea.KeyPressMsg); ok {
		return v.key(m, k)
	}
	return nil
}

// key moves, folds, jumps, copies or closes the viewer.
func (v *Viewer[H]) key(m H, msg tea.KeyPressMsg) tea.Cmd {
	l, t, vk := m.Keys().List, m.Keys().Traffic, m.Keys().Viewer
	page := m.Page()
	switch {
	case key.Matches(msg, m.Keys().Overlay.Close, m.Keys().Global.Quit):
		m.CloseOverlay(v)
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
			m.Say(true, "nothing to fold here")
		}
	case key.Matches(msg, vk.FoldAll):
		v.FoldAll()
	case key.Matches(msg, vk.UnfoldAll):
		v.UnfoldAll()
	case key.Matches(msg, t.Jump):
		if v.entry.Link == 0 {
			m.Say(true, "no linked request or response")
		} else {
			m.OpenSeq(v.entry.Link)
		}
	case key.Matches(msg, t.Copy):
		return m.CopyEntry(&v.entry)
	case key.Matches(msg, vk.CopyValue):
		val := v.ValueAt()
		if val == nil {
			m.Say(true, "no value under the cursor")
			return nil
		}
		cmd, status, ok := kit.Copy(string(val), "value", "fold it ("+vk.Fold.Help().Key+") and copy a smaller part")
		m.Say(!ok, "%s", status)
		return cmd
	}
	return nil
}

// Wheel scrolls the document.
func (v *Viewer[H]) Wheel(_ H, delta int) { v.MoveBy(delta) }

// Entry is the traffic line shown.
func (v *Viewer[H]) Entry() model.Entry { return v.entry }

// Title says what is open.
func (v *Viewer[H]) Title(H) string { return v.title() }

// Context is the viewer's.
func (v *Viewer[H]) Context(H) keymap.Context { return keymap.ViewerOverlay }

// Keys are the context's.
func (v *Viewer[H]) Keys(H) []key.Binding { return nil }
