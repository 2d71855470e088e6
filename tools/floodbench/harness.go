package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime/debug"
	"runtime/trace"
	"strings"
	"sync/atomic"
	"time"
	"unsafe"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/ansi"

	"github.com/mcptui/mcptui/internal/backend"
	"github.com/mcptui/mcptui/internal/session"
	"github.com/mcptui/mcptui/internal/session/inbox"
	"github.com/mcptui/mcptui/mcp"
	"github.com/mcptui/mcptui/model"
	"github.com/mcptui/mcptui/ui"
)

// config is how the inspector under test is set up.
type config struct {
	rate      int // the server's notifications per second; 0 as fast as it can, < 0 none
	history   int
	batch     int
	old       bool  // the memory budget and inbox limits from before they followed the cap
	memLimit  int64 // 0: model.MemoryBudget
	gcPercent int   // 0: as mcptui sets it
	frameGap  time.Duration
	budget    time.Duration
	fps       int
	explain   bool // log the program's work and break the slow presses down
}

// inspector is the real program (ui.Model on a real session, with the
// catalog, as mcptui wires it) writing to a counting screen.
type inspector struct {
	p         *tea.Program
	out       *screen
	be        *counting
	sess      *session.Session
	in        *inbox.Inbox
	done      chan struct{}
	final     tea.Model
	budget    int64
	gcPercent int
	statsPath string // the flood server's counters (floodStats)
	quit      func() *model.History
}

// start runs the inspector against floodbench's own server.
func start(cfg config) (*inspector, error) {
	exe, err := os.Executable()
	if err != nil {
		return nil, err
	}
	// As mcptui does.
	budget := model.MemoryBudget(cfg.history)
	if cfg.old {
		budget = 3*int64(cfg.history) + 256<<20
	}
	if cfg.memLimit > 0 {
		budget = cfg.memLimit
	}
	debug.SetMemoryLimit(budget)
	if cfg.gcPercent == 0 {
		cfg.gcPercent = model.GCPercent
	}
	debug.SetGCPercent(cfg.gcPercent)
	lim := inbox.LimitsFor(cfg.history)
	lim.MaxBatch = cfg.batch
	if cfg.old {
		// The limits before they followed the history cap.
		lim = inbox.Limits{MaxEvents: 1 << 16, MaxBytes: 64 << 20, MaxBatch: cfg.batch}
	}
	in := inbox.New(lim)
	statsDir, err := os.MkdirTemp("", "floodbench")
	if err != nil {
		return nil, err
	}
	statsPath := filepath.Join(statsDir, "stats")
	sess, err := session.Start(context.Background(), session.Config{
		Command: exe,
		Args:    []string{"-serve", "-rate", fmt.Sprint(cfg.rate), "-stats", statsPath},
		MCP:     mcp.Options{Versions: []string{mcp.Version20251125}},
		Inbox:   in,
	})
	if err != nil {
		_ = os.RemoveAll(statsDir)
		return nil, err
	}
	be := &counting{Session: sess}
	out := &screen{drawn: make(chan time.Time, 1)}
	if cfg.explain {
		out.log = &spanLog{}
	}
	m := &timed{Model: ui.New(ui.Options{Backend: be, Session: model.New(model.Config{HistoryBytes: cfg.history}),
		Catalog: sess.Catalog("floodbench"), Theme: "dark", NoBell: true, FrameGap: cfg.frameGap, FoldBudget: cfg.budget}), out: out}
	p := tea.NewProgram(m, tea.WithInput(nil), tea.WithOutput(out), tea.WithoutSignals(),
		tea.WithWindowSize(160, 48), tea.WithFPS(cfg.fps), tea.WithColorProfile(colorprofile.TrueColor), tea.WithEnvironment([]string{"TERM=xterm-256color"}))
	i := &inspector{p: p, out: out, be: be, sess: sess, in: in, done: make(chan struct{}), budget: budget, gcPercent: cfg.gcPercent, statsPath: statsPath}
	go func() {
		i.final, _ = p.Run()
		close(i.done)
	}()
	p.Send(tea.WindowSizeMsg{Width: 160, Height: 48})
	quitted := false
	i.quit = func() *model.History {
		if quitted {
			return nil
		}
		quitted = true
		p.Quit()
		<-i.done
		_ = sess.Shutdown(context.Background())
		in.Close()
		_ = os.RemoveAll(statsDir)
		if t, ok := i.final.(*timed); ok {
			return t.Model.(*ui.Model).Session().History()
		}
		return nil
	}
	return i, nil
}

// press sends a message (a key, a paste) and times it to the frame that
// shows its effect.
func (i *inspector) press(msg tea.Msg) (time.Duration, error) {
	select {
	case <-i.out.drawn: // a stale stamp of an untimed key
	default:
	}
	sent := time.Now()
	trace.Log(context.Background(), "press", "sent")
	i.p.Send(msg)
	select {
	case at := <-i.out.drawn:
		return at.Sub(sent), nil
	case <-time.After(10 * time.Second):
		return 0, errors.New("no frame within 10 s of a key press")
	}
}

// waitFor waits until the screen shows text (escapes aside).
func (i *inspector) waitFor(text string, within time.Duration) error {
	deadline := time.Now().Add(within)
	for time.Now().Before(deadline) {
		if i.out.shows(text) {
			return nil
		}
		time.Sleep(5 * time.Millisecond)
	}
	if v := i.out.last.Load(); v != nil { // what it showed instead, for the next one to look at
		fmt.Fprintf(os.Stderr, "floodbench: the last view, waiting for %q:\n%s\n", text, ansi.Strip(*v))
	}
	return fmt.Errorf("the screen never showed %q", text)
}

// counting is a Backend that counts the lines it hands to the UI.
type counting struct {
	*session.Session
	lines, lost atomic.Int64
}

func (c *counting) Next(ctx context.Context) ([]model.Event, error) {
	evs, err := c.Session.Next(ctx)
	for _, ev := range evs {
		switch e := ev.(type) {
		case model.Wire:
			if e.Lost {
				c.lost.Add(1)
			} else {
				c.lines.Add(1)
			}
		case model.Lost:
			c.lost.Add(int64(e.N))
		}
	}
	return evs, err
}

var _ backend.Backend = (*counting)(nil)

// screen is the program's output: it counts frames, and stamps the frame
// that writes the view holding a key press's effect. It knows that frame
// by the window title the view carries (timed numbers it): the renderer
// writes a title when it changes, in the frame that draws the view. (The
// first frame written after the view was built is not always it: a frame
// already being drawn when the view was handed over is written after it,
// and the view it left behind could then draw nothing new at all.)
type screen struct {
	frames atomic.Int64
	mark   atomic.Pointer[[]byte] // the title sequence of the view waiting to be written
	drawn  chan time.Time
	last   atomic.Pointer[string] // the latest view's content
	log    *spanLog               // with -explain
}

func (s *screen) Write(p []byte) (int, error) {
	s.frames.Add(1)
	now := time.Now()
	s.log.add("write", now, now)
	if mark := s.mark.Load(); mark != nil && bytes.Contains(p, *mark) && s.mark.CompareAndSwap(mark, nil) {
		trace.Log(context.Background(), "press", "drawn")
		select {
		case s.drawn <- now:
		default: // nobody is timing this one (keyPaste)
		}
	}
	return len(p), nil
}

// shows reports whether the latest view holds text (escapes aside).
func (s *screen) shows(text string) bool {
	v := s.last.Load()
	return v != nil && (strings.Contains(*v, text) || strings.Contains(ansi.Strip(*v), text))
}

// timed wraps the program's model: once a key press is handled, the next
// view built holds its effect; it gets a window title of its own, which
// the views after it keep, so that the frame that draws it writes it.
type timed struct {
	tea.Model
	out     *screen
	pending bool   // touched only by the program's goroutine
	presses int    // the views numbered so far
	title   string // the latest number's title
}

func (t *timed) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if t.out.log != nil {
		start := time.Now()
		defer func() { t.out.log.add(fmt.Sprintf("update %T", msg), start, time.Now()) }()
	}
	m, cmd := t.Model.Update(msg)
	t.Model = m
	switch msg.(type) {
	case tea.KeyPressMsg, tea.PasteMsg:
		t.pending = true
	}
	return t, cmd
}

func (t *timed) View() tea.View {
	if t.out.log != nil {
		start := time.Now()
		defer func() { t.out.log.add("view", start, time.Now()) }()
	}
	v := t.Model.View()
	if t.title != "" {
		v.WindowTitle = t.title
	}
	if last := t.out.last.Load(); last != nil && unsafe.StringData(*last) == unsafe.StringData(v.Content) {
		// The last view again (the UI coalesced this one): the key's
		// effect is in a later one.
		return v
	}
	t.out.last.Store(&v.Content)
	if t.pending {
		t.pending = false
		t.presses++
		t.title = fmt.Sprintf("floodbench press %d", t.presses)
		v.WindowTitle = t.title
		mark := []byte(ansi.SetWindowTitle(t.title))
		t.out.mark.Store(&mark)
		trace.Log(context.Background(), "press", "viewed")
	}
	return v
}
