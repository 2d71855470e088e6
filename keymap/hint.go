package keymap

import (
	"strings"

	"charm.land/bubbles/v2/key"
)

// Hint is the one-line help of bindings, as every footer and hint line
// draws it: "ctrl+s send · esc close". Disabled bindings are left out, so
// a screen lists only what works now.
func Hint(bs ...key.Binding) string {
	var parts []string
	for _, bd := range bs {
		if !bd.Enabled() || bd.Help().Key == "" {
			continue
		}
		parts = append(parts, bd.Help().Key+" "+bd.Help().Desc)
	}
	return strings.Join(parts, " · ")
}

// Described is b with another description (its keys and help key kept):
// a hint that says what the key does on this screen.
func Described(bd key.Binding, desc string) key.Binding {
	bd.SetHelp(bd.Help().Key, desc)
	return bd
}

// Section is a titled column of the ? help.
type Section struct {
	Title string
	Keys  []key.Binding
}

// Sections is the ? help of a context: its own keys (here, when a child
// screen such as the catalog or an editor gives them; else Local), then
// movement, panes and the global keys where they work.
func (m KeyMap) Sections(c Context, here []key.Binding) []Section {
	if here == nil {
		here = m.Local(c)
	}
	out := []Section{{Title: "Here", Keys: here}}
	if c.TextEntry() {
		return append(out, Section{Title: "Everywhere", Keys: []key.Binding{Untypable(m.Global.Help)}})
	}
	l := m.List
	move := []key.Binding{l.Up, l.Down, l.PageUp, l.PageDown, l.Top, l.Bottom}
	if c == CatalogPane {
		// g and G pick the log tab there; its top and bottom are its own.
		move = []key.Binding{l.Up, l.Down, l.PageUp, l.PageDown, m.Catalog.Top, m.Catalog.Bottom}
	}
	out = append(out, Section{Title: "Move", Keys: move})
	if c.isOverlay() {
		return out
	}
	return append(out,
		Section{Title: "Panes", Keys: m.paneKeys()},
		Section{Title: "Everywhere", Keys: m.everywhereKeys()})
}

// paneKeys move the focus between panes; everywhereKeys work in every
// pane. Help's sections and its columns list the same ones.
func (m KeyMap) paneKeys() []key.Binding {
	g := m.Global
	return []key.Binding{g.NextPane, g.PrevPane, g.Pane1, g.Pane2, g.Pane3, g.Pane4, g.Pane5, g.Pane6, g.Pane7, g.Pane8}
}

func (m KeyMap) everywhereKeys() []key.Binding {
	g := m.Global
	return []key.Binding{g.Zoom, g.Compose, g.Catalog, g.LogLevel, g.Restart, g.Version, g.Help, g.Quit}
}

// HintFit is Hint cut to w cells between bindings, never inside one: the
// first bindings (the most useful) stay, and so does the last (the way
// out, by convention) while there is room for it.
func HintFit(w int, bs ...key.Binding) string {
	if len(bs) == 0 {
		return ""
	}
	if full := Hint(bs...); len([]rune(full)) <= w {
		return full
	}
	last := bs[len(bs)-1]
	room := w - len([]rune(Hint(last))) - len(" · ")
	if room <= 0 {
		return fitFirst(w, bs)
	}
	head := fitFirst(room, bs[:len(bs)-1])
	if head == "" {
		return Hint(last)
	}
	return head + " · " + Hint(last)
}

// fitFirst is as many of bs, from the first, as fit in w cells.
func fitFirst(w int, bs []key.Binding) string {
	out := ""
	for _, bd := range bs {
		next := Hint(bd)
		if next == "" {
			continue
		}
		if out != "" {
			next = out + " · " + next
		}
		if len([]rune(next)) > w {
			break
		}
		out = next
	}
	return out
}

// Pair is two bindings as one hint ("←/→ changes"), matching the keys of
// both.
func Pair(a, b key.Binding, desc string) key.Binding {
	return key.NewBinding(key.WithKeys(append(a.Keys(), b.Keys()...)...),
		key.WithHelp(a.Help().Key+"/"+b.Help().Key, desc))
}
