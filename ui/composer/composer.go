package composer

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/mcptui/mcptui/internal/backend"
	"github.com/mcptui/mcptui/keymap"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textarea"
	tea "charm.land/bubbletea/v2"

	"github.com/mcptui/mcptui/internal/inert"
	"github.com/mcptui/mcptui/mcp"
	"github.com/mcptui/mcptui/model"
	"github.com/mcptui/mcptui/themes"
	"github.com/mcptui/mcptui/ui/catalog"
	"github.com/mcptui/mcptui/ui/catalog/argstore"
	"github.com/mcptui/mcptui/ui/kit"
	"github.com/mcptui/mcptui/ui/overlay"
)

// The composer's fields, in tab order.
const (
	fieldMethod = iota
	fieldTarget
	fieldTimeout
	fieldProgress
	fieldParams
	composerFields
)

// Host is the root model as the composer sees it: an overlay's host, the
// server's catalog (what it offers), the store of the arguments sent, and
// the clock.
type Host interface {
	overlay.Host
	// Catalog is the server as the catalog sees it (nil: none).
	Catalog() backend.Catalog
	// ArgStore remembers the arguments sent across runs (nil: it does not).
	ArgStore() *argstore.Store
	// Now is the time to draw with.
	Now() time.Time
}

// Composer is the request overlay: method (completed from what the
// server offers), target (a tool, prompt or URI picked from its catalog),
// params (a chosen tool's, prompt's or template's arguments form, see
// composerArgs, or JSON started from the method's skeleton), timeout and
// progress options, so any request can be sent. It is an overlay of the
// root model H (ui.Overlay, instantiated with *ui.Model), kept between its
// openings: the last request stays, to send again or change.
type Composer[H Host] struct {
	method, target, timeout composerLine
	params                  textarea.Model
	progress                bool
	field                   int
	err                     string
	// offer is what the server offers (nil until listed); suggestions
	// are the method field's or the target field's, pick the selected.
	offer       *composerOffer
	offerGen    int
	suggestions []string
	pick        int
	// args is the form the params are filled through once a tool, prompt
	// or template is chosen (nil: the params are JSON only); store, st,
	// keys and now are what it is made with.
	args  *composerArgs
	store *argstore.Store
	st    *themes.Styles
	keys  keymap.KeyMap
	now   func() time.Time
}

// New starts a composer; def is the timer of a request that sets none
// (model.Config.Timeout), named in the timeout field's placeholder.
func New[H Host](def time.Duration) *Composer[H] {
	c := &Composer[H]{params: textarea.New(), progress: true}
	c.params.Prompt = " "
	c.method.SetValue(mcp.MethodListTools)
	c.method.placeholder = "a method: type to complete from what the server offers"
	c.target.placeholder = "pick from the server's catalog (↑/↓, enter)"
	c.timeout.placeholder = "default (e.g. 30s, 2m, none)"
	if t := catalog.DefaultTimeoutText(def); t != "" {
		c.timeout.placeholder = "default " + t + " (--timeout) · or 2m, none"
	}
	c.params.SetValue("{}")
	// The params field is as tall as its text, up to the room there is
	// (a textarea draws every row it has on every key: a tall empty one
	// made each key cost milliseconds); what is typed is never blocked.
	c.params.DynamicHeight, c.params.MinHeight, c.params.MaxContentHeight = true, 3, 1<<30
	c.focusField()
	return c
}

// focusField focuses the current field's input.
func (c *Composer[H]) focusField() {
	c.method.Blur()
	c.target.Blur()
	c.timeout.Blur()
	c.params.Blur()
	switch c.field {
	case fieldMethod:
		c.method.Focus()
	case fieldTarget:
		c.target.Focus()
	case fieldTimeout:
		c.timeout.Focus()
	case fieldParams:
		c.params.Focus()
	}
}

// request checks the fields and builds the request.
func (c *Composer[H]) request() (backend.CallRequest, error) {
	req := backend.CallRequest{Method: strings.TrimSpace(c.method.Value()), Progress: c.progress, ResetOnProgress: c.progress}
	if req.Method == "" {
		return req, errors.New("the method is empty")
	}
	if c.args != nil && !c.args.raw {
		p, err := c.args.submit(c.keys)
		if err != nil {
			return req, err
		}
		req.Params = p
	} else if p := strings.TrimSpace(c.params.Value()); p != "" {
		if !json.Valid([]byte(p)) || p[0] != '{' {
			return req, errors.New("params must be a JSON object (or empty)")
		}
		req.Params = json.RawMessage(p)
	}
	switch t := strings.TrimSpace(c.timeout.Value()); t {
	case "":
	case "none", "0":
		req.Timeout = mcp.NoTimeout
	default:
		d, err := time.ParseDuration(t)
		if err != nil || d <= 0 {
			return req, fmt.Errorf("the timeout %q is not a positive duration like 30s", t)
		}
		req.Timeout = d
	}
	return req, nil
}

// Open readies the new-request dialog as m shows it: the last request
// stays, to send again or change; typing starts at the method. Its Cmd
// lists what the server offers, when the composer has no offer of this
// connection's yet.
func (c *Composer[H]) Open(m H) tea.Cmd {
	c.field, c.err = fieldMethod, ""
	c.method.SelectAll() // typing replaces it; an arrow keeps it
	c.focusField()
	c.refreshSuggestions()
	return c.requestOffer(m)
}

// key drives the composer.
func (c *Composer[H]) key(m H, msg tea.KeyPressMsg) tea.Cmd {
	k := m.Keys().Overlay
	if cmd, ok := c.argsKey(m, msg); ok {
		return cmd
	}
	switch {
	case key.Matches(msg, k.Close):
		m.CloseOverlay(c)
		return nil
	case key.Matches(msg, k.NextField, m.Keys().Composer.PrevField):
		step := 1
		if key.Matches(msg, m.Keys().Composer.PrevField) {
			step = composerFields - 1
		}
		c.field = (c.field + step) % composerFields
		if c.field == fieldTarget && c.offer.targetsOf(c.methodName()) == nil {
			c.field = (c.field + step) % composerFields
		}
		c.focusField()
		c.enterArgs(step == 1)
		c.refreshSuggestions()
		return nil
	case c.suggesting() && key.Matches(msg, m.Keys().Composer.Next):
		c.pick = (c.pick + 1) % len(c.suggestions)
		return nil
	case c.suggesting() && key.Matches(msg, m.Keys().Composer.Prev):
		c.pick = (c.pick + len(c.suggestions) - 1) % len(c.suggestions)
		return nil
	case c.suggesting() && key.Matches(msg, m.Keys().Composer.Accept):
		c.accept()
		return nil
	case (c.field == fieldMethod || c.field == fieldTarget) && key.Matches(msg, m.Keys().Composer.Accept):
		// enter on a field with nothing to suggest goes on.
		c.accept()
		return nil
	case key.Matches(msg, k.Submit):
		req, err := c.request()
		if err != nil {
			c.err = err.Error()
			return nil
		}
		b, ok := m.Backend().(backend.Caller)
		if !ok {
			c.err = "this connection cannot send composed requests"
			return nil
		}
		m.CloseOverlay(c)
		m.Say(false, "sent %s…", inert.Fit(req.Method, 40))
		open := keymap.Hint(keymap.Described(m.Keys().InFlight.Open, "on it in pane "+m.Keys().Global.Pane1.Help().Key+" shows the outcome"))
		return tea.Batch(c.rememberComposed(), func() tea.Msg {
			res, err := b.Call(context.Background(), req)
			return callDone(req.Method, res, err, open)
		})
	}
	c.err = ""
	var cmd tea.Cmd
	switch c.field {
	case fieldMethod:
		c.method.update(msg, m.Keys().Text)
		c.refreshSuggestions()
	case fieldTarget:
		c.target.update(msg, m.Keys().Text)
		c.refreshSuggestions()
	case fieldTimeout:
		c.timeout.update(msg, m.Keys().Text)
	case fieldProgress:
		if key.Matches(msg, m.Keys().Composer.Toggle) {
			c.progress = !c.progress
		}
	case fieldParams:
		c.params, cmd = c.params.Update(msg)
	}
	return cmd
}

// View draws the composer's body.
func (c *Composer[H]) View(m H, w, h int) []string {
	st := m.Styles()
	label := func(name string, f int) kit.Seg {
		sty := st.Muted
		if c.field == f {
			sty = st.Accent
		}
		return kit.Own(name, 11, sty)
	}
	c.method.SetWidth(max(w-12, 1))
	c.target.SetWidth(max(w-12, 1))
	c.timeout.SetWidth(max(w-12, 1))
	c.params.SetWidth(w)
	box := "[ ]"
	if c.progress {
		box = "[x]"
	}
	out := []string{kit.Row(m.Styles(), w, false, label(" method", fieldMethod), kit.Txt(c.method.view(st), st.Text))}
	if c.field == fieldMethod {
		out = append(out, c.drawSuggestions(m, w)...)
	}
	if c.offer.targetsOf(c.methodName()) != nil {
		out = append(out, kit.Row(m.Styles(), w, false, label(targetLabel(c.methodName()), fieldTarget), kit.Txt(c.target.view(st), st.Text)))
		if c.field == fieldTarget {
			out = append(out, c.drawSuggestions(m, w)...)
		}
	}
	if room := max(h-len(out)-5, 3); c.params.MaxHeight != room {
		c.params.MaxHeight = room
		c.params.SetHeight(c.params.Height())
	}
	out = append(out,
		kit.Row(m.Styles(), w, false, label(" timeout", fieldTimeout), kit.Txt(c.timeout.view(st), st.Text)),
		kit.Row(m.Styles(), w, false, label(" progress", fieldProgress), kit.Own(box+" ask for progress; each one restarts the timer", w-11, st.Text)),
	)
	if c.args != nil {
		out = append(out, c.drawArgs(m, w, h-len(out)-1, label)...)
	} else {
		out = append(out, kit.Row(m.Styles(), w, false, label(" params", fieldParams)))
		for _, l := range strings.Split(c.params.View(), "\n") {
			out = append(out, kit.Fit(l, w))
		}
	}
	prefix := ""
	if c.offer == nil {
		prefix = "listing what the server offers… · "
	}
	msg, sty := prefix+keymap.HintFit(max(w-2-len([]rune(prefix)), 0), c.composerKeys(m)...), st.Muted
	if c.err != "" {
		msg, sty = "✗ "+c.err, st.Error
	}
	for len(out) < h-1 {
		out = append(out, kit.Row(m.Styles(), w, false))
	}
	// Unpadded: the row pads with plain spaces (the same cells whatever
	// the previous frame drew there).
	return append(out[:h-1], kit.Row(m.Styles(), w, false, kit.Txt(inert.Truncate(" "+msg, w, "…"), sty)))
}

// callDone reports the end of a composed request: its size, or its error
// (a cancellation the person asked for is not an error).
func callDone(method string, res []byte, err error, open string) tea.Msg {
	method = inert.Fit(method, 40)
	switch {
	case errors.Is(err, context.Canceled):
		return overlay.Done{What: method + " was cancelled"}
	case err != nil:
		return overlay.Done{What: method, Err: err}
	}
	return overlay.Done{What: fmt.Sprintf("%s answered (%s): %s", method, model.FormatSize(len(res)), open)}
}

// composerKeys are the keys of the new-request dialog.
func (c *Composer[H]) composerKeys(m H) []key.Binding {
	if ks := c.argsKeys(m); ks != nil {
		return ks
	}
	k := m.Keys()
	return []key.Binding{k.Overlay.Submit, k.Composer.Accept, k.Overlay.NextField, k.Composer.Toggle, k.Overlay.Close}
}

// Update drives the composer: its keys, and a paste into its field.
func (c *Composer[H]) Update(m H, msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case tea.KeyPressMsg:
		return c.key(m, msg)
	case tea.PasteMsg:
		return c.paste(msg)
	}
	return nil
}

// Title names the dialog.
func (c *Composer[H]) Title(H) string { return "New request" }

// Context is the composer's.
func (c *Composer[H]) Context(H) keymap.Context { return keymap.ComposerOverlay }

// Keys are the composer's own, the arguments form's while it shows.
func (c *Composer[H]) Keys(m H) []key.Binding { return c.composerKeys(m) }

// FooterKeys are the arguments form's keys while it shows.
func (c *Composer[H]) FooterKeys(m H) []key.Binding { return c.argsKeys(m) }
