// Package screentest runs a Bubble Tea model as a real program whose output
// goes into an in-memory terminal (github.com/charmbracelet/x/vt), drives it
// with messages, and returns the screen, for golden screen tests of the
// explorer and the answer editors (the way package ui tests its screens).
//
// The program and a twin model get exactly the same messages: the Cmds a
// message returns are run by the test itself (those that do not finish at
// once are left out, as a listener waiting for the server would never
// finish in a test) and their results are fed to both, while the program's
// own Cmds are dropped. So the screen is known to be final when it shows
// what the twin draws, without sleeping.
package screentest

import (
	"bytes"
	"context"
	"io"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/vt"
)

// CmdWait is how long a Cmd may take before it is taken for a listener
// and left out. Tests whose components start listeners may shorten it.
var CmdWait = 2 * time.Second

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
// and plain.
func Run(t testing.TB, mk func() tea.Model, w, h int, msgs ...tea.Msg) (styled, plain string) {
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
		case <-time.After(10 * time.Second):
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
		queue = append(Drain(cmd), queue...)
		wait(t, term, wrote, twin)
	}
	styled = term.Render()
	return styled, ansi.Strip(styled)
}

// Drain runs a Cmd (and the Cmds of batches and sequences) and returns the
// messages they produce, leaving out those that do not finish quickly.
func Drain(cmd tea.Cmd) []tea.Msg {
	if cmd == nil {
		return nil
	}
	ch := make(chan tea.Msg, 1)
	go func() { ch <- cmd() }()
	var msg tea.Msg
	select {
	case msg = <-ch:
	case <-time.After(CmdWait):
		return nil
	}
	switch m := msg.(type) {
	case nil:
		return nil
	case tea.BatchMsg:
		var out []tea.Msg
		for _, c := range m {
			out = append(out, Drain(c)...)
		}
		return out
	case tea.QuitMsg:
		return nil
	}
	if isInternal(msg) {
		return nil
	}
	return []tea.Msg{msg}
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
