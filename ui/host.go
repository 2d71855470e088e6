package ui

import (
	"encoding/json"
	"fmt"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/mcptui/mcptui/internal/backend"
	"github.com/mcptui/mcptui/keymap"
	"github.com/mcptui/mcptui/model"
	"github.com/mcptui/mcptui/themes"
	"github.com/mcptui/mcptui/ui/catalog/argstore"
	"github.com/mcptui/mcptui/ui/composer"
	"github.com/mcptui/mcptui/ui/dialog"
	"github.com/mcptui/mcptui/ui/overlay"
	"github.com/mcptui/mcptui/ui/viewer"
)

// The model is the host of the overlays kept in packages of their own
// (ui/overlay.Host, and the narrower interfaces of ui/composer and
// ui/dialog): these methods are all such an overlay sees of it.
var (
	_ overlay.Host  = (*Model)(nil)
	_ composer.Host = (*Model)(nil)
	_ dialog.Host   = (*Model)(nil)
	_ viewer.Host   = (*Model)(nil)

	_ Overlay = (*composer.Composer[*Model])(nil)
	_ Overlay = (*dialog.Version[*Model])(nil)
	_ Overlay = (*dialog.Reject[*Model])(nil)
	_ Overlay = (*dialog.Policies[*Model])(nil)
	_ Overlay = (*dialog.Listen[*Model])(nil)
	_ Overlay = (*viewer.Viewer[*Model])(nil)
)

// Keys are the bindings in use.
func (m *Model) Keys() *keymap.KeyMap { return &m.keys }

// Styles are the current theme's styles.
func (m *Model) Styles() *themes.Styles { return m.styles }

// Backend is the connection.
func (m *Model) Backend() backend.Backend { return m.backend }

// Say sets the status line.
func (m *Model) Say(isErr bool, format string, args ...any) { m.say(isErr, format, args...) }

// CloseOverlay closes the overlay o and whatever was opened over it.
func (m *Model) CloseOverlay(o any) {
	if o, ok := o.(Overlay); ok {
		m.closeOverlay(o)
	}
}

// Show opens the overlay o in place of whatever overlays were open. o
// that is not an Overlay of the Model is a programming error (the compile
// cannot catch it through Host): it panics, naming the type.
func (m *Model) Show(o any) {
	ov, ok := o.(Overlay)
	if !ok {
		panic(fmt.Sprintf("ui: Show(%T): not an Overlay of *ui.Model", o))
	}
	m.show(ov)
}

// AnswerQuestion sends ans to q, and marks it st once it is sent.
func (m *Model) AnswerQuestion(q *model.Question, ans json.RawMessage, st model.QuestionState) tea.Cmd {
	return m.sendAnswer(q, ans, st)
}

// RejectQuestion sends the error e to q, and marks it rejected once it is
// sent.
func (m *Model) RejectQuestion(q *model.Question, e model.RPCError) tea.Cmd {
	return m.sendReject(q, e)
}

// Roots are the roots the client offers, as the person edited them.
func (m *Model) Roots() []model.Root { return m.rootList().Get() }

// OpenSeq opens the viewer on the traffic line seq, if it is still kept.
func (m *Model) OpenSeq(seq uint64) { m.openSeq(seq) }

// CopyEntry copies a traffic line to the clipboard.
func (m *Model) CopyEntry(e *model.Entry) tea.Cmd { return m.copyEntry(e) }

// Page is how many rows pgup and pgdn move in an overlay: the body's
// height less its box and a status line.
func (m *Model) Page() int { return max(bodyRect(m.width, m.height).h-4, 1) }

// Catalog is the server as the catalog sees it (nil: no catalog).
func (m *Model) Catalog() backend.Catalog { return m.opts.Catalog }

// ArgStore remembers the arguments sent across runs (nil: it does not).
func (m *Model) ArgStore() *argstore.Store { return m.opts.ArgStore }

// Now is the time to draw with.
func (m *Model) Now() time.Time { return m.now() }
