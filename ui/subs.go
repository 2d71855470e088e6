package ui

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"context"
	"encoding/json"
	"fmt"
	"github.com/mcptui/mcptui/internal/inert"
	"github.com/mcptui/mcptui/keymap"
	"slices"
	"strings"

	"github.com/mcptui/mcptui/model"
	"github.com/mcptui/mcptui/ui/dialog"
	"github.com/mcptui/mcptui/ui/kit"
)

// subRows is how many rows each subscription takes.
const subRows = 4

// drawSubs draws each subscription on four rows: state, id, event count and
// age of the last event; the last event; the filter asked for; the filter
// the server accepted.
func (m *Model) drawSubs(w, h int) []string {
	st := m.styles
	subs := m.sess.Subscriptions()
	l := &m.lists[paneSubs]
	l.clamp(len(subs))
	if len(subs) == 0 {
		return []string{kit.Row(m.styles, w, false, kit.Own(joinSome(": ", "  no subscriptions", keymap.Hint(keymap.Described(m.keys.Subscriptions.Listen, "opens one"))), w, st.Muted))}
	}
	l.show(max(h/subRows, 1))
	now := m.now()
	var out []string
	for i := l.offset; i < len(subs) && len(out) < h; i++ {
		s := subs[i]
		sel := i == l.cursor && m.focus == paneSubs
		mark, markSt, textSt := "●", st.OK, st.Text
		state := "open"
		if !s.Open {
			mark, markSt, textSt, state = "○", st.Muted, st.Muted, s.EndReason
		}
		count := fmt.Sprintf("%d events", s.Events)
		if s.Events == 1 {
			count = "1 event"
		}
		if s.Events > 0 {
			count += ", last " + fmtAge(now.Sub(s.LastTime)) + " ago"
		}
		idW := min(12, max(w/5, 4))
		stateW := max(w-3-idW-1-len(count)-1, 4)
		out = append(out, kit.Row(m.styles, w, sel, kit.Own(" "+mark+" ", 3, markSt), kit.Srv(string(s.ID), idW, st.Muted), kit.Own(" ", 1, st.Text),
			kit.Srv(state, stateW, textSt), kit.Own(" "+count, w, st.Muted)))
		last := "no events yet"
		if s.Events > 0 {
			last = s.LastMethod + " " + s.LastSummary
		}
		accepted := "(not acknowledged yet)"
		switch {
		case s.Accepted == nil:
		case filterEqual(s.Asked, s.Accepted):
			accepted = "all of it"
		default:
			accepted = describeFilter(s.Accepted)
		}
		out = append(out,
			kit.Row(m.styles, w, sel, kit.Own("   last     ", 12, st.Muted), kit.Srv(last, w-12, textSt)),
			kit.Row(m.styles, w, sel, kit.Own("   asked    ", 12, st.Muted), kit.Srv(describeFilter(s.Asked), w-12, textSt)),
			kit.Row(m.styles, w, sel, kit.Own("   accepted ", 12, st.Muted), kit.Srv(accepted, w-12, textSt)))
	}
	if len(out) > h {
		out = out[:h]
	}
	return out
}

// describeFilter says what a subscriptions/listen filter asks for:
// "tools list, resources list; 2 resources: demo://a, demo://b". Unknown
// members are listed by name; a filter that is not an object is shown raw.
func describeFilter(raw json.RawMessage) string {
	var f map[string]json.RawMessage
	if err := json.Unmarshal(raw, &f); err != nil {
		return string(raw)
	}
	names := map[string]string{"toolsListChanged": "tools list", "promptsListChanged": "prompts list", "resourcesListChanged": "resources list"}
	var lists, rest []string
	var uris []string
	keys := make([]string, 0, len(f))
	for k := range f {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		v := f[k]
		switch {
		case names[k] != "":
			if string(v) == "true" {
				lists = append(lists, names[k])
			}
		case k == "resourceSubscriptions" || k == "resources":
			_ = json.Unmarshal(v, &uris)
		default:
			rest = append(rest, k+" "+string(v))
		}
	}
	parts := lists
	if len(uris) > 0 {
		word := "resources"
		if len(uris) == 1 {
			word = "resource"
		}
		parts = append(parts, fmt.Sprintf("%d %s: %s", len(uris), word, strings.Join(uris, ", ")))
	}
	parts = append(parts, rest...)
	if len(parts) == 0 {
		return "nothing"
	}
	return strings.Join(parts, "; ")
}

// filterEqual reports whether two filters say the same.
func filterEqual(a, b json.RawMessage) bool {
	return describeFilter(a) == describeFilter(b)
}

// selectedSub is the subscription under the cursor, or nil.
func (m *Model) selectedSub() *model.Subscription {
	subs := m.sess.Subscriptions()
	i := m.lists[paneSubs].cursor
	if i < 0 || i >= len(subs) {
		return nil
	}
	return subs[i]
}

func (m *Model) subsKey(msg tea.KeyPressMsg) tea.Cmd {
	k := m.keys.Subscriptions
	if key.Matches(msg, k.Listen) {
		return dialog.OpenListen(m, "")
	}
	s := m.selectedSub()
	if s == nil {
		return nil
	}
	switch {
	case key.Matches(msg, k.Close):
		if !s.Open {
			m.say(true, "this subscription is already closed")
			return nil
		}
		b, id := m.backend, s.ID
		return m.do(fmt.Sprintf("closed subscription %s", inert.Fit(string(id), 16)),
			func(ctx context.Context) error { return b.CloseSubscription(ctx, id) })
	case key.Matches(msg, k.Open):
		if c := m.sess.Call(s.Key); c != nil {
			m.openSeq(c.RequestSeq)
			return nil
		}
		// Not a listen request on the wire (an initialize-era one): show
		// its filters.
		raw, _ := json.Marshal(map[string]json.RawMessage{"asked": orNull(s.Asked), "accepted": orNull(s.Accepted)})
		m.openRaw("subscription "+string(s.ID), raw)
	}
	return nil
}

// openSubscriptions is how many subscriptions are open (pane 4's count,
// the catalog's too).
func (m *Model) openSubscriptions() int {
	n := 0
	for _, s := range m.sess.Subscriptions() {
		if s.Open {
			n++
		}
	}
	return n
}
