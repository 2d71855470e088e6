package keymap

import (
	"reflect"
	"slices"
	"testing"

	"charm.land/bubbles/v2/key"
)

// TestSendersShareNoKeyWithViewing: a read-only inspector refuses a
// sending key before the pane's own keys, so no sending key may also be a
// viewing key where it is refused (f answers in pane 2 but follows in
// traffic: fine; the same in one pane would lose the viewing key).
func TestSendersShareNoKeyWithViewing(t *testing.T) {
	m := Default()
	s := m.Senders()
	var all []key.Binding
	for _, b := range s.Everywhere {
		all = append(all, *b)
	}
	for _, bs := range s.Here {
		for _, b := range bs {
			all = append(all, *b)
		}
	}
	sending := func(b key.Binding) bool {
		return slices.ContainsFunc(all, func(x key.Binding) bool { return reflect.DeepEqual(x, b) })
	}
	g := m.Global
	panes := []Context{InFlightPane, PendingPane, TrafficPane, SubscriptionsPane, StderrPane, LogPane, ServerPane, NetworkPane}
	for _, c := range panes {
		viewing := append(append(m.Local(c), m.paneKeys()...), m.everywhereKeys()...)
		viewing = append(viewing, m.List.Up, m.List.Down, m.List.PageUp, m.List.PageDown, m.List.Top, m.List.Bottom, g.Quit, g.Help)
		refused := slices.Clone(s.Everywhere)
		refused = append(refused, s.Here[c]...)
		for _, r := range refused {
			for _, v := range viewing {
				if sending(v) {
					continue
				}
				for _, k := range r.Keys() {
					if slices.Contains(v.Keys(), k) {
						t.Errorf("context %d: %q is both %q (sends) and %q (views)", c, k, r.Help().Desc, v.Help().Desc)
					}
				}
			}
		}
	}
}
