package keymap

import "charm.land/bubbles/v2/key"

// Picker keys choose a server from the user's host config files (mcptui
// with no arguments); movement is List's, leaving is Global.Quit or
// Overlay.Close.
type Picker struct {
	Open, Filter key.Binding
}

// DefaultPicker is the picker's default bindings.
func DefaultPicker() Picker {
	return Picker{
		Open:   b(k("enter"), "enter", "open server"),
		Filter: b(k("/"), "/", "filter"),
	}
}
