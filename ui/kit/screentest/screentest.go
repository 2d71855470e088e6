// Package screentest runs a Bubble Tea model as a real program whose output
// goes into an in-memory terminal (github.com/charmbracelet/x/vt), drives it
// with messages, and returns the screen, for golden screen tests of the
// catalog and the answer editors (the way package ui tests its screens).
//
// The program and a twin model get exactly the same messages: the Cmds a
// message returns are run by the test itself, each to its end, and their
// results are fed to both, while the program's own Cmds are dropped. So
// the screen is known to be final when it shows what the twin draws,
// without sleeping. A Cmd that waits for an event no test sends (a
// subscription's next notification) would never end: the test names such
// listeners in Cmds.Listeners and they are left out, not run. Which Cmds
// are run never depends on how long they take.
package screentest

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"reflect"
	"runtime"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/vt"
)

// Cmds says which of a model's Cmds a test leaves out. The zero value
// runs every Cmd.
type Cmds struct {
	// Listeners names the functions whose Cmds wait for an event a test
	// does not send, as "(*Model).next" or "(*Model).waitAppLog": a Cmd
	// built by a closure of one of them (inlined anywhere) or by its
	// method value is left out, not run. tea.Tick's Cmds end by themselves
	// and are run unless "bubbletea/v2.Tick" is named here.
	Listeners []string
}

// cmdDeadline bounds the run of one Cmd. Generous: it is reached only by
// a Cmd that never ends, a listener the test did not name, and the test
// then fails naming it; a slow Cmd (a big form built under -race on a
// busy machine) is waited for, never taken for a listener.
const cmdDeadline = 5 * time.Minute

// onlcr maps \n to \r\n, as a terminal's line discipline would, and
// signals wrote after each write (without blocking: one pending signal is
// enough).
type onlcr struct {
	w     io.Writer
	wrote chan struct{}
}

func (o onlcr) Write(p []byte) (int, error) {
	if _, err := o.w.Write(bytes.ReplaceAll(p, []byte("\n"), []byte("\r\n"))); err != nil {
		return 0, err
	}
	select {
	case o.wrote <- struct{}{}:
	default:
	}
	return len(p), nil
}

// frameDeadline bounds the wait for one frame: generous, as a frame drawn
// under -race on a busy machine can take many seconds (ui's own screen
// tests once needed more than 15).
const frameDeadline = 90 * time.Second

// quiet runs a model without its Cmds: the test runs them.
type quiet struct{ m tea.Model }

func (q quiet) Init() tea.Cmd { return nil }
func (q quiet) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	m, _ := q.m.Update(msg)
	return quiet{m}, nil
}
func (q quiet) View() tea.View { return q.m.View() }

// Run starts mk() as a program in a w×h terminal, sends msgs one by one
// (with the results of their Cmds), and returns the final screen, styled
// and plain. Every Cmd is run.
func Run(t testing.TB, mk func() tea.Model, w, h int, msgs ...tea.Msg) (styled, plain string) {
	t.Helper()
	return Cmds{}.Run(t, mk, w, h, msgs...)
}

// Run is the package's Run, leaving out the Cmds of c's listeners.
func (c Cmds) Run(t testing.TB, mk func() tea.Model, w, h int, msgs ...tea.Msg) (styled, plain string) {
	t.Helper()
	twin := mk()
	twin, _ = twin.Update(tea.WindowSizeMsg{Width: w, Height: h})
	term := vt.NewSafeEmulator(w, h)
	wrote := make(chan struct{}, 1)
	p := tea.NewProgram(quiet{mk()}, tea.WithInput(nil), tea.WithOutput(onlcr{term, wrote}), tea.WithoutSignals(),
		tea.WithWindowSize(w, h), tea.WithColorProfile(colorprofile.TrueColor),
		tea.WithEnvironment([]string{"TERM=xterm-256color"}))
	done := make(chan error, 1)
	go func() { _, err := p.Run(); done <- err }()
	defer func() {
		p.Quit()
		select {
		case <-done:
		case <-time.After(frameDeadline):
			t.Error("the program did not stop")
		}
	}()
	p.Send(tea.WindowSizeMsg{Width: w, Height: h})
	wait(t, term, wrote, twin)
	queue := append([]tea.Msg(nil), msgs...)
	for len(queue) > 0 {
		msg := queue[0]
		queue = queue[1:]
		var cmd tea.Cmd
		twin, cmd = twin.Update(msg)
		p.Send(msg)
		out, err := c.drain(cmd)
		if err != nil {
			t.Fatal(err)
		}
		queue = append(out, queue...)
		wait(t, term, wrote, twin)
	}
	styled = term.Render()
	return styled, ansi.Strip(styled)
}

// Drain runs a Cmd (and the Cmds of its batches, in order) to its end and
// returns the messages they produce. A Cmd still running after a generous
// deadline is a listener the test did not name: Drain panics naming it.
func Drain(cmd tea.Cmd) []tea.Msg { return Cmds{}.Drain(cmd) }

// Drain is the package's Drain, leaving out the Cmds of c's listeners.
func (c Cmds) Drain(cmd tea.Cmd) []tea.Msg {
	out, err := c.drain(cmd)
	if err != nil {
		panic(err)
	}
	return out
}

func (c Cmds) drain(cmd tea.Cmd) ([]tea.Msg, error) {
	if cmd == nil {
		return nil, nil
	}
	name := FuncName(cmd)
	if c.listener(name) {
		return nil, nil
	}
	ch := make(chan tea.Msg, 1)
	go func() { ch <- cmd() }()
	var msg tea.Msg
	select {
	case msg = <-ch:
	case <-time.After(cmdDeadline):
		return nil, fmt.Errorf("screentest: the Cmd %s still runs after %v: if it waits for an event the test does not send, name it in Cmds.Listeners", name, cmdDeadline)
	}
	switch m := msg.(type) {
	case nil:
		return nil, nil
	case tea.BatchMsg:
		var out []tea.Msg
		for _, sub := range m {
			got, err := c.drain(sub)
			if err != nil {
				return nil, err
			}
			out = append(out, got...)
		}
		return out, nil
	case tea.QuitMsg:
		return nil, nil
	}
	if isInternal(msg) {
		return nil, nil
	}
	return []tea.Msg{msg}, nil
}

// listener tells whether name, a Cmd's function, is one of c's listeners.
func (c Cmds) listener(name string) bool {
	for _, l := range c.Listeners {
		if strings.Contains(name, l+".func") || strings.HasSuffix(name, l+"-fm") {
			return true
		}
	}
	return false
}

// FuncName is the name of the function a Cmd runs, as the runtime knows
// it: "pkg.(*Model).next.func1", or "pkg.(*Model).subEvent.(*Model).next.func1"
// where next was inlined into subEvent.
func FuncName(cmd tea.Cmd) string {
	if f := runtime.FuncForPC(reflect.ValueOf(cmd).Pointer()); f != nil {
		return f.Name()
	}
	return "an unnamed function"
}

// isInternal tells the messages of Bubble Tea's own Cmds (clipboard,
// terminal queries, raw output), which a test does not feed back.
func isInternal(msg tea.Msg) bool {
	switch msg.(type) {
	case tea.ClipboardMsg:
		return false
	}
	name := strings.TrimPrefix(typeName(msg), "*")
	return strings.HasPrefix(name, "tea.")
}

// wait waits, with a deadline, until the terminal shows what the twin
// draws, looking again each time the program wrote to it.
func wait(t testing.TB, term *vt.SafeEmulator, wrote <-chan struct{}, twin tea.Model) {
	t.Helper()
	want := Trim(ansi.Strip(twin.View().Content))
	ctx, cancel := context.WithTimeout(context.Background(), frameDeadline)
	defer cancel()
	for {
		got := Trim(ansi.Strip(term.Render()))
		if got == want {
			return
		}
		select {
		case <-ctx.Done():
			t.Fatalf("the screen never showed the expected frame.\nwant:\n%s\n\ngot:\n%s", want, got)
		case <-wrote:
		}
	}
}

// Trim drops trailing spaces and blank lines.
func Trim(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " ")
	}
	return strings.TrimRight(strings.Join(lines, "\n"), "\n")
}

// Key is a key press by name: "enter", "esc", "tab", "shift+tab", "up",
// "down", "left", "right", "backspace", "space", "ctrl+x", or one
// character.
func Key(k string) tea.KeyPressMsg {
	named := map[string]rune{
		"enter": tea.KeyEnter, "esc": tea.KeyEscape, "tab": tea.KeyTab, "up": tea.KeyUp, "down": tea.KeyDown,
		"left": tea.KeyLeft, "right": tea.KeyRight, "backspace": tea.KeyBackspace, "delete": tea.KeyDelete,
		"home": tea.KeyHome, "end": tea.KeyEnd, "pgup": tea.KeyPgUp, "pgdown": tea.KeyPgDown,
	}
	if k == "space" {
		return tea.KeyPressMsg{Code: tea.KeySpace, Text: " "}
	}
	if k == "shift+tab" {
		return tea.KeyPressMsg{Code: tea.KeyTab, Mod: tea.ModShift}
	}
	if c, ok := named[k]; ok {
		return tea.KeyPressMsg{Code: c}
	}
	if rest, ok := strings.CutPrefix(k, "ctrl+"); ok && len(rest) == 1 {
		return tea.KeyPressMsg{Code: rune(rest[0]), Mod: tea.ModCtrl}
	}
	if rest, ok := strings.CutPrefix(k, "alt+"); ok && len(rest) == 1 {
		return tea.KeyPressMsg{Code: rune(rest[0]), Mod: tea.ModAlt}
	}
	r := []rune(k)[0]
	return tea.KeyPressMsg{Code: r, Text: k}
}

// Keys is Key for each name.
func Keys(names ...string) []tea.Msg {
	out := make([]tea.Msg, len(names))
	for i, n := range names {
		out[i] = Key(n)
	}
	return out
}

// Type is one key press per character of s.
func Type(s string) []tea.Msg {
	var out []tea.Msg
	for _, r := range s {
		out = append(out, tea.KeyPressMsg{Code: r, Text: string(r)})
	}
	return out
}
