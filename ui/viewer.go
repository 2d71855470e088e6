package ui

import (
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

// drawViewer renders the viewer's body: h-1 lines of document and a
// position line.
func (m *Model) drawViewer(v *viewer, w, h int) []string {
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
