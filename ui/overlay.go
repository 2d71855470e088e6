package ui

import (
	"slices"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/mcptui/mcptui/keymap"
	"github.com/mcptui/mcptui/ui/kit"
)

// Overlay is what covers the body for one short job: a dialog, an editor,
// the JSON viewer, a picker, the help. The root keeps the open ones in a
// stack (Model.overlays) and, with no switch on which one it is, gives
// the top one the keys and pastes, the body to draw, the footer and the
// help's context; every overlay on the stack gets the other messages (the
// results of its own Cmds).
//
// Adding a dialog is a file named after it holding a type that implements
// Overlay (its state, keys and drawing), and a call to m.show (or m.push)
// where it opens.
type Overlay interface {
	// Update handles a message: a key press or a paste while it is on
	// top (f1 is the root's: it opens the help over it), any other message
	// while it is on the stack. It closes itself with m.closeOverlay.
	Update(m *Model, msg tea.Msg) tea.Cmd
	// Title is its box's title, already safe to draw.
	Title(m *Model) string
	// View draws the inside of its box, w×h cells.
	View(m *Model, w, h int) []string
	// Context is where the keyboard is while it is on top: the footer's
	// keys and the help's sections.
	Context(m *Model) keymap.Context
	// Keys are its own keys for the help, most useful first (nil: the
	// context's, keymap.Local).
	Keys(m *Model) []key.Binding
}

// Optional parts of an overlay, asked for by the root where they apply.
type (
	// overlayFooter draws its own footer instead of the context's keys.
	overlayFooter interface {
		footer(m *Model, w int) string
	}
	// overlayFooterKeys are the keys its footer lists now, when they are
	// not the context's (nil: the context's). The method is exported: an
	// overlay of a package of its own (ui/composer) has it too.
	overlayFooterKeys interface {
		FooterKeys(m *Model) []key.Binding
	}
	// overlayWheel scrolls it with the mouse wheel; without it the wheel
	// does nothing while it is on top. The method is exported: the viewer
	// (ui/viewer) has it.
	overlayWheel interface {
		Wheel(m *Model, delta int)
	}
)

// footerKeys are the keys o's footer lists now, when it says (nil: the
// context's).
func (m *Model) footerKeys(o Overlay) []key.Binding {
	if o, ok := o.(overlayFooterKeys); ok {
		return o.FooterKeys(m)
	}
	return nil
}

// top is the overlay on top of the stack, or nil when the panes show.
func (m *Model) top() Overlay {
	if len(m.overlays) == 0 {
		return nil
	}
	return m.overlays[len(m.overlays)-1]
}

// show opens o in place of whatever overlays were open.
func (m *Model) show(o Overlay) {
	m.overlays = append(m.overlays[:0], o)
}

// push opens o over the overlay on top (the help, an answer editor):
// closing it goes back to that one.
func (m *Model) push(o Overlay) {
	m.overlays = append(m.overlays, o)
}

// closeOverlay closes o and whatever was opened over it; the overlay
// under it, if any, is on top again.
func (m *Model) closeOverlay(o Overlay) {
	if i := slices.Index(m.overlays, o); i >= 0 {
		clear(m.overlays[i:])
		m.overlays = m.overlays[:i]
	}
}

// drawOverlay draws the top overlay over the whole body.
func (m *Model) drawOverlay(o Overlay, w, h int) string {
	return kit.Box(m.styles, w, h, o.Title(m), true, o.View(m, w-2, h-2))
}

// toOverlays gives a message to every open overlay, bottom first.
func (m *Model) toOverlays(msg tea.Msg) tea.Cmd {
	var cmds []tea.Cmd
	for _, o := range slices.Clone(m.overlays) {
		cmds = append(cmds, o.Update(m, msg))
	}
	return tea.Batch(cmds...)
}
