package composer

import (
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/mcptui/mcptui/keymap"
	"github.com/mcptui/mcptui/ui/kit"
)

// methodName is the method typed.
func (c *Composer[H]) methodName() string { return strings.TrimSpace(c.method.Value()) }

// suggesting reports whether a suggestion list is open under the field.
func (c *Composer[H]) suggesting() bool {
	return (c.field == fieldMethod || c.field == fieldTarget) && len(c.suggestions) > 0
}

// refreshSuggestions lists what fits what is typed in the field: the
// methods the server offers, or the method's targets.
func (c *Composer[H]) refreshSuggestions() {
	c.argsFollowFields()
	c.suggestions, c.pick = nil, 0
	if c.offer == nil {
		return
	}
	switch c.field {
	case fieldMethod:
		c.suggestions = suggest(c.offer.methods, c.method.Value())
	case fieldTarget:
		c.suggestions = suggest(c.offer.targetsOf(c.methodName()), c.target.Value())
	}
}

// accept takes the selected suggestion (or what is typed) and moves on:
// a method with targets to the target field, otherwise to the params,
// started from the method's skeleton; a target with a form opens it (the
// same method or target again keeps what is there).
func (c *Composer[H]) accept() {
	switch c.field {
	case fieldMethod:
		if len(c.suggestions) > 0 {
			c.method.SetValue(c.suggestions[c.pick])
		}
		if c.args != nil && c.args.method == c.methodName() {
			// The same method again: its target and form stay.
			c.field = fieldTarget
			break
		}
		c.target.SetValue("")
		c.args = nil
		c.params.SetValue(kit.JSONSafe(c.offer.paramsSkeleton(c.methodName(), ""))) // the textarea draws raw
		c.field = fieldParams
		if c.offer.targetsOf(c.methodName()) != nil {
			c.field = fieldTarget
		}
	case fieldTarget:
		if len(c.suggestions) > 0 {
			c.target.SetValue(c.suggestions[c.pick])
		}
		target := strings.TrimSpace(c.target.Value())
		c.field = fieldParams
		if c.args != nil && c.args.target == target {
			c.enterArgs(true) // the same target again: its form stays, filled
			break
		}
		c.params.SetValue(kit.JSONSafe(c.offer.paramsSkeleton(c.methodName(), target))) // quotes the server's names
		c.args = c.argsFor(c.methodName(), target)
	}
	c.focusField()
	c.refreshSuggestions()
}

// OfferArrived takes the server's offer, when it is of the connection
// generation m's session is at.
func (c *Composer[H]) OfferArrived(m H, msg OfferMsg) {
	if msg.gen != m.Session().Conn().Gen {
		return
	}
	c.offer, c.offerGen = msg.offer, msg.gen
	c.refreshSuggestions()
}

// requestOffer lists what the server offers, when the composer has no offer
// of this connection's yet.
func (c *Composer[H]) requestOffer(m H) tea.Cmd {
	c.store, c.st, c.keys, c.now = m.ArgStore(), m.Styles(), *m.Keys(), m.Now
	srv, gen := m.Catalog(), m.Session().Conn().Gen
	if srv == nil || (c.offer != nil && c.offerGen == gen) {
		return nil
	}
	list := listOffer(srv, gen)
	return func() tea.Msg { return list() }
}

// drawSuggestions draws the open suggestion list under a field.
func (c *Composer[H]) drawSuggestions(m H, w int) []string {
	st := m.Styles()
	var out []string
	for i, s := range c.suggestions {
		mark := "   "
		if i == c.pick {
			mark = " ▸ "
		}
		out = append(out, kit.Row(st, w, i == c.pick, kit.Own("", 11, st.Muted), kit.Own(mark, 3, st.Accent), kit.Srv(s, w-14, st.Text)))
	}
	return out
}

// paste goes to the focused field.
func (c *Composer[H]) paste(msg tea.PasteMsg) tea.Cmd {
	var none keymap.Text // a paste is no key
	var cmd tea.Cmd
	switch c.field {
	case fieldMethod:
		c.method.update(msg, none)
		c.refreshSuggestions()
	case fieldTarget:
		c.target.update(msg, none)
		c.refreshSuggestions()
	case fieldTimeout:
		c.timeout.update(msg, none)
	case fieldParams:
		if c.args != nil && !c.args.raw {
			cmd = c.args.form.Update(msg)
			break
		}
		c.params, cmd = c.params.Update(msg)
	}
	c.refreshSuggestions()
	return cmd
}
