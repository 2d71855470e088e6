// Package overlay is what an overlay kept in a package of its own (the
// composer, ui/composer) sees of the inspector's root model: the Host
// interface *ui.Model implements, and the message it sends back when a
// call it made is done.
//
// The root's Overlay interface (ui/overlay.go) takes the root model in
// each method. An overlay outside the root package is generic over the
// host, constrained by Host (or a narrower interface that embeds it):
// instantiated with *ui.Model its methods are the ones Overlay asks for,
// and it reaches the root through Host alone.
package overlay

import (
	"github.com/mcptui/mcptui/internal/backend"
	"github.com/mcptui/mcptui/keymap"
	"github.com/mcptui/mcptui/model"
	"github.com/mcptui/mcptui/themes"
)

// Host is the root model as an overlay sees it.
type Host interface {
	// Keys are the bindings in use (read only).
	Keys() *keymap.KeyMap
	// Styles are the current theme's styles.
	Styles() *themes.Styles
	// Session is the state the program draws.
	Session() *model.Session
	// Backend is the connection, for the calls an overlay makes in its
	// Cmds.
	Backend() backend.Backend
	// Say sets the status line.
	Say(isErr bool, format string, args ...any)
	// CloseOverlay closes o (the overlay itself) and whatever was opened
	// over it.
	CloseOverlay(o any)
}

// Done is the result of a call an overlay made in a Cmd: the status line
// says What, or that it failed with Err.
type Done struct {
	What string
	Err  error
}
