package catalog

import (
	"context"
	"fmt"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/mcptui/mcptui/apps"
	"github.com/mcptui/mcptui/internal/backend"
	"github.com/mcptui/mcptui/keymap"
	"github.com/mcptui/mcptui/model"
	"github.com/mcptui/mcptui/themes"
	"github.com/mcptui/mcptui/ui/answer"
	"github.com/mcptui/mcptui/ui/catalog/argstore"
	"github.com/mcptui/mcptui/ui/catalog/marks"
	"github.com/mcptui/mcptui/ui/kit"
)

// page is what the catalog's main area shows.
type page int

const (
	pageList page = iota
	pageForm
	pageRunning
	pageResult
	pageTask
)

// Options configure the catalog.
type Options struct {
	// Server is the connection as the catalog sees it (internal/session
	// implements it: the catalog has no path of its own to the client).
	Server backend.Catalog
	Styles *themes.Styles
	// Store remembers arguments across runs; nil remembers nothing.
	Store *argstore.Store
	// Roots is the client's roots list, edited from the catalog; nil
	// hides the roots editor.
	Roots *answer.RootList
	// Now is the clock; nil means time.Now.
	Now func() time.Time
	// SaveDir is where results are saved by default; "" is the working
	// directory.
	SaveDir string
	// NoAutoListen skips the subscription that refreshes the lists on
	// list-changed notifications (tests).
	NoAutoListen bool
	// Tick is how often a running call's clock is redrawn: 0 means 250 ms,
	// < 0 never (screen tests).
	Tick time.Duration
	// Keys are the bindings (the user's, rebound); nil means
	// keymap.Default().
	Keys *keymap.KeyMap
	// Subscribe, when set, opens the host's subscribe dialog with uri
	// picked ("" for none) instead of the catalog's own: one subscribe
	// dialog in the whole program.
	Subscribe func(uri string) tea.Cmd
	// Subscriptions, when set, is the number of open subscriptions the
	// host lists (pane 4), shown in the header so that the counts agree.
	Subscriptions func() int
	// DefaultTimeout is the timer of a call that sets none of its own (the
	// command line's --timeout): > 0 a duration, < 0 none, 0 unknown. A
	// tool call's options start from it, and say which it is.
	DefaultTimeout time.Duration
	// OpenURL opens an App's page in the browser; nil means
	// answer.OpenURL (the URL-opening policy's opener).
	OpenURL func(string) error
	// Marks, when on, marks the rows that changed since a baseline
	// snapshot and the tools that break a chosen host's or model's rules
	// (--baseline, --host, --model); nil marks nothing.
	Marks *marks.Config
	// Log is the host's model: the level asked of the server is read
	// from it, and its book of the server's log messages is the host's
	// log view's (pane 7), so the Log tab lists the catalog's events only.
	// nil: the catalog keeps a model of its own, from the
	// notifications/message it is handed and the level it sets, and the
	// Log tab lists that book's messages among its events (it runs
	// alone).
	Log ServerLog
}

// Model is the catalog.
type Model struct {
	opts Options
	srv  backend.Catalog
	st   *themes.Styles
	now  func() time.Time
	keys keymap.KeyMap

	w, h      int
	tab       Kind
	lists     [Log]*listing
	filter    kit.LineEdit
	filtering bool
	filters   [kinds]string
	scroll    int // details
	// detailsCache keeps the details pane between frames.
	detailsCache detailsCache

	page    page
	act     *action
	run     *running         // the call shown on the running page
	runs    map[int]*running // every call in flight, by id
	results []*result
	task    *taskView

	// log is the server's log and level (the host's model, or own);
	// own is set when the catalog keeps them itself (it runs alone).
	log  ServerLog
	own  *model.Session
	logs *logPane

	dlg     dialog
	subs    []*sub
	stopAll context.CancelFunc
	ctx     context.Context

	// building is the sequence number of the tool form being compiled
	// (0: none); see buildForm.
	building int

	// bridges are the Apps being served; appLog carries their lines.
	bridges []*apps.Bridge
	appLog  chan string

	notice    string
	noticeErr bool
	seq       int
	close     bool
}

// New builds the catalog; Init starts the listings.
func New(opts Options) *Model {
	if opts.Now == nil {
		opts.Now = time.Now
	}
	m := &Model{opts: opts, srv: opts.Server, st: opts.Styles, now: opts.Now, log: opts.Log, keys: keymap.Default()}
	if m.log == nil {
		m.own = model.New(model.Config{})
		m.log = m.own
	}
	m.logs = newLogPane(m.log, m.own != nil)
	if opts.Keys != nil {
		m.keys = *opts.Keys
	}
	for k := Tools; k < Log; k++ {
		m.lists[k] = &listing{kind: k}
	}
	m.ctx, m.stopAll = context.WithCancel(context.Background())
	return m
}

// SetStyles changes the theme.
func (m *Model) SetStyles(st *themes.Styles) { m.st = st }

// Stop ends the catalog's subscriptions and listeners.
func (m *Model) Stop() {
	m.stopAll()
	for _, b := range m.bridges {
		_ = b.Close()
	}
}

// WantsClose reports whether the person pressed esc at the top level: the
// host closes the catalog (and clears the flag with Reopen).
func (m *Model) WantsClose() bool { return m.close }

// Reopen clears WantsClose.
func (m *Model) Reopen() { m.close = false }

// OwnsKey reports whether the catalog needs a key for itself before its
// host's keys: while a text field is open (a form, the filter, a dialog),
// and the item keys on a result (tab and shift+tab move between its
// items).
func (m *Model) OwnsKey(msg tea.KeyPressMsg) bool {
	if m.dlg.kind != dlgNone || m.filtering || m.page == pageForm {
		return true
	}
	r := m.keys.Result
	return m.page == pageResult && key.Matches(msg, r.NextItem, r.PrevItem)
}

// Tab is the list shown.
func (m *Model) Tab() Kind { return m.tab }

// Init loads the lists, starts reading notifications and opens the
// subscription that keeps the lists fresh.
func (m *Model) Init() tea.Cmd {
	cmds := []tea.Cmd{m.refreshAll()}
	if !m.opts.NoAutoListen {
		cmds = append(cmds, m.autoListen())
	}
	return tea.Batch(cmds...)
}

// Refresh lists everything again (after a reconnect, say).
func (m *Model) Refresh() tea.Cmd { return m.refreshAll() }

// Messages of the catalog's own Cmds.
type (
	listedMsg struct {
		kind  Kind
		items []item
		err   error
		at    time.Time
	}
	noticeMsg struct {
		text string
		err  bool
	}
)

// say sets the status line.
func (m *Model) say(isErr bool, text string) { m.notice, m.noticeErr = text, isErr }

// Update handles a message.
func (m *Model) Update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.w, m.h = msg.Width, msg.Height
	case listedMsg:
		return m.listed(msg)
	case marksMsg:
		return m.marked(msg)
	case costMsg:
		m.costed(msg)
	case resultMarksMsg:
		for _, over := range msg.over {
			msg.res.notes = append(msg.res.notes, note{kind: noteErr, text: over})
		}
	case NotificationMsg:
		return m.notification(msg.N, nil)
	case subEventMsg:
		return m.subEvent(msg)
	case noticeMsg:
		m.say(msg.err, msg.text)
	case runMsg:
		return m.runEvent(msg)
	case appOpenedMsg:
		return m.appOpened(msg)
	case appLogMsg:
		m.logs.add(logEntry{at: m.now(), level: "info", text: "App: " + msg.line})
		return m.waitAppLog()
	case completeMsg:
		m.completed(msg)
	case formMsg:
		return m.formReady(msg)
	case levelSetMsg:
		if msg.err != nil {
			m.say(true, "setting the log level failed: "+msg.err.Error())
		} else {
			if m.own != nil {
				// The host's model hears of it from its backend.
				m.own.Apply(model.LogLevelSet{Stamp: model.Stamp{Time: m.now()}, Level: msg.level})
			}
			m.say(false, "log level set to "+msg.level)
		}
	case savedMsg:
		if msg.err != nil {
			m.say(true, "not saved: "+msg.err.Error())
		} else {
			m.say(false, fmt.Sprintf("saved %s to %s", fmtSize(msg.n), msg.path))
		}
	case taskMsg:
		return m.taskEvent(msg)
	case outcomeMsg:
		m.push(msg.res)
		if msg.raw != nil {
			// A request's result over a chosen host's cap says so, as the
			// catalog's own calls' results do.
			return m.markResult(msg.tool, msg.raw, msg.res)
		}
	case tea.PasteMsg:
		return m.paste(msg)
	case tea.KeyPressMsg:
		return m.key(msg)
	}
	return nil
}

// Run wraps the catalog as a standalone program model (demos, tests).
type Run struct{ M *Model }

// Init implements tea.Model.
func (r Run) Init() tea.Cmd { return r.M.Init() }

// Update implements tea.Model.
func (r Run) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	cmd := r.M.Update(msg)
	if r.M.WantsClose() {
		return r, tea.Quit
	}
	return r, cmd
}

// View implements tea.Model.
func (r Run) View() tea.View {
	v := tea.NewView(joinLines(r.M.View(r.M.w, r.M.h)))
	v.AltScreen = true
	return v
}

// Say shows a notice in the catalog's status line (the host's news, such
// as a question from the server).
func (m *Model) Say(isErr bool, text string) { m.say(isErr, text) }
