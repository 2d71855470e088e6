package ui

import (
	"context"
	"github.com/mcptui/mcptui/internal/backend"
	"github.com/mcptui/mcptui/ui/kit"
	"time"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"

	"github.com/mcptui/mcptui/keymap"
	"github.com/mcptui/mcptui/model"
	"github.com/mcptui/mcptui/themes"
	"github.com/mcptui/mcptui/ui/catalog/argstore"
	"github.com/mcptui/mcptui/ui/catalog/marks"
	"github.com/mcptui/mcptui/ui/composer"
)

// Options configure the program.
type Options struct {
	// Backend is the connection; required.
	Backend backend.Backend
	// Session is the state to draw; nil makes a new one with model's
	// defaults.
	Session *model.Session
	// Keys are the bindings; the zero value means keymap.Default().
	Keys *keymap.KeyMap
	// Theme is a --theme value: auto (""), dark, light, high-contrast,
	// mono. NoColor forces mono.
	Theme   string
	NoColor bool
	// Now is the clock; nil means time.Now. Tests inject a fixed one.
	Now func() time.Time
	// Tick is how often ages and timers are redrawn: 0 means once a
	// second, < 0 never (for screen tests).
	Tick time.Duration
	// NoBell silences the terminal bell on a new question.
	NoBell bool
	// Title is the window title (the server's command).
	Title string
	// Editor is the external editor's command line for long answers;
	// "" means $VISUAL, then $EDITOR, then vi.
	Editor string
	// Catalog is the server as the catalog sees it (nil: no catalog),
	// and ArgStore remembers its arguments across runs (nil: not).
	Catalog  backend.Catalog
	ArgStore *argstore.Store
	// CatalogMarks is what the catalog marks (--baseline, --host,
	// --model; nil: nothing).
	CatalogMarks *marks.Config
	// ReadOnly is a session mcptui only watches (a recording replayed, a
	// host's session through a tap): the keys that would send to the
	// server or answer it (keymap.Senders) are left out of the footer, the
	// help and every hint, and pressing one says backend.ErrReadOnly
	// instead of opening anything. It is an option, not read off the
	// Backend: every Backend has Cancel, Answer and the rest, and only the
	// program that opens the inspector knows its backend refuses them.
	ReadOnly bool
	// FrameGap coalesces views built sooner than it after the last one
	// (see DefaultFrameGap); 0 builds one after every message.
	FrameGap time.Duration
	// FoldBudget bounds the time one Update folds the backend's events
	// (and a Budgeted EventsMsg's); the rest waits, so that input is
	// handled first (see DefaultFoldBudget); 0 folds every batch at once.
	FoldBudget time.Duration
}

// pane identifies one of the panes, in focus order.
type pane int

const (
	paneInFlight pane = iota
	panePending
	paneTraffic
	paneSubs
	paneStderr
	// paneCatalog is the catalog (ui/catalog) as a pane: it shares the
	// middle slot with traffic.
	paneCatalog
	// paneLog is the server's log (views.go), in the bottom row;
	// paneServer the server view, which shares the middle slot too.
	paneLog
	paneServer
	paneCount
)

// Model is the program's state: the session, and everything about how it is
// shown.
type Model struct {
	opts    Options
	frames  frames
	fold    folding
	backend backend.Backend
	// prelint judges each batch's lines where it is taken from the
	// backend (waitEvents' goroutine), not in Update.
	prelint *model.Prelinter
	sess    *model.Session
	keys    keymap.KeyMap
	styles  *themes.Styles
	now     clock
	darkBg  bool

	width, height int
	focus         pane
	zoom          bool
	// catalogShown says the catalog holds the middle slot (it was focused
	// after traffic); beforeCatalog is the pane esc goes back to.
	catalogShown  bool
	beforeCatalog pane
	// newRequest is the wire id of the newest request the person sent;
	// pane 1's cursor goes to it.
	newRequest string
	lists      [paneCount]listState
	// scrolls are what each list pane left out above and below when it
	// was last drawn (its border's scroll marker).
	scrolls [paneCount]kit.Scroll

	traffic      trafficView
	filterInput  textinput.Model
	stderrFollow bool
	// net is the network view's state (network.go).
	net netView
	// views are the log and server views' state (views.go).
	views views

	// overlays are the open dialogs, editors, viewers and pickers, the
	// top one last (overlay.go).
	overlays []Overlay
	// composer is the new-request dialog, kept between its openings (the
	// last request stays, to send again or change); editor the raw answer
	// editor, which the external editor's text comes back to.
	composer *composer.Composer[*Model]
	editor   *editor
	// policyState is what the answer policies remember (policies.go).
	policyState policyState
	help        help.Model
	rich        rich
	// caps are pane 1's marks of tool results over a chosen host's cap
	// (capmarks.go).
	caps capMarks

	// drafts keeps what a person typed per question key.
	drafts map[string]string

	// refused are the sending keys a read-only inspector refuses (their
	// bindings in keys are disabled); empty when live.
	refused refusedKeys

	notice    string
	noticeErr bool
	// alert stays on the status line while no notice is shown (AlertMsg).
	alert   string
	pending int
	closed  bool
}

// New builds the program's model.
func New(opts Options) *Model {
	if opts.Session == nil {
		opts.Session = model.New(model.Config{})
	}
	keys := keymap.Default()
	if opts.Keys != nil {
		keys = *opts.Keys
	}
	now := opts.Now
	if now == nil {
		now = time.Now
	}
	m := &Model{
		opts: opts, backend: opts.Backend, prelint: model.NewPrelinter(), sess: opts.Session, keys: keys, now: now,
		darkBg: true, stderrFollow: true, help: help.New(), drafts: map[string]string{},
	}
	if opts.ReadOnly {
		m.refused = watchOnly(&m.keys)
	}
	m.traffic.follow = true
	m.views.logFollow = true
	m.filterInput = textinput.New()
	m.filterInput.Prompt = "/ "
	m.filterInput.Placeholder = "text  dir:in|out  kind:error  method:tools/  id:7"
	m.restyle()
	return m
}

// Session is the state the program draws.
func (m *Model) Session() *model.Session { return m.sess }

// restyle builds the styles for the current theme and background.
func (m *Model) restyle() {
	m.styles = themes.New(themes.Choose(m.opts.Theme, m.darkBg, m.opts.NoColor))
	m.help.Styles = m.styles.Help
}

// Init starts waiting for events, the ticker, and asks the terminal for its
// background colour (for the auto theme).
func (m *Model) Init() tea.Cmd {
	cmds := []tea.Cmd{m.waitEvents(), m.tick()}
	if m.opts.Theme == "" || m.opts.Theme == themes.NameAuto {
		cmds = append(cmds, tea.RequestBackgroundColor)
	}
	return tea.Batch(cmds...)
}

// waitEvents asks the backend for the next batch, and lints its lines
// there, off the UI goroutine (one waitEvents runs at a time: the next is
// asked for once this batch is folded).
func (m *Model) waitEvents() tea.Cmd {
	if m.backend == nil || m.closed {
		return nil
	}
	b, pre := m.backend, m.prelint
	return func() tea.Msg {
		evs, err := b.Next(context.Background())
		pre.Lint(evs)
		return eventsMsg{events: model.Judged(evs), err: err}
	}
}

// tick schedules the next redraw of the clocks.
func (m *Model) tick() tea.Cmd {
	d := m.opts.Tick
	if d < 0 {
		return nil
	}
	if d == 0 {
		d = time.Second
	}
	return tea.Tick(d, func(time.Time) tea.Msg { return tickMsg{} })
}

// do runs a backend call in a Cmd and reports it as an actionMsg.
func (m *Model) do(what string, fn func(ctx context.Context) error, after ...model.Event) tea.Cmd {
	return func() tea.Msg {
		return actionMsg{what: what, err: fn(context.Background()), after: after}
	}
}

// say sets the status line.
func (m *Model) say(isErr bool, format string, args ...any) {
	m.notice, m.noticeErr = sprintf(format, args...), isErr
}
