package composer

import (
	"errors"
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/mcptui/mcptui/internal/jsonscan"
	"github.com/mcptui/mcptui/keymap"
	"github.com/mcptui/mcptui/ui/kit"
	"github.com/mcptui/mcptui/ui/overlay"
)

// argsKey gives a key to the arguments form while the params
// field holds one: every key but the composer's own (send, close), and
// tab past the form's last field (shift+tab before its first) goes on to
// the composer's fields. The raw JSON key switches between the form and
// the params as JSON. ok is false for a key the composer handles.
func (c *Composer[H]) argsKey(m H, msg tea.KeyPressMsg) (cmd tea.Cmd, ok bool) {
	a := c.args
	if c.field != fieldParams || a == nil {
		return nil, false
	}
	if key.Matches(msg, m.Keys().Form.Raw) {
		c.toggleArgsRaw()
		return nil, true
	}
	if a.raw {
		return nil, false
	}
	o := m.Keys().Overlay
	switch {
	case key.Matches(msg, o.Close, o.Submit):
		return nil, false
	case key.Matches(msg, o.NextField) && a.form.AtLast():
		return nil, false
	case key.Matches(msg, m.Keys().Composer.PrevField) && a.form.AtFirst():
		return nil, false
	}
	c.err = ""
	return a.form.Update(msg), true
}

// toggleArgsRaw switches the params field between the arguments form and
// the params as raw JSON. Both say the same: the JSON is made from the
// form, and the form is filled from the JSON when it fits; when it does
// not, the JSON stays, with the reason, to fix or to send as it is.
func (c *Composer[H]) toggleArgsRaw() {
	a := c.args
	c.err = ""
	if !a.raw {
		text, err := a.toRaw()
		if err != nil {
			c.err = err.Error()
			return
		}
		c.params.SetValue(kit.JSONSafe(text)) // the form's values, the server's defaults among them
		c.focusField()
		return
	}
	text := c.params.Value()
	err := a.fromRaw(text)
	if errors.Is(err, errNotTheForm) {
		err = c.argsFromOtherTarget(text)
	}
	if err != nil {
		c.err = err.Error()
	}
	c.focusField()
}

// argsFromOtherTarget follows raw params that name another target: the
// other tool's (or prompt's) form opens, filled from them; a URI edited
// away from its template leaves the template (the params stay JSON).
func (c *Composer[H]) argsFromOtherTarget(text string) error {
	a := c.args
	b := []byte(strings.TrimSpace(text))
	if a.tpl != nil {
		uri := jsonscan.Unquote(jsonscan.Member(b, "uri"))
		c.args = nil
		c.target.SetValue(uri)
		return fmt.Errorf("the uri no longer comes from the template %s: the params stay JSON", a.target)
	}
	name := jsonscan.Unquote(jsonscan.Member(b, "name"))
	next := c.argsFor(a.method, name)
	if next == nil {
		return fmt.Errorf("%q has no form here (not listed by the server): the params stay JSON, to send as they are", name)
	}
	next.raw, next.rawFrom = true, ""
	if err := next.fromRaw(text); err != nil {
		return err
	}
	c.args = next
	c.target.SetValue(name)
	return nil
}

// argsFollowFields drops the arguments form once the method or the
// target typed is no longer the one it was opened for; what it held stays
// in the params, as JSON.
func (c *Composer[H]) argsFollowFields() {
	a := c.args
	if a == nil || (a.method == c.methodName() && a.target == strings.TrimSpace(c.target.Value())) {
		return
	}
	if !a.raw {
		inst, _ := a.form.Value().JSON()
		c.params.SetValue(kit.JSONSafe(indentJSON(string(a.params(inst)))))
	}
	c.args = nil
}

// enterArgs starts the form at its first field (its last, coming back
// with shift+tab), its prefilled text selected.
func (c *Composer[H]) enterArgs(forward bool) {
	if c.field != fieldParams || c.args == nil || c.args.raw {
		return
	}
	if forward {
		c.args.form.First()
	} else {
		c.args.form.Last()
	}
}

// rememberComposed stores the arguments just sent through the composer
// for next time (the catalog's store: a tool's arguments typed here show
// there, ↺, and back), in a Cmd: it writes a file.
func (c *Composer[H]) rememberComposed() tea.Cmd {
	a := c.args
	if a == nil || c.store == nil || c.offer == nil {
		return nil
	}
	args := a.sent
	if a.raw {
		args = nil
		if p := []byte(strings.TrimSpace(c.params.Value())); a.tpl == nil && jsonscan.Unquote(jsonscan.Member(p, "name")) == a.target {
			args = jsonscan.Member(p, "arguments")
		}
	}
	a.sent = nil
	if len(args) == 0 || args[0] != '{' {
		return nil
	}
	store, server, kind, name, args := c.store, c.offer.key, a.kind, a.target, compactJSON(args)
	return func() tea.Msg {
		if err := store.Put(server, kind, name, args); err != nil {
			return overlay.Done{What: "remembering the arguments", Err: err}
		}
		return nil
	}
}

// argsKeys are the composer's keys while its params field holds the
// arguments form (nil otherwise).
func (c *Composer[H]) argsKeys(m H) []key.Binding {
	k := m.Keys()
	if c.args == nil || c.field != fieldParams {
		return nil
	}
	if c.args.raw {
		return []key.Binding{k.Overlay.Submit, keymap.Described(k.Form.Raw, "back to the form"), k.Overlay.NextField, k.Overlay.Close}
	}
	out := []key.Binding{k.Overlay.Submit, keymap.Described(k.Form.Raw, "raw JSON params"), k.Overlay.NextField}
	if c.args.form.Remembered() > 0 {
		out = append(out, k.Form.Reset)
	}
	return append(out, k.Overlay.Close)
}

// drawArgs draws the params field as the arguments form (or, in
// raw mode, as the params JSON) in h lines of w cells; label is the
// field's label, styled for focus.
func (c *Composer[H]) drawArgs(m H, w, h int, label func(string, int) kit.Seg) []string {
	st, a := m.Styles(), c.args
	if a.raw {
		out := []string{kit.Row(st, w, false, label(" params", fieldParams),
			kit.Own("raw JSON · "+keymap.Hint(keymap.Described(m.Keys().Form.Raw, "back to the form")), w-11, st.Muted))}
		if room := max(h-1, 3); c.params.MaxHeight != room {
			c.params.MaxHeight = room
			c.params.SetHeight(c.params.Height())
		}
		for _, l := range strings.Split(c.params.View(), "\n") {
			out = append(out, kit.Fit(l, w))
		}
		return out
	}
	a.setStyles(st)
	if c.field == fieldParams {
		a.form.Focus()
	} else {
		a.form.Blur()
	}
	name := map[string]string{"tool": " arguments", "prompt": " arguments", "template": " variables"}[a.kind]
	head := []kit.Seg{label(name, fieldParams)}
	if a.tpl != nil {
		head = append(head, kit.Txt("→ ", st.Muted), kit.SrvFree(a.tpl.Expand(a.templateValues()), max(w/2, 8), st.Info), kit.Txt("  ", st.Text))
	}
	note := "the form · " + keymap.Hint(keymap.Described(m.Keys().Form.Raw, "raw JSON params"))
	if n := a.form.Remembered(); n > 0 {
		note = fmt.Sprintf("%d value(s) ↺ from the last call · %s", n, keymap.Hint(m.Keys().Form.Reset))
	}
	head = append(head, kit.Txt(note, st.Muted))
	out := []string{kit.Row(st, w, false, head...)}
	if len(a.extra) > 0 {
		out = append(out, kit.Row(st, w, false, kit.Own("", 11, st.Muted), kit.Txt("also sent: ", st.Muted), kit.SrvFree(a.extraNames(), max(w-22, 1), st.Text)))
	}
	return append(out, a.form.View(w, max(h-len(out), 6))...)
}
