package catalog

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/mcptui/mcptui/conn"
	"github.com/mcptui/mcptui/demo"
	"github.com/mcptui/mcptui/internal/testkit/racechild"
	"github.com/mcptui/mcptui/mcp"
	"github.com/mcptui/mcptui/model"
	"github.com/mcptui/mcptui/themes"
	"github.com/mcptui/mcptui/ui/answer"
	"github.com/mcptui/mcptui/ui/kit/screentest"
)

// The catalog and the answer editors against real servers: the demo
// server (run from this test binary) and, when it is installed, the
// everything server. A real Bubble Tea program runs the catalog; keys go
// in as a person would type them, and the test waits for what the screen
// shows. The server's questions are answered through the answer editors,
// driven by keys too.

const envDemo = "MCPTUI_CATALOG_DEMO_SERVER"

func TestMain(m *testing.M) {
	if os.Getenv(envDemo) == "1" {
		if err := demo.Serve(context.Background(), os.Stdin, os.Stdout, os.Stderr); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	racechild.NoExitSleep() // the servers this binary starts are itself
	os.Exit(m.Run())
}

// liveWait bounds every wait for the screen.
const liveWait = 60 * time.Second

// live is a running catalog program.
type live struct {
	t       *testing.T
	p       *tea.Program
	mu      sync.Mutex
	screen  string
	changed chan struct{}
	done    chan struct{}
}

// liveModel records each frame for the test.
type liveModel struct {
	m *Model
	l *live
}

func (lm liveModel) Init() tea.Cmd { return lm.m.Init() }
func (lm liveModel) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	return lm, lm.m.Update(msg)
}
func (lm liveModel) View() tea.View {
	lines := lm.m.View(140, 50)
	plain := make([]string, len(lines))
	for i, l := range lines {
		plain[i] = strings.TrimRight(ansi.Strip(l), " ")
	}
	lm.l.set(strings.Join(plain, "\n"))
	return tea.NewView(strings.Join(lines, "\n"))
}

func (l *live) set(s string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if s != l.screen {
		l.screen = s
		close(l.changed)
		l.changed = make(chan struct{})
	}
}

// waitFor waits until the screen shows every string and returns it.
func (l *live) waitFor(want ...string) string {
	l.t.Helper()
	deadline := time.NewTimer(liveWait)
	defer deadline.Stop()
	for {
		l.mu.Lock()
		s, ch := l.screen, l.changed
		l.mu.Unlock()
		ok := true
		for _, w := range want {
			if !strings.Contains(s, w) {
				ok = false
			}
		}
		if ok {
			return s
		}
		select {
		case <-ch:
		case <-deadline.C:
			l.t.Fatalf("the screen never showed %q:\n%s", want, s)
		}
	}
}

func (l *live) keys(names ...string) {
	for _, n := range names {
		l.p.Send(screentest.Key(n))
	}
}

func (l *live) typeIn(s string) {
	for _, m := range screentest.Type(s) {
		l.p.Send(m)
	}
}

// startLive connects to a server and runs the catalog on it.
func startLive(t *testing.T, command string, args []string, env []conn.EnvVar, versions []string, answers *answerers) *live {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	// The notifications reach the catalog as the inspector's model
	// hands them over: as NotificationMsg, in arrival order.
	notes := make(chan mcp.Notification, 4096)
	push := func(n mcp.Notification) {
		select {
		case notes <- n:
		default:
		}
	}
	opts := mcp.Options{Versions: versions, OnNotification: push, Conn: conn.Options{Env: env, Stderr: discard{}},
		ElicitForm: answers, ElicitURL: answers, Sampling: answers, Roots: answers, SamplingTools: true}
	client, err := mcp.Connect(ctx, command, args, opts)
	if err != nil {
		cancel()
		t.Fatalf("connect: %v", err)
	}
	l := &live{t: t, changed: make(chan struct{}), done: make(chan struct{})}
	m := New(Options{Server: &clientServer{c: func() (*mcp.Client, error) { return client, nil }, key: "live-test"},
		Styles: themes.New(themes.Dark()), SaveDir: t.TempDir(), Tick: -1,
		Roots: answers.roots})
	l.p = tea.NewProgram(liveModel{m, l}, tea.WithInput(nil), tea.WithOutput(discard{}), tea.WithoutSignals(),
		tea.WithWindowSize(140, 50))
	go func() {
		defer close(l.done)
		_, _ = l.p.Run()
	}()
	go func() {
		for {
			select {
			case n := <-notes:
				l.p.Send(NotificationMsg{N: n})
			case <-ctx.Done():
				return
			}
		}
	}()
	t.Cleanup(func() {
		l.p.Quit()
		<-l.done
		m.Stop()
		_ = client.Shutdown(2 * time.Second)
		cancel()
	})
	l.p.Send(tea.WindowSizeMsg{Width: 140, Height: 50})
	return l
}

type discard struct{}

func (discard) Write(p []byte) (int, error) { return len(p), nil }

// answerers answer the server's questions through the answer editors,
// with keys chosen per question kind.
type answerers struct {
	mu    sync.Mutex
	roots *answer.RootList
	// keys picks the keys for a question (round counts the questions of
	// that kind so far).
	keys  func(kind model.QuestionKind, round int, q *model.Question) []tea.Msg
	count map[model.QuestionKind]int
	// seen records what each editor showed, for the test log.
	seen []string
}

func newAnswerers(keys func(model.QuestionKind, int, *model.Question) []tea.Msg) *answerers {
	return &answerers{roots: answer.NewRootList([]model.Root{{URI: "file:///home/me/project", Name: "project"}}),
		keys: keys, count: map[model.QuestionKind]int{}}
}

// Answer implements mcp.Answerer: the editor gets the keys, and its
// outcome is the answer.
func (a *answerers) Answer(_ context.Context, mq *mcp.Question) (json.RawMessage, error) {
	q := &model.Question{Key: "live", Kind: model.ClassifyQuestion(mq.Method, mq.Params), Method: mq.Method,
		Params: mq.Params, RequestID: mq.Origin.RequestID, InputKey: mq.Origin.Key, Gen: 1}
	a.mu.Lock()
	round := a.count[q.Kind]
	a.count[q.Kind]++
	a.mu.Unlock()
	e := answer.New(q, answer.Options{Styles: themes.New(themes.Dark()), Roots: a.roots,
		Open: func(string) error { return nil }})
	if e == nil {
		return nil, &mcp.Error{Code: -32601, Message: "no editor for " + mq.Method}
	}
	view := strings.Join(e.View(120, 40), "\n")
	for _, k := range a.keys(q.Kind, round, q) {
		for _, r := range screentest.Drain(e.Update(k)) {
			e.Update(r)
		}
	}
	out, done := e.Done()
	a.mu.Lock()
	a.seen = append(a.seen, fmt.Sprintf("%s (%s): %s", q.Kind, e.Title(), firstLine(ansi.Strip(view), "The server")))
	a.mu.Unlock()
	switch {
	case !done:
		return nil, &mcp.Error{Code: -32603, Message: "the editor did not finish: " + strings.Join(e.View(120, 40)[38:], " ")}
	case out.Error != nil:
		return nil, &mcp.Error{Code: out.Error.Code, Message: out.Error.Message}
	}
	return out.Answer, nil
}

func firstLine(s, prefix string) string {
	for _, l := range strings.Split(s, "\n") {
		if strings.Contains(l, prefix) {
			return strings.TrimSpace(l)
		}
	}
	return ""
}

// call runs a tool (or opens any list entry) by name through the
// catalog: filter, open, fill, send; it returns what the screen shows
// once want appears.
func (l *live) call(tab string, name string, fill func(), want ...string) string {
	l.t.Helper()
	l.keys(tab, "/")
	l.typeIn(name)
	l.keys("enter")
	l.waitFor("filter " + name)
	l.keys("enter")
	if fill != nil {
		fill()
	}
	s := l.waitFor(want...)
	l.keys("esc", "esc", "esc", "esc")
	l.waitUntil("the list without a filter", func(s string) bool {
		lines := strings.SplitN(s, "\n", 3)
		return len(lines) > 2 && strings.Contains(s, "enter call/read/get") && !strings.Contains(lines[1], "filter ")
	})
	l.keys("t")
	return s
}

// waitUntil waits until ok holds for the screen.
func (l *live) waitUntil(what string, ok func(string) bool) string {
	l.t.Helper()
	deadline := time.NewTimer(liveWait)
	defer deadline.Stop()
	for {
		l.mu.Lock()
		s, ch := l.screen, l.changed
		l.mu.Unlock()
		if ok(s) {
			return s
		}
		select {
		case <-ch:
		case <-deadline.C:
			l.t.Fatalf("the screen never showed %s:\n%s", what, s)
		}
	}
}
