package ui

import (
	"context"
	"fmt"

	tea "charm.land/bubbletea/v2"

	"github.com/mcptui/mcptui/internal/inert"
	"github.com/mcptui/mcptui/mcp"
	"github.com/mcptui/mcptui/model"
	"github.com/mcptui/mcptui/ui/answer"
	"github.com/mcptui/mcptui/ui/explorer"
	"github.com/mcptui/mcptui/ui/kit"
)

// The explorer (package ui/explorer) and the answer editors (package
// ui/answer) as overlays: E opens the explorer; f on a waiting question
// opens its editor (a form for an elicitation, the reply for sampling, the
// roots list); inside the explorer, ctrl+a answers the server's newest
// question and comes back.

// rich is the state of the explorer and answer overlays.
type rich struct {
	explorer    *explorer.Model
	explorerGen int
	answer      answer.Editor
	answerQ     *model.Question
	answerFrom  overlayKind
	roots       *answer.RootList
}

// rootList is the client's roots as the editors change them, starting
// from --root.
func (m *Model) rootList() *answer.RootList {
	if m.rich.roots == nil {
		m.rich.roots = answer.NewRootList(m.sess.Config().Roots)
	}
	return m.rich.roots
}

// openExplorer shows the explorer, made (and listing) on first use and
// again after a restart.
func (m *Model) openExplorer() tea.Cmd {
	if m.opts.Explorer == nil {
		m.say(true, "the explorer is not available on this connection")
		return nil
	}
	if m.sess.Conn().Phase != model.PhaseReady {
		m.say(true, "the server is not ready yet: the explorer opens once it is")
		return nil
	}
	gen := m.sess.Conn().Gen
	var cmd tea.Cmd
	if m.rich.explorer == nil || m.rich.explorerGen != gen {
		if m.rich.explorer != nil {
			m.rich.explorer.Stop()
		}
		m.rich.explorer = explorer.New(explorer.Options{Server: m.opts.Explorer, Styles: m.styles, Store: m.opts.ArgStore,
			Roots: m.rootList(), Now: m.now})
		m.rich.explorerGen = gen
		cmd = m.rich.explorer.Init()
	}
	m.rich.explorer.Reopen()
	m.rich.explorer.SetStyles(m.styles)
	m.overlay = overlayExplorer
	return cmd
}

// explorerKey routes a key to the explorer; ctrl+a answers the newest
// waiting question.
func (m *Model) explorerKey(msg tea.KeyPressMsg) tea.Cmd {
	if msg.String() == "ctrl+a" {
		if q := m.newestWaiting(); q != nil {
			return m.openAnswer(q)
		}
		m.rich.explorer.Say(false, "the server is not asking anything")
		return nil
	}
	cmd := m.rich.explorer.Update(msg)
	if m.rich.explorer.WantsClose() {
		m.rich.explorer.Reopen()
		m.overlay = overlayNone
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

// openAnswer opens a question's own editor over whatever is shown.
func (m *Model) openAnswer(q *model.Question) tea.Cmd {
	e := answer.New(q, answer.Options{Styles: m.styles, Roots: m.rootList(), Now: m.now})
	if e == nil {
		m.say(true, "%s has no form: e edits the raw JSON", inert.Fit(q.Method, 40))
		return nil
	}
	if s, ok := e.(*answer.Sampling); ok {
		if d, ok := m.drafts[q.Key]; ok {
			s.SetText(d)
		}
	}
	m.rich.answer, m.rich.answerQ = e, q
	if m.overlay != overlayAnswer {
		m.rich.answerFrom = m.overlay
	}
	m.overlay = overlayAnswer
	return nil
}

// answerKey routes a key to the answer editor and sends its outcome.
func (m *Model) answerKey(msg tea.Msg) tea.Cmd {
	cmd := m.rich.answer.Update(msg)
	return tea.Batch(cmd, m.answerDone())
}

// answerDone closes the editor once the person decided, and sends the
// answer (or the error); a changed roots list is announced.
func (m *Model) answerDone() tea.Cmd {
	e, q := m.rich.answer, m.rich.answerQ
	out, done := e.Done()
	if !done {
		return nil
	}
	m.rich.answer, m.rich.answerQ = nil, nil
	m.overlay = m.rich.answerFrom
	if m.overlay == overlayExplorer && m.rich.explorer == nil {
		m.overlay = overlayNone
	}
	switch {
	case out.Closed:
		return nil
	case out.Error != nil:
		return m.sendReject(q, *out.Error)
	}
	if m.overlay == overlayExplorer {
		m.rich.explorer.Say(false, "answered "+q.Method+": the call goes on")
	}
	state := model.Answered
	if (q.Kind == model.AskElicitForm || q.Kind == model.AskElicitURL) && !accepted(out.Answer) {
		state = model.Rejected
	}
	cmds := []tea.Cmd{m.sendAnswer(q, out.Answer, state)}
	if r, ok := e.(*answer.Roots); ok && r.Changed {
		cmds = append(cmds, m.rootsChanged())
	}
	return tea.Batch(cmds...)
}

// accepted reports whether an elicitation answer accepts.
func accepted(ans []byte) bool {
	return answer.Action(ans) == "accept"
}

// rootsChanged tells an initialize-era server that the roots changed.
func (m *Model) rootsChanged() tea.Cmd {
	srv := m.opts.Explorer
	if srv == nil || mcp.Stateless(srv.Info().Version) {
		return nil
	}
	return m.do("sent notifications/roots/list_changed", func(ctx context.Context) error {
		return srv.Notify(ctx, mcp.NotificationRootsListChanged, nil)
	})
}

// richMsg gives the explorer and the answer editor the messages of their
// own Cmds.
func (m *Model) richMsg(msg tea.Msg) tea.Cmd {
	var cmds []tea.Cmd
	if m.rich.explorer != nil {
		cmds = append(cmds, m.rich.explorer.Update(msg))
	}
	if m.rich.answer != nil {
		cmds = append(cmds, m.answerKey(msg))
	}
	return tea.Batch(cmds...)
}

// richPaste routes a paste to the open explorer or editor.
func (m *Model) richPaste(msg tea.PasteMsg) (tea.Cmd, bool) {
	switch m.overlay {
	case overlayExplorer:
		return m.rich.explorer.Update(msg), true
	case overlayAnswer:
		return m.answerKey(msg), true
	}
	return nil, false
}

// richQuestion tells the person, inside the explorer, that the server
// asks something.
func (m *Model) richQuestion() {
	if m.overlay == overlayExplorer && m.rich.explorer != nil {
		m.rich.explorer.Say(false, "the server is asking something: ctrl+a answers it")
	}
}

// drawRich draws the explorer or the answer editor, if one is open.
func (m *Model) drawRich(w, h int) (string, bool) {
	iw, ih := w-2, h-2
	switch m.overlay {
	case overlayExplorer:
		title := "Explorer"
		if c := m.sess.Conn(); c.ServerName != "" {
			title += " — " + inert.Fit(c.ServerName, 40)
		}
		return kit.Box(m.styles, w, h, title, true, m.rich.explorer.View(iw, ih)), true
	case overlayAnswer:
		return kit.Box(m.styles, w, h, m.rich.answer.Title(), true, m.rich.answer.View(iw, ih)), true
	}
	return "", false
}

// richFooter is the footer under the explorer or an answer editor.
func (m *Model) richFooter(w int) (string, bool) {
	var text string
	switch m.overlay {
	case overlayExplorer:
		text = " E/esc closes the explorer · ctrl+a answers the server's question"
		if n := m.sess.Counters().Pending; n > 0 {
			text = fmt.Sprintf(" %d question(s) waiting: ctrl+a answers the newest · esc closes the explorer", n)
		}
	case overlayAnswer:
		text = " the server waits while you answer · esc closes without answering (e on the question edits the raw JSON)"
	default:
		return "", false
	}
	return kit.Row(m.styles, w, false, kit.Own(text, w, m.styles.Muted)), true
}

// richWheel scrolls the explorer or an answer editor with the mouse wheel
// (as arrow keys); it reports whether one of them is open.
func (m *Model) richWheel(delta int) bool {
	if m.overlay != overlayExplorer && m.overlay != overlayAnswer {
		return false
	}
	k := tea.KeyPressMsg{Code: tea.KeyDown}
	if delta < 0 {
		k = tea.KeyPressMsg{Code: tea.KeyUp}
	}
	for range min(max(delta, -delta), 3) {
		if m.overlay == overlayExplorer {
			m.rich.explorer.Update(k)
		} else if m.rich.answer != nil {
			m.rich.answer.Update(k)
		}
	}
	return true
}
