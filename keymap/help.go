package keymap

import "charm.land/bubbles/v2/key"

// Context is where the keyboard is: a focused pane or an overlay.
type Context int

// The contexts that have their own keys.
const (
	InFlightPane Context = iota
	PendingPane
	TrafficPane
	SubscriptionsPane
	StderrPane
	ViewerOverlay
	EditorOverlay
	DialogOverlay
	FilterInput
	ComposerOverlay
	ListenOverlay
	// CatalogPane is pane 6; its own keys come from the catalog (they
	// change with its page).
	CatalogPane
	// LogPane is pane 7, the server's log; ServerPane pane 8, the server
	// view.
	LogPane
	ServerPane
	// AnswerOverlay is a question's own editor; its keys come from the
	// editor.
	AnswerOverlay
	// CatalogInput is the catalog while it holds a text field (a form, its
	// filter, a dialog): printable keys type there.
	CatalogInput
	// PoliciesOverlay is the answer policies dialog.
	PoliciesOverlay
	// NetworkPane is pane 5 of an HTTP server: its exchanges.
	NetworkPane
)

// Local returns the keys specific to a context, most useful first.
func (m KeyMap) Local(c Context) []key.Binding {
	switch c {
	case InFlightPane:
		return []key.Binding{m.InFlight.Open, m.InFlight.Cancel, m.InFlight.Extend, m.InFlight.OpenResponse, m.InFlight.OpenRequest, m.InFlight.PostMortem}
	case PendingPane:
		return []key.Binding{m.Pending.Reply, m.Pending.Approve, m.Pending.Edit, m.Pending.Reject, m.Pending.Open, m.Pending.Policies}
	case TrafficPane:
		return []key.Binding{m.Traffic.Open, m.Traffic.Filter, m.Traffic.Jump, m.Traffic.Copy, m.Traffic.Follow}
	case SubscriptionsPane:
		return []key.Binding{m.Subscriptions.Listen, m.Subscriptions.Close, m.Subscriptions.Open}
	case ViewerOverlay:
		return []key.Binding{m.Viewer.Fold, m.Viewer.FoldAll, m.Viewer.UnfoldAll, m.Traffic.Copy, m.Viewer.CopyValue,
			m.Traffic.Jump, m.List.Left, m.List.Right, m.Overlay.Close}
	case ListenOverlay:
		return []key.Binding{m.Overlay.Submit, m.Listen.Toggle, m.Overlay.Close}
	case PoliciesOverlay:
		return []key.Binding{m.Pending.PolicyCycle, m.List.Up, m.List.Down, m.Overlay.Close}
	case EditorOverlay:
		return []key.Binding{m.Overlay.Submit, m.Overlay.External, m.Overlay.Close}
	case ComposerOverlay:
		return []key.Binding{m.Overlay.Submit, m.Composer.Accept, m.Composer.Next, m.Overlay.NextField, m.Overlay.Close}
	case DialogOverlay:
		return []key.Binding{m.Overlay.Submit, m.Overlay.NextField, m.Overlay.Close}
	case CatalogPane, CatalogInput:
		return []key.Binding{m.Catalog.Back, m.Catalog.Answer}
	case LogPane:
		return []key.Binding{m.Log.MoreSevere, m.Log.LessSevere, m.Global.LogLevel, m.Log.Open, m.Log.Follow}
	case ServerPane:
		return []key.Binding{m.Server.Jump, m.Server.Open, m.Global.LogLevel}
	case NetworkPane:
		n := m.Network
		return []key.Binding{n.Open, n.Request, n.Response, n.Traffic, n.Follow, n.Log}
	case FilterInput:
		return []key.Binding{m.Traffic.KeepFilter, m.Traffic.ClearFilter}
	}
	return nil
}

// isOverlay reports whether the context replaces the pane keys.
func (c Context) isOverlay() bool {
	return c >= ViewerOverlay && c != CatalogPane && c != LogPane && c != ServerPane && c != NetworkPane
}

// TextEntry reports whether the context is typing into a text field,
// where printable keys type (so help is f1, not ?).
func (c Context) TextEntry() bool {
	switch c {
	case EditorOverlay, DialogOverlay, FilterInput, ComposerOverlay, ListenOverlay, AnswerOverlay, CatalogInput:
		return true
	}
	return false
}

// ShortHelp is the footer: the context's keys, then the global ones.
func (m KeyMap) ShortHelp(c Context) []key.Binding {
	return append(m.Local(c), m.Tail(c)...)
}

// Tail is the global keys the footer keeps at its right end whatever its
// width: new request, catalog, zoom, help, quit on a pane; only help in an
// overlay or a text field (esc and ctrl+s are among its own keys).
func (m KeyMap) Tail(c Context) []key.Binding {
	g := m.Global
	if c.isOverlay() || c == CatalogInput {
		return []key.Binding{Untypable(g.Help)}
	}
	if c == CatalogPane {
		return []key.Binding{g.Compose, g.Zoom, g.Help, g.Quit}
	}
	return []key.Binding{g.Compose, g.Catalog, g.Zoom, g.Help, g.Quit}
}

// FullHelp is the ? overlay: the context's keys, movement, and the global
// keys, in columns.
func (m KeyMap) FullHelp(c Context) [][]key.Binding {
	l := m.List
	cols := [][]key.Binding{m.Local(c)}
	if c == EditorOverlay || c == DialogOverlay || c == FilterInput || c == ComposerOverlay || c == ListenOverlay {
		return cols
	}
	cols = append(cols, []key.Binding{l.Up, l.Down, l.PageUp, l.PageDown, l.Top, l.Bottom})
	if c.isOverlay() {
		return cols
	}
	return append(cols, m.paneKeys(), m.everywhereKeys())
}

// Helper adapts a context to bubbles' help.KeyMap.
type Helper struct {
	Map     KeyMap
	Context Context
}

// ShortHelp implements help.KeyMap.
func (h Helper) ShortHelp() []key.Binding { return h.Map.ShortHelp(h.Context) }

// FullHelp implements help.KeyMap.
func (h Helper) FullHelp() [][]key.Binding { return h.Map.FullHelp(h.Context) }

// Untypable is b shown by its first key that cannot be typed into a text
// field (f1 for help), the key that works in forms and editors; b itself
// when all its keys are printable.
func Untypable(b key.Binding) key.Binding {
	for _, k := range b.Keys() {
		if len([]rune(k)) > 1 && k != "space" {
			out := b
			out.SetHelp(k, b.Help().Desc)
			return out
		}
	}
	return b
}
