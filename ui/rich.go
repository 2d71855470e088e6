package ui

import (
	"context"
	"github.com/mcptui/mcptui/keymap"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/mcptui/mcptui/model"
	"github.com/mcptui/mcptui/ui/answer"
	"github.com/mcptui/mcptui/ui/catalog"
	"github.com/mcptui/mcptui/ui/dialog"
	"github.com/mcptui/mcptui/ui/kit"
)

// The catalog (package ui/catalog) as pane 6, and the answer editors
// (package ui/answer) as an overlay: E or 6 focuses the catalog; f on a
// waiting question opens its editor (a form for an elicitation, the reply
// for sampling, the roots list); in the catalog, ctrl+a answers the
// server's newest question and comes back.

// rich is the state of the catalog pane, and the roots list the catalog
// and the answer editors share.
type rich struct {
	catalog    *catalog.Model
	catalogGen int
	roots      *answer.RootList
}

// rootList is the client's roots as the editors change them, starting
// from --root.
func (m *Model) rootList() *answer.RootList {
	if m.rich.roots == nil {
		m.rich.roots = answer.NewRootList(m.sess.Config().Roots)
	}
	return m.rich.roots
}

// openCatalog focuses the catalog, made (and listing) on first use and
// again after a restart.
func (m *Model) openCatalog() tea.Cmd {
	if m.opts.Catalog == nil {
		m.say(true, "the catalog is not available on this connection")
		return nil
	}
	if m.sess.Conn().Phase != model.PhaseReady && m.rich.catalog == nil {
		m.say(true, "the server is not ready yet: the catalog opens once it is")
		return nil
	}
	cmd := m.freshCatalog()
	if m.focus != paneCatalog {
		m.beforeCatalog = m.focus
	}
	m.focus, m.catalogShown = paneCatalog, true
	return cmd
}

// freshCatalog makes the catalog if there is none, or the one
// there belongs to an earlier process, and the server is ready.
func (m *Model) freshCatalog() tea.Cmd {
	c := m.sess.Conn()
	if m.opts.Catalog == nil || c.Phase != model.PhaseReady {
		return nil
	}
	if m.rich.catalog != nil && m.rich.catalogGen == c.Gen {
		return nil
	}
	if m.rich.catalog != nil {
		m.rich.catalog.Stop()
	}
	m.rich.catalog = catalog.New(catalog.Options{Server: m.opts.Catalog, Styles: m.styles, Store: m.opts.ArgStore,
		Roots: m.rootList(), Now: m.now, Tick: m.opts.Tick, Keys: &m.keys,
		Subscribe: func(uri string) tea.Cmd { return dialog.OpenListen(m, uri) }, Subscriptions: m.openSubscriptions,
		DefaultTimeout: m.sess.Config().Timeout, Marks: m.opts.CatalogMarks, Log: m.sess})
	m.rich.catalogGen = c.Gen
	return m.rich.catalog.Init()
}

// leaveCatalog goes back from the catalog to the pane before it; traffic
// takes the middle slot again.
func (m *Model) leaveCatalog() {
	m.catalogShown = false
	m.focus = m.beforeCatalog
	if m.focus == paneCatalog {
		m.focus = paneInFlight
	}
}

// catalogOwns reports whether a key goes to the catalog before the global
// keys: everything while it holds a text field (a form, the filter, a
// dialog) or shows a result (tab moves between its items), except the
// help and quit keys that cannot be typed (f1, ctrl+c).
func (m *Model) catalogOwns(msg tea.KeyPressMsg) bool {
	if m.focus != paneCatalog || m.rich.catalog == nil {
		return false
	}
	if !m.rich.catalog.OwnsKey(msg) {
		return false
	}
	g := m.keys.Global
	return msg.Text != "" || !key.Matches(msg, g.Quit, g.Help)
}

// catalogKey routes a key to the catalog; ctrl+a answers the newest
// waiting question; esc at its top goes back to the pane before it.
func (m *Model) catalogKey(msg tea.KeyPressMsg) tea.Cmd {
	e := m.rich.catalog
	if e == nil {
		return nil
	}
	if key.Matches(msg, m.keys.Catalog.Answer) {
		if q := m.newestWaiting(); q != nil {
			return m.openAnswer(q)
		}
		e.Say(false, "the server is not asking anything")
		return nil
	}
	cmd := e.Update(msg)
	if e.WantsClose() {
		e.Reopen()
		m.leaveCatalog()
	}
	return cmd
}

// newestWaiting is the newest question still waiting, or nil.
func (m *Model) newestWaiting() *model.Question {
	qs := m.sess.Questions()
	for i := len(qs) - 1; i >= 0; i-- {
		if qs[i].State == model.Waiting {
			return qs[i]
		}
	}
	return nil
}

// rootsChanged tells the server that the roots changed, as its protocol
// allows (the session decides whether anything is sent).
func (m *Model) rootsChanged() tea.Cmd {
	srv := m.opts.Catalog
	if srv == nil {
		return nil
	}
	return func() tea.Msg {
		did, err := srv.RootsChanged(context.Background())
		if err != nil {
			return actionMsg{what: "telling the server the roots changed", err: err}
		}
		return actionMsg{what: "roots saved; " + did}
	}
}

// richMsg gives the catalog and the open overlays (an answer editor) the
// messages of their own Cmds.
func (m *Model) richMsg(msg tea.Msg) tea.Cmd {
	var cmd tea.Cmd
	if m.rich.catalog != nil {
		cmd = m.rich.catalog.Update(msg)
	}
	return tea.Batch(cmd, m.toOverlays(msg))
}

// richPaste routes a paste to the focused catalog.
func (m *Model) richPaste(msg tea.PasteMsg) (tea.Cmd, bool) {
	if m.focus == paneCatalog && m.rich.catalog != nil {
		return m.rich.catalog.Update(msg), true
	}
	return nil, false
}

// richQuestion tells the person, in the catalog, that the server asks
// something.
func (m *Model) richQuestion() {
	if m.focus == paneCatalog && m.rich.catalog != nil {
		m.rich.catalog.Say(false, "the server is asking something: "+keymap.Hint(keymap.Described(m.keys.Catalog.Answer, "answers it")))
	}
}

// drawCatalog draws the catalog pane's body.
func (m *Model) drawCatalog(w, h int) []string {
	if m.rich.catalog == nil {
		return kit.Pad([]string{kit.Row(m.styles, w, false, kit.Own(" the catalog opens once the server is ready", w, m.styles.Muted))}, w, h)
	}
	m.rich.catalog.SetStyles(m.styles)
	return m.rich.catalog.View(w, h)
}

// richWheel scrolls the focused catalog with the mouse wheel (as arrow
// keys); it reports whether it took it.
func (m *Model) richWheel(delta int) bool {
	if m.focus != paneCatalog || m.rich.catalog == nil {
		return false
	}
	for _, k := range wheelKeys(delta) {
		m.rich.catalog.Update(k)
	}
	return true
}

// wheelKeys are the arrow keys a turn of the mouse wheel stands for, at
// most three.
func wheelKeys(delta int) []tea.KeyPressMsg {
	k := tea.KeyPressMsg{Code: tea.KeyDown}
	if delta < 0 {
		k = tea.KeyPressMsg{Code: tea.KeyUp}
	}
	out := make([]tea.KeyPressMsg, min(max(delta, -delta), 3))
	for i := range out {
		out[i] = k
	}
	return out
}
