package attach

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textarea"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"

	"github.com/mcptui/mcptui/internal/inert"
	"github.com/mcptui/mcptui/internal/record"
	"github.com/mcptui/mcptui/internal/replay"
	"github.com/mcptui/mcptui/internal/tap"
	"github.com/mcptui/mcptui/keymap"
	"github.com/mcptui/mcptui/model"
	"github.com/mcptui/mcptui/ui"
	"github.com/mcptui/mcptui/ui/kit"
	"github.com/mcptui/mcptui/ui/timeline"
)

// sender is where the viewer's requests go (a tap.Viewer).
type sender interface {
	Send(tap.Request) error
}

// Options configure the attached inspector.
type Options struct {
	// Theme is a --theme value; NoColor forces mono.
	Theme   string
	NoColor bool
	// HistoryBytes caps the traffic history (0: the model's default).
	HistoryBytes int
	// HoldTimeout is how long breakpoints hold a line (0: the tap's
	// default).
	HoldTimeout time.Duration
	// Break is a breakpoint filter to arm at once.
	Break string
	// Now is the clock (nil: time.Now); Tick as ui.Options.Tick.
	Now  func() time.Time
	Tick time.Duration
	// Keys are the bindings (the user's); nil means keymap.Default().
	Keys *keymap.KeyMap
	// FoldBudget bounds the time one Update folds the feed's events
	// (ui.Options.FoldBudget): a batch the tap pushed under a flood is
	// folded a slice at a time, keys handled between slices; 0 folds
	// every batch at once.
	FoldBudget time.Duration
	// Linter makes the live lint that judges the session's lines as they
	// come (nil: the inspector's own, without a schema validator).
	Linter func() model.Linter
}

// Model is the attached inspector: the read-only inspector on the live
// feed, and two lines under it for breakpoints and the tap's state.
type Model struct {
	inner   *ui.Model
	backend *replay.Backend
	tap     sender
	keys    keymap.KeyMap
	name    string
	opts    Options

	width, height int

	armed  string
	holds  []tap.Message // oldest first
	notice string
	ended  bool
	// held describes the hold heldFor, the oldest, for the breakpoint
	// line (a held line can be megabytes: not read again every frame).
	held    string
	heldFor uint64

	filter *textinput.Model // editing the breakpoint filter
	editor *holdEditor      // editing a held line or an answer
}

// holdEditor edits the JSON that resolves a hold.
type holdEditor struct {
	hold   tap.Message
	action string
	ta     textarea.Model
	err    string
}

// New builds the attached inspector for the tap named name whose feed
// began with header; its events come through backend, requests go to s.
func New(name string, header record.Entry, backend *replay.Backend, s sender, opts Options) *Model {
	rec := &record.Recording{Header: header}
	now := opts.Now
	if now == nil {
		now = time.Now
	}
	title := strings.Join(append([]string{header.Command}, header.Args...), " ")
	keys := keymap.Default()
	if opts.Keys != nil {
		keys = *opts.Keys
	}
	m := &Model{backend: backend, tap: s, keys: keys, name: name, opts: opts}
	m.inner = ui.New(ui.Options{
		// A host's session, watched: nothing is sent to its server.
		ReadOnly: true,

		Backend: backend,
		Session: model.New(replay.Config(rec, opts.HistoryBytes)),
		Theme:   opts.Theme,
		NoColor: opts.NoColor,
		Now:     now,
		Tick:    opts.Tick,
		NoBell:  true,
		Title:   "attach: " + title,
		Keys:    &keys,
		// A key is handled before the tail of a flood's batch.
		FoldBudget: opts.FoldBudget,
	})
	return m
}

// Init starts the inspector, and arms the breakpoint asked for.
func (m *Model) Init() tea.Cmd {
	cmds := []tea.Cmd{m.inner.Init()}
	if m.opts.Break != "" {
		cmds = append(cmds, m.send(tap.Request{Op: tap.OpBreak, Filter: m.opts.Break, DeadlineMs: m.opts.HoldTimeout.Milliseconds()}))
	}
	return tea.Batch(cmds...)
}

// sentMsg reports a request that could not be sent.
type sentMsg struct{ err error }

// tickMsg redraws the holds' countdown.
type tickMsg struct{}

func (m *Model) send(req tap.Request) tea.Cmd {
	s := m.tap
	return func() tea.Msg { return sentMsg{err: s.Send(req)} }
}

// Update handles the tap's messages and the breakpoint keys, and passes
// everything else to the inspector.
func (m *Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.width, m.height = msg.Width, msg.Height
		if m.editor != nil {
			m.editor.ta.SetWidth(max(msg.Width-2, 10))
			m.editor.ta.SetHeight(max(msg.Height-4, 3))
		}
		_, cmd := m.inner.Update(tea.WindowSizeMsg{Width: msg.Width, Height: max(msg.Height-2, 1)})
		return m, cmd
	case tapMsg:
		return m, m.onTap(msg.m)
	case noteMsg:
		m.notice = msg.text
		return m, nil
	case lostMsg:
		m.notice = fmt.Sprintf("this viewer fell behind and skipped %d entries", msg.count)
		return m, nil
	case endedMsg:
		m.ended, m.holds = true, nil
		m.editor = nil
		return m, nil
	case sentMsg:
		if msg.err != nil {
			m.notice = msg.err.Error()
		}
		return m, nil
	case tickMsg:
		if len(m.holds) > 0 {
			return m, tick()
		}
		return m, nil
	case tea.KeyPressMsg:
		if cmd, ok := m.key(msg); ok {
			return m, cmd
		}
	}
	_, cmd := m.inner.Update(msg)
	return m, cmd
}

func tick() tea.Cmd { return tea.Tick(time.Second, func(time.Time) tea.Msg { return tickMsg{} }) }

// onTap follows the breakpoint state the tap reports.
func (m *Model) onTap(t tap.Message) tea.Cmd {
	switch t.Type {
	case tap.TypeArmed:
		if t.Error != "" {
			m.notice = t.Error
			return nil
		}
		m.armed = t.Filter
		if t.Filter == "" {
			m.notice = "breakpoint cleared"
		} else {
			m.notice = "breakpoint armed: " + t.Filter
		}
	case tap.TypeHold:
		m.holds = append(m.holds, t)
		if len(m.holds) == 1 {
			return tick()
		}
	case tap.TypeResolved:
		for i, h := range m.holds {
			if h.Hold == t.Hold {
				m.holds = append(m.holds[:i], m.holds[i+1:]...)
				break
			}
		}
		if m.editor != nil && m.editor.hold.Hold == t.Hold {
			m.editor = nil
		}
		m.notice = fmt.Sprintf("#%d %s", t.Hold, t.Mark)
	case tap.TypeRefused:
		if m.editor != nil && m.editor.hold.Hold == t.Hold {
			m.editor.err = t.Error
		}
		m.notice = "refused: " + t.Error
	}
	return nil
}

// key handles the keys of breakpoints and of their editors.
func (m *Model) key(msg tea.KeyPressMsg) (tea.Cmd, bool) {
	if m.filter != nil {
		return m.filterKey(msg), true
	}
	if m.editor != nil {
		return m.editorKey(msg), true
	}
	if m.ended {
		return nil, false
	}
	k := m.keys.Tap
	switch {
	case key.Matches(msg, k.Break):
		in := textinput.New()
		in.Prompt = "break on: "
		in.Placeholder = "method:tools/call dir:out   (empty clears)"
		in.SetValue(m.armed)
		in.CursorEnd()
		m.filter = &in
		return m.filter.Focus(), true
	case len(m.holds) == 0:
		return nil, false
	case key.Matches(msg, k.Forward):
		return m.send(tap.Request{Op: tap.OpResolve, Hold: m.holds[0].Hold, Action: tap.ActionForward}), true
	case key.Matches(msg, k.Drop):
		return m.send(tap.Request{Op: tap.OpResolve, Hold: m.holds[0].Hold, Action: tap.ActionDrop}), true
	case key.Matches(msg, k.Edit):
		return m.openEditor(tap.ActionEdit, prettyJSON(m.holds[0].Line)), true
	case key.Matches(msg, k.Answer):
		return m.openEditor(tap.ActionAnswer, answerTemplate(m.holds[0].Line)), true
	}
	return nil, false
}

func (m *Model) filterKey(msg tea.KeyPressMsg) tea.Cmd {
	switch {
	case key.Matches(msg, m.keys.Overlay.Close):
		m.filter = nil
		return nil
	case key.Matches(msg, m.keys.Traffic.KeepFilter):
		text := strings.TrimSpace(m.filter.Value())
		m.filter = nil
		return m.send(tap.Request{Op: tap.OpBreak, Filter: text, DeadlineMs: m.opts.HoldTimeout.Milliseconds()})
	}
	in, cmd := m.filter.Update(msg)
	m.filter = &in
	return cmd
}

func (m *Model) openEditor(action, text string) tea.Cmd {
	ta := textarea.New()
	ta.ShowLineNumbers = true
	ta.CharLimit = 0
	ta.MaxHeight = 0
	ta.SetWidth(max(m.width-2, 10))
	ta.SetHeight(max(m.height-4, 3))
	// The held line is the server's (or the host's): the textarea draws
	// its text raw, so the characters a terminal must not see become \u
	// escapes, which mean the same inside a JSON string.
	ta.SetValue(kit.JSONSafe(text))
	m.editor = &holdEditor{hold: m.holds[0], action: action, ta: ta}
	return m.editor.ta.Focus()
}

func (m *Model) editorKey(msg tea.KeyPressMsg) tea.Cmd {
	e := m.editor
	switch {
	case key.Matches(msg, m.keys.Overlay.Close):
		m.editor = nil
		return nil
	case key.Matches(msg, m.keys.Overlay.Submit):
		text := e.ta.Value()
		if !json.Valid([]byte(text)) {
			e.err = "not valid JSON: fix it, or " + m.keys.Overlay.Close.Help().Key + " to leave the line held"
			return nil
		}
		e.err = "sent; waiting for the tap"
		return m.send(tap.Request{Op: tap.OpResolve, Hold: e.hold.Hold, Action: e.action, Line: text})
	}
	ta, cmd := e.ta.Update(msg)
	e.ta = ta
	return cmd
}

// prettyJSON is a held line indented for editing (as it is when it is not
// JSON).
func prettyJSON(line []byte) string {
	var b bytes.Buffer
	if json.Indent(&b, line, "", "  ") == nil {
		return b.String()
	}
	return string(line)
}

// answerTemplate is the start of an answer to a held request.
func answerTemplate(line []byte) string {
	var env struct {
		ID json.RawMessage `json:"id"`
	}
	id := "null"
	if json.Unmarshal(line, &env) == nil && len(env.ID) > 0 {
		id = string(env.ID)
	}
	return fmt.Sprintf("{\n  \"jsonrpc\": \"2.0\",\n  \"id\": %s,\n  \"result\": {}\n}", id)
}

// View is the inspector with the breakpoint and status lines under it, or
// the editor of a held line.
func (m *Model) View() tea.View {
	width := m.width
	if width <= 0 {
		width = 80
	}
	if m.editor != nil {
		e := m.editor
		what := "Edit the held line"
		if e.action == tap.ActionAnswer {
			what = "Answer in the other side's place"
		}
		head := fmt.Sprintf("%s #%d (%s) — %s send, %s leave it held", what, e.hold.Hold, arrow(e.hold.Dir),
			m.keys.Overlay.Submit.Help().Key, m.keys.Overlay.Close.Help().Key)
		body := inert.Fit(head, width) + "\n" + e.ta.View() + "\n" + inert.Fit(inert.Line(e.err), width)
		v := tea.NewView(body)
		v.AltScreen = true
		return v
	}
	v := m.inner.View()
	v.Content += "\n" + m.BreakLine(width) + "\n" + m.StatusLine(width)
	return v
}

// BreakLine is the breakpoint line: the oldest hold and its keys, the
// filter armed, or how to arm one.
func (m *Model) BreakLine(width int) string {
	k := m.keys.Tap
	switch {
	case m.filter != nil:
		return kit.Fit(m.filter.View(), width) // the person's own text, styled
	case len(m.holds) > 0:
		h := m.holds[0]
		now := time.Now()
		if m.opts.Now != nil {
			now = m.opts.Now()
		}
		left := max(h.Deadline.Sub(now).Round(time.Second), 0)
		what := m.describeHold(h)
		more := ""
		if len(m.holds) > 1 {
			more = fmt.Sprintf(" (+%d held)", len(m.holds)-1)
		}
		keys := fmt.Sprintf("  %s %s  %s %s  %s %s  %s %s", k.Forward.Help().Key, "forward", k.Drop.Help().Key, "drop",
			k.Edit.Help().Key, "edit", k.Answer.Help().Key, "answer")
		return inert.Fit(fmt.Sprintf("HELD #%d %s, %s left%s%s", h.Hold, what, left, more, keys), width)
	case m.armed != "":
		return inert.Fit(fmt.Sprintf("breakpoint: %s   (%s change, empty clears)", inert.Line(m.armed), k.Break.Help().Key), width)
	case m.ended:
		return ""
	}
	return inert.Fit(fmt.Sprintf("no breakpoint   (%s to hold lines matching a filter)", k.Break.Help().Key), width)
}

// describeHold describes the held line h, once per hold.
func (m *Model) describeHold(h tap.Message) string {
	if m.heldFor != h.Hold || m.held == "" {
		m.held, m.heldFor = timeline.Describe(model.Wire{Dir: wireDir(h.Dir), Line: h.Line, Size: len(h.Line)}), h.Hold
	}
	return m.held
}

// StatusLine says which tap this is, whether it is live, and the last
// thing that happened.
func (m *Model) StatusLine(width int) string {
	state := "live, read-only"
	if m.ended {
		state = "the tap ended"
	}
	line := fmt.Sprintf("ATTACH %s · %s", inert.Line(m.name), state)
	if m.notice != "" {
		line += " · " + inert.Line(m.notice)
	}
	return inert.Fit(line, width)
}

// Inspector is the inspector model (tests).
func (m *Model) Inspector() *ui.Model { return m.inner }

func wireDir(d string) model.Direction {
	if d == "sent" {
		return model.Out
	}
	return model.In
}

func arrow(d string) string {
	if d == "sent" {
		return "→ server"
	}
	return "← to the host"
}
