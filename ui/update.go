package ui

import (
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/mcptui/mcptui/keymap"

	"github.com/mcptui/mcptui/model"
	"github.com/mcptui/mcptui/ui/composer"
	"github.com/mcptui/mcptui/ui/dialog"
	"github.com/mcptui/mcptui/ui/overlay"
)

// Update folds a message into the model. It never does I/O: backend calls
// are returned as Cmds.
func (m *Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	m.frames.quiet = false
	switch msg := msg.(type) {
	case redrawMsg:
		m.frames.due = false
		return m, nil
	case floodRedrawMsg:
		m.frames.floodDue = false
		return m, nil
	case foldMsg:
		if msg.m != m {
			return m, nil // a model thrown away while it was folding
		}
		return m, m.foldSlice()
	}
	model, cmd := m.update(msg)
	if redraw := m.frames.after(m.opts.FrameGap, time.Now(), isKey(msg)); redraw != nil {
		cmd = tea.Batch(cmd, redraw)
	}
	return model, cmd
}

// update is Update for every message but the coalesced redraw.
func (m *Model) update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case eventsMsg:
		if msg.err != nil {
			m.closed = true
			return m, nil
		}
		return m, m.foldBatch(msg.events)
	case EventsMsg:
		return m, m.foldEvents(msg.Events, msg.Budgeted)
	case AlertMsg:
		m.alert = msg.Text
		return m, nil
	case tickMsg:
		return m, m.tick()
	case actionMsg:
		return m, m.actionDone(msg)
	case overlay.Done:
		return m, m.actionDone(actionMsg{what: msg.What, err: msg.Err})
	case dialog.ResourcesMsg:
		return m, m.toOverlays(msg)
	case composer.OfferMsg:
		m.offerArrived(msg)
	case capMarkMsg:
		m.measured(msg)
	case editorFileMsg, editorExitMsg, editorTextMsg:
		return m, m.externalMsg(msg)
	case tea.WindowSizeMsg:
		m.width, m.height = msg.Width, msg.Height
	case tea.BackgroundColorMsg:
		m.darkBg = msg.IsDark()
		m.restyle()
	case tea.KeyPressMsg:
		return m, m.key(msg)
	case tea.PasteMsg:
		return m, m.paste(msg)
	case tea.MouseClickMsg:
		m.click(msg.Mouse())
	case tea.MouseWheelMsg:
		m.wheel(msg.Mouse())
	default:
		return m, m.richMsg(msg)
	}
	return m, nil
}

// apply folds a batch of events into the session and keeps the views in
// step; it rings the bell when a new question arrives.
func (m *Model) apply(evs []model.Event) tea.Cmd {
	m.sess.ApplyAll(evs)
	m.policyNotes(evs)
	m.traffic.sync(m.sess.History())
	m.selectNewRequest(evs)
	pending := m.sess.Counters().Pending
	var cmd tea.Cmd
	if m.rich.catalog != nil {
		// After a restart the catalog lists the new process.
		cmd = m.freshCatalog()
	}
	cmd = tea.Batch(cmd, m.handNotes(), m.measureResults())
	if pending > m.pending {
		if !m.opts.NoBell {
			cmd = tea.Batch(cmd, tea.Raw("\a"))
		}
		m.richQuestion()
		if m.top() == nil && m.focus != panePending {
			m.say(false, "the server is asking something: %s", keymap.Hint(keymap.Described(m.keys.Global.Pane2, "to see it")))
		}
	}
	if pending == 0 && m.pending > 0 && m.rich.catalog != nil {
		m.rich.catalog.Say(false, "") // its "the server is asking" is old news
	}
	m.pending = pending
	return cmd
}

// actionDone shows the result of a backend call.
func (m *Model) actionDone(a actionMsg) tea.Cmd {
	if a.err != nil {
		m.say(true, "%s failed: %v", a.what, a.err)
		return nil
	}
	m.say(false, "%s", a.what)
	m.apply(a.after)
	if a.quit {
		return tea.Quit
	}
	return nil
}

// paste goes to whichever text field is open: the top overlay's, the
// catalog's, the traffic filter.
func (m *Model) paste(msg tea.PasteMsg) tea.Cmd {
	if o := m.top(); o != nil {
		return o.Update(m, msg)
	}
	if cmd, ok := m.richPaste(msg); ok {
		return cmd
	}
	if m.traffic.editing {
		var cmd tea.Cmd
		m.filterInput, cmd = m.filterInput.Update(msg)
		return cmd
	}
	return nil
}

// selectNewRequest remembers the newest request the person sent (from the
// catalog or the composer): pane 1's cursor goes to it, so that c and +
// reach it at once, unless the person is moving in pane 1.
func (m *Model) selectNewRequest(evs []model.Event) {
	for i := len(evs) - 1; i >= 0; i-- {
		if o, ok := evs[i].(model.CallOptions); ok {
			m.newRequest = string(o.ID)
			break
		}
	}
	if m.focus != paneInFlight {
		m.cursorToNewRequest()
	}
}

// cursorToNewRequest puts pane 1's cursor on the remembered new request,
// while it is in flight.
func (m *Model) cursorToNewRequest() {
	if m.newRequest == "" {
		return
	}
	for j, c := range m.flightRows() {
		if c.Dir == model.Out && c.Outcome.Kind == model.Pending && string(c.ID) == m.newRequest {
			m.lists[paneInFlight].cursor = j
			return
		}
	}
}
