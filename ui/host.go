package ui

import (
	"time"

	"github.com/mcptui/mcptui/internal/backend"
	"github.com/mcptui/mcptui/keymap"
	"github.com/mcptui/mcptui/themes"
	"github.com/mcptui/mcptui/ui/catalog/argstore"
	"github.com/mcptui/mcptui/ui/overlay"
)

// The model is the host of the overlays kept in packages of their own
// (ui/overlay.Host): these methods are all such an overlay sees of it.
var _ overlay.Host = (*Model)(nil)

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

// Catalog is the server as the catalog sees it (nil: no catalog).
func (m *Model) Catalog() backend.Catalog { return m.opts.Catalog }

// ArgStore remembers the arguments sent across runs (nil: it does not).
func (m *Model) ArgStore() *argstore.Store { return m.opts.ArgStore }

// Now is the time to draw with.
func (m *Model) Now() time.Time { return m.now() }
