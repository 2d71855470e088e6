package ui

import (
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/mcptui/mcptui/internal/backend"
	"github.com/mcptui/mcptui/keymap"
)

// refusedKeys are the sending keys of a read-only inspector, as they were
// bound before keys disabled them: pressed, they say why nothing happens.
type refusedKeys struct {
	everywhere []key.Binding
	here       map[keymap.Context][]key.Binding
}

// watchOnly disables keys' sending bindings (keymap.Senders), so that the
// footer, the help and the hints leave them out and no handler matches
// them, and returns them as they were bound.
func watchOnly(keys *keymap.KeyMap) refusedKeys {
	s := keys.Senders()
	r := refusedKeys{here: map[keymap.Context][]key.Binding{}}
	for _, b := range s.Everywhere {
		r.everywhere = append(r.everywhere, *b)
		b.SetEnabled(false)
	}
	for c, bs := range s.Here {
		for _, b := range bs {
			r.here[c] = append(r.here[c], *b)
			b.SetEnabled(false)
		}
	}
	return r
}

// refuse says, on the status line, that a read-only inspector only
// watches when msg is one of its sending keys where the keyboard is; it
// reports whether it did (the key then does nothing else).
func (m *Model) refuse(msg tea.KeyPressMsg) bool {
	r := m.refused
	if !key.Matches(msg, r.everywhere...) && !key.Matches(msg, r.here[m.context()]...) {
		return false
	}
	m.say(true, "%s", backend.ErrReadOnly)
	return true
}

// joinSome joins the parts that are not empty: a hint line whose key may
// be left out (a read-only inspector's sending keys have no hint).
func joinSome(sep string, parts ...string) string {
	var out []string
	for _, p := range parts {
		if p != "" {
			out = append(out, p)
		}
	}
	return strings.Join(out, sep)
}
