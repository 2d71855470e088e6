package ui

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/mcptui/mcptui/internal/inert"
	"github.com/mcptui/mcptui/model"
	"github.com/mcptui/mcptui/ui/kit"
)

// extendBy is how much the extend key adds to a request's timer.
const extendBy = 60 * time.Second

// key routes a key: the open overlay or text field first, then the global
// keys, then the focused pane.
func (m *Model) key(msg tea.KeyPressMsg) tea.Cmd {
	m.notice, m.noticeErr = "", false // a key press acknowledges the last notice
	if m.overlay != overlayHelp && msg.Text == "" && key.Matches(msg, m.keys.Global.Help) {
		// The help key that cannot be typed (f1) works everywhere, forms
		// and editors too; esc comes back to where it was.
		m.openHelp(m.overlay)
		return nil
	}
	switch m.overlay {
	case overlayHelp:
		if key.Matches(msg, m.keys.Overlay.Close, m.keys.Global.Help, m.keys.Global.Quit) {
			m.overlay = m.helpFrom
		}
		return nil
	case overlayViewer:
		return m.viewerKey(msg)
	case overlayEditor:
		return m.editorKey(msg)
	case overlayReject:
		return m.rejectKey(msg)
	case overlayComposer:
		return m.composerKey(msg)
	case overlayVersion:
		return m.versionKey(msg)
	case overlayListen:
		return m.listenKey(msg)
	case overlayAnswer:
		return m.answerKey(msg)
	case overlayLogLevel:
		return m.levelKey(msg)
	case overlayPolicies:
		return m.policiesKey(msg)
	}
	if m.traffic.editing {
		return m.filterKey(msg)
	}
	if m.catalogOwns(msg) {
		return m.catalogKey(msg)
	}
	if m.refuse(msg) {
		return nil
	}
	if cmd, ok := m.viewsGlobalKey(msg); ok {
		return cmd
	}
	g := m.keys.Global
	switch {
	case key.Matches(msg, g.Quit):
		m.say(false, "shutting the server down…")
		return m.quit()
	case key.Matches(msg, g.Help):
		m.openHelp(overlayNone)
	case key.Matches(msg, g.NextPane):
		return m.cycleFocus(1)
	case key.Matches(msg, g.PrevPane):
		return m.cycleFocus(-1)
	case key.Matches(msg, g.Explorer, g.Pane6):
		return m.openExplorer()
	case key.Matches(msg, g.Compose):
		if m.composer == nil {
			m.composer = newComposer(m.sess.Config().Timeout)
		}
		// The last request stays, to send again or change; typing starts
		// at the method.
		m.composer.field, m.composer.err = fieldMethod, ""
		m.composer.method.SelectAll() // typing replaces it; an arrow keeps it
		m.composer.focusField()
		m.composer.refreshSuggestions()
		m.overlay = overlayComposer
		return m.listComposerOffer()
	case key.Matches(msg, g.Zoom):
		m.zoom = !m.zoom
	case key.Matches(msg, g.Version):
		m.openVersion()
	case key.Matches(msg, g.Restart):
		b := m.backend
		m.say(false, "restarting the server…")
		return m.do("restarted the server", func(ctx context.Context) error { return b.Restart(ctx) })
	case key.Matches(msg, g.Pane1, g.Pane2, g.Pane3, g.Pane4, g.Pane5):
		for i, b := range []key.Binding{g.Pane1, g.Pane2, g.Pane3, g.Pane4, g.Pane5} {
			if key.Matches(msg, b) {
				m.focusPane(pane(i))
			}
		}
	case m.focus == paneCatalog:
		return m.catalogKey(msg)
	default:
		if m.moveKey(msg) {
			return nil
		}
		return m.paneKey(msg)
	}
	return nil
}

// openHelp opens the ? help on the keys of where the keyboard is; closing
// it goes back to from.
func (m *Model) openHelp(from overlayKind) {
	m.helpFor, m.helpFrom = m.context(), from
	m.helpHere = m.hereKeys(m.helpFor)
	m.overlay = overlayHelp
}

// focusPane focuses a pane other than the catalog: traffic, subscriptions
// and stderr take the catalog's room back; requests and questions share
// the screen with it.
func (m *Model) focusPane(p pane) {
	if p == paneTraffic || p == paneSubs || p == paneStderr {
		m.catalog = false
	}
	if p == paneInFlight && m.focus != paneInFlight {
		m.cursorToNewRequest()
	}
	m.viewsFocus(p)
	m.focus = p
}

// cycleFocus moves the focus to the next (or previous) pane on the screen:
// 1, 2, 3, 4, 5 with traffic in the middle; 1, 2, 6 with the catalog.
func (m *Model) cycleFocus(d int) tea.Cmd {
	order := m.focusOrder()
	i := 0
	for j, p := range order {
		if p == m.focus {
			i = j
		}
	}
	m.focus = order[(i+d+len(order))%len(order)]
	return nil
}

// quit shuts the server down, then ends the program.
func (m *Model) quit() tea.Cmd {
	b := m.backend
	return func() tea.Msg {
		if b != nil {
			_ = b.Shutdown(context.Background())
		}
		return tea.QuitMsg{}
	}
}

// rowsOf is the number of rows the focused pane lists.
func (m *Model) rowsOf(p pane) int {
	if n, ok := m.viewRows(p); ok {
		return n
	}
	switch p {
	case paneInFlight:
		return len(m.flightRows())
	case panePending:
		return len(m.sess.Questions())
	case paneTraffic:
		return m.traffic.len(m.sess.History())
	case paneSubs:
		return len(m.sess.Subscriptions())
	}
	if m.networkShown() {
		return m.sess.Network().Len()
	}
	return m.sess.StderrLog().Len()
}

// list is the selection state of a pane.
func (m *Model) list(p pane) *listState {
	if p == paneTraffic {
		return &m.traffic.list
	}
	if p == paneStderr && m.networkShown() {
		return &m.net.list
	}
	return &m.lists[p]
}

// moveKey handles the movement keys for the focused pane.
func (m *Model) moveKey(msg tea.KeyPressMsg) bool {
	l, n := m.list(m.focus), m.rowsOf(m.focus)
	page := max(m.rects()[m.focus].inner()-1, 1)
	k := m.keys.List
	delta := 0
	switch {
	case key.Matches(msg, k.Up):
		delta = -1
	case key.Matches(msg, k.Down):
		delta = 1
	case key.Matches(msg, k.PageUp):
		delta = -page
	case key.Matches(msg, k.PageDown):
		delta = page
	case key.Matches(msg, k.Top):
		delta = -n
	case key.Matches(msg, k.Bottom):
		delta = n
	default:
		return false
	}
	l.move(delta, n)
	m.followIfAtEnd(l, n)
	return true
}

// followIfAtEnd makes traffic and stderr follow the newest line when the
// cursor is on it, and stop following when it is not.
func (m *Model) followIfAtEnd(l *listState, n int) {
	atEnd := l.cursor >= n-1
	switch m.focus {
	case paneTraffic:
		m.traffic.follow = atEnd
	case paneStderr:
		if m.networkShown() {
			m.net.scrolled = !atEnd
		} else {
			m.stderrFollow = atEnd
		}
	case paneLog:
		m.views.logFollow = atEnd
	}
}

// paneKey handles the focused pane's own keys.
func (m *Model) paneKey(msg tea.KeyPressMsg) tea.Cmd {
	switch m.focus {
	case paneInFlight:
		return m.inFlightKey(msg)
	case panePending:
		return m.pendingKey(msg)
	case paneTraffic:
		return m.trafficKey(msg)
	case paneSubs:
		return m.subsKey(msg)
	case paneLog:
		return m.logKey(msg)
	case paneServer:
		return m.serverKey(msg)
	case paneStderr:
		if m.httpServer() {
			return m.networkKey(msg)
		}
	}
	return nil
}

func (m *Model) inFlightKey(msg tea.KeyPressMsg) tea.Cmd {
	k := m.keys.InFlight
	c := m.selectedCall()
	if c == nil {
		return nil
	}
	ours := c.Dir == model.Out && c.Outcome.Kind == model.Pending && c.Gen == m.sess.Conn().Gen
	b, id := m.backend, c.ID
	switch {
	case key.Matches(msg, k.Cancel):
		if !ours {
			m.say(true, "only our own requests still in flight can be cancelled")
			return nil
		}
		return m.do(fmt.Sprintf("cancelled request %s", inert.Fit(string(id), 16)),
			func(ctx context.Context) error { return b.Cancel(ctx, id) })
	case key.Matches(msg, k.Extend):
		if !ours || c.Deadline.IsZero() {
			m.say(true, "only our own requests with a timer can be extended")
			return nil
		}
		return m.do(fmt.Sprintf("extended request %s by %s", inert.Fit(string(id), 16), extendBy),
			func(ctx context.Context) error { return b.Extend(ctx, id, extendBy) },
			model.Extended{Stamp: model.Stamp{Time: m.now(), Gen: c.Gen}, ID: id, By: extendBy})
	case key.Matches(msg, k.Open):
		return m.openOutcome(c)
	case key.Matches(msg, k.PostMortem):
		return m.postMortem(c)
	case key.Matches(msg, k.OpenRequest):
		m.openSeq(c.RequestSeq)
	case key.Matches(msg, k.OpenResponse):
		if c.ResponseSeq == 0 {
			if c.AnswerDiscarded != "" {
				m.say(true, "%s", c.AnswerDiscarded)
				return nil
			}
			m.say(true, "no response yet (%s)", c.Outcome.Kind)
			return nil
		}
		m.openSeq(c.ResponseSeq)
	}
	return nil
}

func (m *Model) trafficKey(msg tea.KeyPressMsg) tea.Cmd {
	k := m.keys.Traffic
	e := m.selectedEntry()
	switch {
	case key.Matches(msg, k.Filter):
		m.traffic.editing = true
		m.filterInput.SetValue(m.traffic.text)
		m.filterInput.CursorEnd()
		return m.filterInput.Focus()
	case key.Matches(msg, k.ClearFilter):
		m.traffic.setFilter("", m.sess.History())
	case key.Matches(msg, k.Follow):
		m.traffic.follow = true
		m.traffic.sync(m.sess.History())
	case e == nil:
	case key.Matches(msg, k.Open):
		m.openEntry(e)
	case key.Matches(msg, k.Jump):
		m.jump(e)
	case key.Matches(msg, k.Copy):
		return m.copyEntry(e)
	}
	return nil
}

// jump moves the traffic cursor to the entry linked with e.
func (m *Model) jump(e *model.Entry) {
	if e.Link == 0 {
		m.say(true, "no linked request or response")
		return
	}
	i := m.traffic.indexOf(m.sess.History(), e.Link)
	if i < 0 {
		m.say(true, "entry #%d is evicted or filtered out", e.Link)
		return
	}
	m.traffic.follow = false
	m.traffic.list.cursor = i
}

// copyEntry puts an entry's raw line on the clipboard (OSC 52).
func (m *Model) copyEntry(e *model.Entry) tea.Cmd {
	if e.Raw == nil {
		m.say(true, "this line was not kept")
		return nil
	}
	cmd, status, ok := kit.Copy(string(e.Raw), fmt.Sprintf("line #%d", e.Seq), "--record FILE keeps every line whole")
	m.say(!ok, "%s", status)
	return cmd
}

func (m *Model) subsKey(msg tea.KeyPressMsg) tea.Cmd {
	k := m.keys.Subscriptions
	if key.Matches(msg, k.Listen) {
		return m.openListen()
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

// openSeq opens the viewer on a traffic entry, if it is still kept.
func (m *Model) openSeq(seq uint64) {
	e := m.sess.History().BySeq(seq)
	if e == nil {
		m.say(true, "that line is no longer in the history")
		return
	}
	m.openEntry(e)
}

// openEntry opens the viewer on an entry.
func (m *Model) openEntry(e *model.Entry) {
	m.viewer = newViewer(e)
	m.overlay = overlayViewer
}

// openRaw opens the viewer on a piece of JSON that is not a traffic line.
func (m *Model) openRaw(title string, raw json.RawMessage) {
	m.viewer = newViewer(&model.Entry{Raw: raw, Size: len(raw), Method: title})
	m.overlay = overlayViewer
}

// orNull is raw, or JSON null when there is none.
func orNull(raw json.RawMessage) json.RawMessage {
	if len(raw) == 0 {
		return json.RawMessage("null")
	}
	return raw
}
