package ui

import (
	"context"
	"encoding/json"
	"os"
	"regexp"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/vt"

	"github.com/mcptui/mcptui/conn"
	"github.com/mcptui/mcptui/internal/backend"
	"github.com/mcptui/mcptui/internal/session"
	"github.com/mcptui/mcptui/internal/session/inbox"
	"github.com/mcptui/mcptui/mcp"
	"github.com/mcptui/mcptui/model"
)

// liveDeadline bounds every wait of the live tests: generous, because a
// loaded machine is slow, and never a measure of speed.
const liveDeadline = 90 * time.Second

// live is the real program on a real session with a hostile server (this
// test binary in one of its modes), drawn into an in-memory terminal.
type live struct {
	t      *testing.T
	term   *vt.SafeEmulator
	p      *tea.Program
	sess   *session.Session
	done   chan *Model
	mu     sync.Mutex
	titles []string
}

// startLive runs the program against the hostile server of mode.
func startLive(t *testing.T, mode string, cfg model.Config) *live {
	t.Helper()
	// A legacy server: no waiting for a silent probe.
	return startServer(t, hostileEnv, mode, []string{mcp.Version20251125}, cfg)
}

// startDemo runs the program against the demo server on versions (nil:
// negotiated).
func startDemo(t *testing.T, versions []string) *live {
	t.Helper()
	return startServer(t, demoEnv, "1", versions, model.Config{})
}

// startServer runs the program against this test binary with env set;
// opts change the program's options.
func startServer(t *testing.T, env, value string, versions []string, cfg model.Config, opts ...func(*Options, *session.Session)) *live {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	noRaceSleep := "atexit_sleep_ms=0"
	in := inbox.New(inbox.Limits{})
	s, err := session.Start(context.Background(), session.Config{
		Command: exe,
		MCP: mcp.Options{
			Conn:     conn.Options{Env: []conn.EnvVar{{Name: env, Value: &value}, {Name: "GORACE", Value: &noRaceSleep}}},
			Versions: versions,
		},
		Inbox:         in,
		ShutdownGrace: time.Second,
	})
	if err != nil {
		t.Fatal(err)
	}
	const w, h = 160, 48
	l := &live{t: t, term: vt.NewSafeEmulator(w, h), sess: s, done: make(chan *Model, 1)}
	l.term.SetCallbacks(vt.Callbacks{Title: func(s string) {
		l.mu.Lock()
		l.titles = append(l.titles, s)
		l.mu.Unlock()
	}})
	o := Options{Backend: s, Session: model.New(cfg), Theme: "dark", NoBell: true, Tick: 100 * time.Millisecond, Title: "hostile"}
	for _, f := range opts {
		f(&o, s)
	}
	m := New(o)
	l.p = tea.NewProgram(m, tea.WithInput(nil), tea.WithOutput(onlcr{w: l.term}), tea.WithoutSignals(),
		tea.WithWindowSize(w, h), tea.WithColorProfile(colorprofile.TrueColor), tea.WithEnvironment([]string{"TERM=xterm-256color"}))
	go func() {
		fm, _ := l.p.Run()
		mm, _ := fm.(*Model)
		l.done <- mm
	}()
	l.p.Send(tea.WindowSizeMsg{Width: w, Height: h})
	t.Cleanup(func() {
		l.quit()
		in.Close()
	})
	return l
}

// quit ends the program (shutting the server down, as q does) and
// returns its final model; it is safe to call twice.
func (l *live) quit() *Model {
	if l.p == nil {
		return nil
	}
	l.p.Send(keyMsg("q"))
	var m *Model
	select {
	case m = <-l.done:
	case <-time.After(liveDeadline):
		l.t.Error("the program did not quit")
		l.p.Kill()
	}
	if err := l.sess.Shutdown(context.Background()); err != nil {
		l.t.Logf("shutdown: %v", err)
	}
	l.p = nil
	return m
}

// screen is the terminal's text now.
func (l *live) screen() string { return ansi.Strip(l.term.Render()) }

// waitFor polls the screen until ok, failing at the deadline.
func (l *live) waitFor(what string, ok func(string) bool) string {
	l.t.Helper()
	deadline := time.NewTimer(liveDeadline)
	defer deadline.Stop()
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	for {
		s := l.screen()
		if ok(s) {
			return s
		}
		select {
		case <-deadline.C:
			l.t.Fatalf("the screen never showed %s:\n%s", what, s)
		case <-tick.C:
		}
	}
}

func (l *live) waitText(text string) string {
	l.t.Helper()
	return l.waitFor(quotedText(text), func(s string) bool { return strings.Contains(s, text) })
}

// waitMatch polls the screen until it matches the regular expression re.
func (l *live) waitMatch(re string) string {
	l.t.Helper()
	rx := regexp.MustCompile(re)
	return l.waitFor("/"+re+"/", rx.MatchString)
}

func quotedText(s string) string { b, _ := json.Marshal(s); return string(b) }

// answersKeys checks the program still reacts to the keyboard: the help
// opens and closes.
func (l *live) answersKeys() {
	l.t.Helper()
	l.p.Send(keyMsg("?"))
	l.waitText("Keys (esc closes)")
	l.p.Send(keyMsg("esc"))
	l.waitFor("the help closed", func(s string) bool { return !strings.Contains(s, "Keys (esc closes)") })
}

// intact checks that nothing the server sent took over the terminal: the
// header is on the first row, the frame is whole, no title was set but the
// program's own, and the escapes are shown, not obeyed.
func (l *live) intact() {
	l.t.Helper()
	s := l.screen()
	lines := strings.Split(s, "\n")
	if !strings.HasPrefix(lines[0], " mcptui │") {
		l.t.Errorf("the header is gone:\n%s", s)
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, title := range l.titles {
		if strings.Contains(title, "pwned") {
			l.t.Errorf("the server set the title: %q", title)
		}
	}
}

// TestFloodKeepsTheUIResponsive: a server floods notifications and stderr
// with escape sequences everywhere; keys still work, the history stays
// under its cap with the eviction shown, and the screen stays intact.
func TestFloodKeepsTheUIResponsive(t *testing.T) {
	if testing.Short() {
		t.Skip("floods a real process")
	}
	const capBytes = 2 << 20
	l := startLive(t, "flood", model.Config{HistoryBytes: capBytes})
	l.waitText("● ready")
	l.waitText("older lines evicted")
	for range 3 {
		l.answersKeys()
	}
	// Focus the stderr pane and the traffic pane: the escapes are drawn.
	l.p.Send(keyMsg("5"))
	l.waitText(`log `)
	l.waitText(`\x1b[2J`)
	l.intact()
	m := l.quit()
	h := m.sess.History()
	if h.Bytes() > capBytes || h.Evicted() == 0 {
		t.Errorf("history %d bytes (cap %d), %d evicted", h.Bytes(), capBytes, h.Evicted())
	}
	var ms runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&ms)
	t.Logf("flood: %d lines seen, %d kept (%d bytes), %d evicted, %d lost; heap in use %d MiB",
		h.NextSeq()-1, h.Len(), h.Bytes(), h.Evicted(), m.sess.Counters().Lost, ms.HeapInuse>>20)
}

// TestHugeLineIsListedAndDropped: a 256 MiB line is read past, listed with
// its size and why it was dropped, and the line after it arrives.
func TestHugeLineIsListedAndDropped(t *testing.T) {
	if testing.Short() {
		t.Skip("writes a 256 MiB line")
	}
	l := startLive(t, "hugeline", model.Config{})
	l.waitText("● ready")
	l.answersKeys()
	l.p.Send(keyMsg("3"))
	l.waitText("after the huge line")
	s := l.waitText("256.0 Mi") // the size column cuts "MiB"
	if !strings.Contains(s, "drop") {
		t.Errorf("the huge line is not marked as dropped:\n%s", s)
	}
	l.answersKeys()
	l.intact()
}

// TestServerThatDoesNotRead: a request to a server that never reads its
// stdin waits behind a line the pipe could not take, listed as unwritten;
// both end when they are cancelled (a cancelled unwritten request is never
// written); the UI keeps working all along, and quitting still stops the server (it ignores EOF: SIGTERM).
func TestServerThatDoesNotRead(t *testing.T) {
	if testing.Short() {
		t.Skip("fills a pipe")
	}
	l := startLive(t, "noread", model.Config{})
	l.waitText("still here")
	// Fill the pipe (64 KiB on Linux) with a big request; once it is on
	// its way, one more cannot be written: it is listed as unwritten.
	big := json.RawMessage(`{"name":"big","arguments":{"pad":"` + strings.Repeat("p", 1<<20) + `"}}`)
	// The calls end when the test has seen them stuck (not by a timer
	// that could fire before the screen showed it on a busy machine).
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	errs := make(chan error, 2)
	call := func(p json.RawMessage) {
		go func() {
			_, err := l.sess.Call(ctx, backend.CallRequest{Method: "tools/call", Params: p})
			errs <- err
		}()
	}
	call(big)
	l.waitMatch(`tools/call +big`)
	call(json.RawMessage(`{"name":"small"}`))
	l.waitMatch(`tools/call +\d+m?s +unwritten┃`)
	l.answersKeys()
	cancel()
	for range 2 {
		if err := <-errs; err == nil {
			t.Error("a call to a server that does not read succeeded")
		}
	}
	l.waitFor("both calls ended", func(s string) bool {
		return strings.Count(s, "cancelled")+strings.Count(s, "failed") >= 2 && !strings.Contains(s, "unwritten")
	})
	l.answersKeys()
	l.intact()
}

// TestCrashMidRequest: the server dies while answering; the call shows the
// connection died, and the exit status and the panic on stderr are shown.
func TestCrashMidRequest(t *testing.T) {
	l := startLive(t, "crash", model.Config{})
	l.waitText("● ready")
	go func() {
		_, _ = l.sess.Call(context.Background(), backend.CallRequest{Method: "tools/call", Params: json.RawMessage(`{"name":"boom"}`)})
	}()
	s := l.waitText("the server stopped: exit status 2")
	for _, want := range []string{"conn died", `panic: \x1b[2J`, "r restarts it"} {
		if !strings.Contains(s, want) {
			t.Errorf("missing %q in\n%s", want, s)
		}
	}
	l.answersKeys()
	l.intact()
	// r starts it again, with a boundary.
	l.p.Send(keyMsg("r"))
	l.waitText("● ready (restart 1)")
	l.p.Send(keyMsg("3"))
	l.waitText("restarted: process 2")
}

// TestQuestionsWithdrawnOrOrphaned: a question the server cancels, and one
// that dies with the connection, leave the queue marked so.
func TestQuestionsWithdrawnOrOrphaned(t *testing.T) {
	l := startLive(t, "asker", model.Config{})
	l.waitText("pending 2")
	go func() {
		_, _ = l.sess.Call(context.Background(), backend.CallRequest{Method: "tools/call", Params: json.RawMessage(`{"name":"withdraw"}`)})
	}()
	l.waitText("pending 1") // q1 withdrawn
	l.p.Send(keyMsg("2"))
	l.p.Send(keyMsg("j"))
	l.waitText("withdrawn by the server")
	go func() {
		_, _ = l.sess.Call(context.Background(), backend.CallRequest{Method: "tools/call", Params: json.RawMessage(`{"name":"die"}`)})
	}()
	l.waitText("the server stopped: exit status 3")
	l.waitText("pending 0")
	l.p.Send(keyMsg("k"))
	l.waitText("never answered: the connection stopped")
	l.intact()
}

// TestCancelAndExtendOnTheDemo: the demo's slow tool is extended and
// cancelled from the in-flight pane; its progress tool draws a bar with a
// percentage, and a growing number without a total.
func TestCancelAndExtendOnTheDemo(t *testing.T) {
	for _, versions := range [][]string{nil, {mcp.Version20251125}} {
		name := "negotiated"
		if versions != nil {
			name = versions[0]
		}
		t.Run(name, func(t *testing.T) {
			l := startDemo(t, versions)
			l.waitText("● ready")
			call := func(params string) {
				go func() {
					_, _ = l.sess.Call(context.Background(), backend.CallRequest{Method: "tools/call", Params: json.RawMessage(params),
						Timeout: 20 * time.Second, Progress: true, ResetOnProgress: true})
				}()
			}
			call(`{"name":"slow","arguments":{"seconds":120}}`)
			l.waitText("s left ") // its progress message: "119 s left"
			l.waitFor("the timer", func(s string) bool { return strings.Contains(s, "slow") && strings.Contains(s, "left┃") })
			l.p.Send(keyMsg("1"))
			l.p.Send(keyMsg("+"))
			l.waitText("extended request")
			// 20 s + 60 s left on its timer.
			l.waitMatch(`slow +\d+s +1m\d\ds left┃`)
			l.p.Send(keyMsg("c"))
			l.waitMatch(`slow +\d+s +cancelled┃`)
			l.waitText("notifications/cancelled")

			call(`{"name":"progress","arguments":{"steps":1000,"intervalMs":100,"withTotal":true,"withMessage":true}}`)
			l.waitText("% Reticulating splines")
			call(`{"name":"progress","arguments":{"steps":1000,"intervalMs":100,"withTotal":false,"withMessage":false}}`)
			l.waitFor("a bar without a total", func(s string) bool { return strings.Contains(s, "▓▓▓") })
			l.answersKeys()
		})
	}
}
