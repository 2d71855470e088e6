package dialog

import (
	"context"
	"fmt"
	"github.com/mcptui/mcptui/keymap"
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"

	"github.com/mcptui/mcptui/internal/backend"
	"github.com/mcptui/mcptui/internal/inert"
	"github.com/mcptui/mcptui/ui/kit"
	"github.com/mcptui/mcptui/ui/overlay"
)

// listenKinds are the list-changed filters a subscription can ask for.
var listenKinds = [...]string{"tools list changed", "prompts list changed", "resources list changed"}

// Listen picks a new subscription's filter: list kinds, and the
// resources (as the server lists them, or a URI typed in) whose updates to
// receive. It is an overlay of the root model H (s in pane 4 and in the
// catalog).
type Listen[H Host] struct {
	kinds     [len(listenKinds)]bool
	resources []listenResource
	loading   bool
	loadErr   string
	uri       textinput.Model
	// cursor runs over the kinds, then the resources, then the URI field.
	cursor, offset int
	err            string
	// preset is a resource picked before the dialog opened (from the
	// catalog), kept picked when the list arrives.
	preset string
}

type listenResource struct {
	uri, name string
	on        bool
}

// ResourcesMsg is the server's resource list, for the dialog (the root
// hands it to the open overlays).
type ResourcesMsg struct {
	list []backend.Resource
	err  error
}

func newListen[H Host](keys *keymap.KeyMap) *Listen[H] {
	d := &Listen[H]{uri: textinput.New(), loading: true}
	d.uri.Prompt = ""
	d.uri.Placeholder = "another URI (" + keymap.Hint(keymap.Described(keys.Composer.Choose, "adds it")) + ")"
	return d
}

// rows is the number of selectable rows.
func (d *Listen[H]) rows() int { return len(listenKinds) + len(d.resources) + 1 }

// onURI reports whether the cursor is on the URI field.
func (d *Listen[H]) onURI() bool { return d.cursor == d.rows()-1 }

// request is the filter picked.
func (d *Listen[H]) request() (backend.ListenRequest, error) {
	req := backend.ListenRequest{ToolsListChanged: d.kinds[0], PromptsListChanged: d.kinds[1], ResourcesListChanged: d.kinds[2]}
	for _, r := range d.resources {
		if r.on {
			req.Resources = append(req.Resources, r.uri)
		}
	}
	if u := strings.TrimSpace(d.uri.Value()); u != "" {
		req.Resources = append(req.Resources, u)
	}
	if !req.ToolsListChanged && !req.PromptsListChanged && !req.ResourcesListChanged && len(req.Resources) == 0 {
		return req, fmt.Errorf("pick something to subscribe to")
	}
	return req, nil
}

// OpenListen opens the subscribe dialog over m with a resource picked (""
// for none), and asks the backend for the resources; pane 4's s and the
// catalog's open this one dialog.
func OpenListen[H Host](m H, uri string) tea.Cmd {
	l, ok := m.Backend().(backend.Listener)
	if !ok {
		m.Say(true, "this connection cannot open subscriptions")
		return nil
	}
	d := newListen[H](m.Keys())
	if uri != "" {
		d.preset = uri
		d.resources = []listenResource{{uri: uri, on: true}}
	}
	m.Show(d)
	return func() tea.Msg {
		list, err := l.Resources(context.Background())
		return ResourcesMsg{list: list, err: err}
	}
}

// resourcesLoaded fills the dialog's resource rows.
func (d *Listen[H]) resourcesLoaded(msg ResourcesMsg) {
	d.loading = false
	if msg.err != nil {
		d.loadErr = msg.err.Error()
		return
	}
	onURI := d.onURI()
	d.resources = d.resources[:0]
	found := false
	for _, r := range msg.list {
		on := d.preset != "" && r.URI == d.preset
		found = found || on
		d.resources = append(d.resources, listenResource{uri: r.URI, name: r.Name, on: on})
	}
	if d.preset != "" && !found {
		d.resources = append(d.resources, listenResource{uri: d.preset, on: true})
	}
	if onURI {
		d.cursor = d.rows() - 1
	}
}

// key drives the dialog.
func (d *Listen[H]) key(m H, msg tea.KeyPressMsg) tea.Cmd {
	k := m.Keys().Overlay
	d.err = ""
	switch {
	case key.Matches(msg, k.Close):
		m.CloseOverlay(d)
		return nil
	case key.Matches(msg, k.Submit):
		req, err := d.request()
		if err != nil {
			d.err = err.Error()
			return nil
		}
		l, ok := m.Backend().(backend.Listener)
		if !ok {
			d.err = "this connection cannot open subscriptions"
			return nil
		}
		m.CloseOverlay(d)
		m.Say(false, "subscribing…")
		return func() tea.Msg {
			id, err := l.Listen(context.Background(), req)
			return overlay.Done{What: "subscribed: subscription " + inert.Fit(string(id), 20), Err: err}
		}
	case key.Matches(msg, m.Keys().Composer.PrevField) || (key.Matches(msg, m.Keys().List.Up) && (msg.Text == "" || !d.onURI())):
		d.move(-1)
		return nil
	case key.Matches(msg, k.NextField) || (key.Matches(msg, m.Keys().List.Down) && (msg.Text == "" || !d.onURI())):
		d.move(1)
		return nil
	}
	if d.onURI() {
		if key.Matches(msg, m.Keys().Composer.Choose) {
			if u := strings.TrimSpace(d.uri.Value()); u != "" {
				d.resources = append(d.resources, listenResource{uri: u, on: true})
				d.uri.SetValue("")
				d.cursor = d.rows() - 1
			}
			return nil
		}
		var cmd tea.Cmd
		d.uri, cmd = d.uri.Update(msg)
		return cmd
	}
	if key.Matches(msg, m.Keys().Listen.Toggle, m.Keys().Composer.Choose, m.Keys().Composer.Toggle) {
		if d.cursor < len(listenKinds) {
			d.kinds[d.cursor] = !d.kinds[d.cursor]
		} else {
			r := &d.resources[d.cursor-len(listenKinds)]
			r.on = !r.on
		}
	}
	return nil
}

// move moves the cursor, focusing the URI field when it lands there.
func (d *Listen[H]) move(delta int) {
	d.cursor = min(max(d.cursor+delta, 0), d.rows()-1)
	if d.onURI() {
		d.uri.Focus()
	} else {
		d.uri.Blur()
	}
}

// View draws the dialog's body.
func (d *Listen[H]) View(m H, w, h int) []string {
	st := m.Styles()
	check := func(on bool) string {
		if on {
			return "[x] "
		}
		return "[ ] "
	}
	var items []string // one per selectable row but the URI field
	for i, name := range listenKinds {
		items = append(items, kit.Row(m.Styles(), w, d.cursor == i, kit.Own("   "+check(d.kinds[i])+name, w, st.Text)))
	}
	for i, r := range d.resources {
		nameW := min(24, w/4)
		uriW := max(w-7-nameW-1, 0)
		items = append(items, kit.Row(m.Styles(), w, d.cursor == len(listenKinds)+i,
			kit.Own("   "+check(r.on), 7, st.Text), kit.Srv(r.uri, uriW, st.Accent), kit.Own(" ", 1, st.Text), kit.Srv(r.name, nameW, st.Muted)))
	}
	res := fmt.Sprintf(" Updates of resources (%d listed by the server):", len(d.resources))
	switch {
	case d.loading:
		res = " Updates of resources (asking the server for its list…):"
	case d.loadErr != "":
		res = " Updates of resources (the list failed: " + d.loadErr + "):"
	}
	head := []string{kit.Row(m.Styles(), w, false, kit.Own(" Notify me when:", w, st.Bold))}
	// The list scrolls so the cursor stays visible; the headings and the
	// URI field stay put.
	listH := max(h-len(head)-5, 1)
	d.offset = scrollTo(min(d.cursor, len(items)-1), d.offset, listH-1)
	var body []string
	for i := d.offset; i < len(items) && len(body) < listH-1; i++ {
		body = append(body, items[i])
		if i == len(listenKinds)-1 {
			body = append(body, kit.Row(m.Styles(), w, false, kit.Txt(inert.Fit(res, w), st.Bold)))
		}
	}
	out := append(head, body...)
	uriLabel := kit.Own("   URI ", 7, st.Muted)
	if d.onURI() {
		uriLabel = kit.Own(" ▸ URI ", 7, st.Accent)
	}
	d.uri.SetWidth(max(w-8, 1))
	out = append(out, kit.Row(m.Styles(), w, false), kit.Row(m.Styles(), w, false, uriLabel, kit.Txt(d.uri.View(), st.Text)))
	msg, sty := keymap.Hint(listenKeys(m)...), st.Muted
	if d.err != "" {
		msg, sty = "✗ "+d.err, st.Error
	}
	for len(out) < h-1 {
		out = append(out, kit.Row(m.Styles(), w, false))
	}
	return append(out[:h-1], kit.Row(m.Styles(), w, false, kit.Own(" "+msg, w, sty)))
}

// listenKeys are the keys of the subscribe dialog.
func listenKeys(m overlay.Host) []key.Binding {
	k := m.Keys()
	return []key.Binding{keymap.Described(k.Overlay.Submit, "subscribes"), k.Listen.Toggle, keymap.Described(k.Overlay.NextField, "moves"), k.Overlay.Close}
}

// Update drives the dialog: its keys, a paste into the URI field, and the
// server's resource list.
func (d *Listen[H]) Update(m H, msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case tea.KeyPressMsg:
		return d.key(m, msg)
	case tea.PasteMsg:
		if d.onURI() {
			var cmd tea.Cmd
			d.uri, cmd = d.uri.Update(msg)
			return cmd
		}
	case ResourcesMsg:
		d.resourcesLoaded(msg)
	}
	return nil
}

// Title names the dialog.
func (d *Listen[H]) Title(H) string { return "New subscription" }

// Context is the subscribe dialog's.
func (d *Listen[H]) Context(H) keymap.Context { return keymap.ListenOverlay }

// Keys are the dialog's own.
func (d *Listen[H]) Keys(m H) []key.Binding { return listenKeys(m) }

// scrollTo is the offset that shows cursor among h rows, from offset (the
// root's lists scroll alike).
func scrollTo(cursor, offset, h int) int {
	if h <= 0 {
		return offset
	}
	if cursor < offset {
		offset = cursor
	}
	if cursor >= offset+h {
		offset = cursor - h + 1
	}
	return offset
}
