package ui

import (
	"bytes"
	"context"
	"io"
	"strconv"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"
	"github.com/charmbracelet/x/vt"

	"github.com/mcptui/mcptui/internal/testkit/uitest"
	"github.com/mcptui/mcptui/model"
	"github.com/mcptui/mcptui/ui/kit/screentest"
)

// onlcr maps \n to \r\n, as a terminal's line discipline would: without a
// TTY the renderer leaves that to the output. After each write it signals
// wrote, if set (without blocking: one pending signal is enough).
type onlcr struct {
	w     io.Writer
	wrote chan struct{}
}

func (o onlcr) Write(p []byte) (int, error) {
	if _, err := o.w.Write(bytes.ReplaceAll(p, []byte("\n"), []byte("\r\n"))); err != nil {
		return 0, err
	}
	if o.wrote != nil {
		select {
		case o.wrote <- struct{}{}:
		default:
		}
	}
	return len(p), nil
}

// screenCase is a scripted screen: events, then messages (keys), drawn by
// the real program into an in-memory terminal.
type screenCase struct {
	name   string
	opts   Options
	events []model.Event
	msgs   []tea.Msg
	// runCmd names the msgs (by index) whose Cmd the twin model runs and
	// feeds back, as the program does (for a Cmd that asks the backend).
	runCmd map[int]bool
}

// trimLines drops trailing spaces so the comparison ignores how the
// renderer cleared the ends of lines.
func trimLines(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " ")
	}
	return strings.TrimRight(strings.Join(lines, "\n"), "\n")
}

// runScreen runs the program and returns the terminal's screen once it
// shows what a twin model (fed the same input) draws.
func runScreen(t *testing.T, c screenCase, w, h int) (styled, plain string) {
	t.Helper()
	mk := func(fb *uitest.Backend) *Model {
		o := c.opts
		o.Backend, o.Now, o.Tick, o.NoBell = fb, now, -1, true
		if o.Theme == "" {
			o.Theme = "dark"
		}
		o.Session = model.New(model.Config{Timeout: 30 * time.Second, Roots: []model.Root{{URI: "file:///home/me/project", Name: "project"}}})
		return New(o)
	}
	twin := mk(uitest.New())
	twin.Update(tea.WindowSizeMsg{Width: w, Height: h})
	twin.Update(EventsMsg{Events: c.events})

	fb := uitest.New()
	fb.Push(c.events...)
	term := vt.NewSafeEmulator(w, h)
	wrote := make(chan struct{}, 1)
	p := tea.NewProgram(mk(fb), tea.WithInput(nil), tea.WithOutput(onlcr{term, wrote}), tea.WithoutSignals(),
		tea.WithWindowSize(w, h), tea.WithColorProfile(colorprofile.TrueColor), tea.WithEnvironment([]string{"TERM=xterm-256color"}))
	done := make(chan error, 1)
	go func() { _, err := p.Run(); done <- err }()
	defer func() {
		p.Quit()
		select {
		case <-done:
		case <-time.After(90 * time.Second): // generous, as the frames' deadline
			t.Error("the program did not stop")
		}
	}()
	p.Send(tea.WindowSizeMsg{Width: w, Height: h})
	waitScreen(t, term, wrote, twin)
	for i, msg := range c.msgs {
		p.Send(msg)
		_, cmd := twin.Update(msg)
		if c.runCmd[i] && cmd != nil {
			for _, m := range screentest.Drain(cmd) {
				twin.Update(m)
			}
		}
		waitScreen(t, term, wrote, twin)
	}
	styled = term.Render()
	return styled, ansi.Strip(styled)
}

// waitScreen waits, with a deadline, until the terminal shows what the twin
// draws, looking again each time the program wrote to it (rendering the
// terminal every 5 ms took the CPU the program needed under -race).
func waitScreen(t *testing.T, term *vt.SafeEmulator, wrote <-chan struct{}, twin *Model) {
	t.Helper()
	want := trimLines(ansi.Strip(twin.render()))
	// Generous: a 16 MiB line drawn under -race on a machine at load 24
	// took longer than 15 s.
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	for {
		got := trimLines(ansi.Strip(term.Render()))
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

func kp(k string) tea.Msg { return keyMsg(k) }

func screenCases() []screenCase {
	session := uitest.Session()
	// 1 MiB is at least 16 times every threshold of the viewer (a 4 KiB scalar, a
	// 64 KiB document); a line at the 16 MiB limit is model.TestHugeLine's,
	// folding a large document TestViewerFoldsAHugeLine's.
	// At 16 MiB, linting and folding the line twice (twin and program) made
	// each of these scenes take 90 to 130 s under -race on a busy machine.
	withHuge := append(append([]model.Event{}, session...), uitest.Huge(1<<20)...)
	exited := append(append([]model.Event{}, session...),
		model.Stderr{Stamp: model.Stamp{Time: uitest.At(29)}, Line: "panic: runtime error: index out of range [3] with length 3"},
		model.Exited{Stamp: model.Stamp{Time: uitest.At(29.5)}, Status: "exit status 2"})
	var reply []tea.Msg
	reply = append(reply, kp("2"), kp("enter"))
	for _, r := range "The build passed with 2 warnings." {
		reply = append(reply, tea.KeyPressMsg{Code: r, Text: string(r)})
	}
	return []screenCase{
		{name: "overview", events: session},
		{name: "mono", events: session, opts: Options{NoColor: true}},
		{name: "light", events: session, opts: Options{Theme: "light"}},
		{name: "reply", events: session, msgs: reply},
		{name: "elicitation_edit", events: session, msgs: []tea.Msg{kp("2"), kp("j"), kp("e")}},
		{name: "reject", events: session, msgs: []tea.Msg{kp("2"), kp("x")}},
		{name: "huge_line_open", events: withHuge, msgs: []tea.Msg{kp("3"), kp("enter")}},
		{name: "traffic_zoom_filter", events: session, msgs: []tea.Msg{kp("3"), kp("z"), kp("/"), kp("n"), kp("o"), kp("t"), kp("e"), kp("enter")}},
		{name: "composer", events: session, msgs: []tea.Msg{kp("n")}},
		{name: "help", events: session, msgs: []tea.Msg{kp("2"), kp("?")}},
		{name: "exited", events: exited},
		{name: "failed_start", events: failedStart()},
		{name: "viewer_fold", events: session, msgs: []tea.Msg{kp("3"), kp("g"), kp("j"), kp("j"), kp("enter"), kp("C"), kp("j"), kp("j"), kp("j"), kp("j"), kp("space")}},
		{name: "listen", events: session, msgs: []tea.Msg{kp("4"), kp("s"), kp("space"), kp("down"), kp("down"), kp("down"), kp("space")}, runCmd: map[int]bool{1: true}},
		{name: "subs_zoom", events: session, msgs: []tea.Msg{kp("4"), kp("z")}},
		{name: "catalog", events: session, opts: Options{Catalog: richServer{}}, msgs: []tea.Msg{kp("E")}, runCmd: map[int]bool{0: true}},
		{name: "catalog_form", events: session, opts: Options{Catalog: richServer{}}, msgs: []tea.Msg{kp("E"), kp("enter")}, runCmd: map[int]bool{0: true}},
	}
}

// allSizes are the four terminal sizes of the layout's goldens; the other
// cases are drawn at the middle two.
var allSizes = map[string]bool{"overview": true, "catalog": true, "help": true, "catalog_form": true}

func TestScreen(t *testing.T) {
	for _, c := range screenCases() {
		sizes := [][2]int{{100, 30}, {160, 48}}
		if allSizes[c.name] {
			sizes = [][2]int{{80, 24}, {100, 30}, {160, 48}, {240, 60}}
		}
		for _, size := range sizes {
			t.Run(c.name+"_"+sizeName(size), func(t *testing.T) {
				styled, plain := runScreen(t, c, size[0], size[1])
				t.Run("plain", func(t *testing.T) { golden.RequireEqual(t, plain) })
				t.Run("styled", func(t *testing.T) { golden.RequireEqual(t, styled) })
			})
		}
	}
}

func sizeName(s [2]int) string {
	return strings.Join([]string{strconv.Itoa(s[0]), strconv.Itoa(s[1])}, "x")
}

// failedStart is a server that wrote to stderr and exited during the
// negotiation.
func failedStart() []model.Event {
	probe := `{"jsonrpc":"2.0","id":1,"method":"server/discover","params":{}}`
	return []model.Event{
		model.Started{Stamp: model.Stamp{Time: uitest.At(0), Gen: 1}, Command: []string{"./weather-server", "--verbose"}},
		model.Negotiating{Stamp: model.Stamp{Time: uitest.At(0), Gen: 1}, Step: "probing with server/discover"},
		model.Wire{Stamp: model.Stamp{Time: uitest.At(0.1), Gen: 1}, Dir: model.Out, Line: []byte(probe), Size: len(probe)},
		model.Wire{Stamp: model.Stamp{Time: uitest.At(0.2), Gen: 1}, Dir: model.In, Line: []byte("Weather server v1.4.2 starting"), Size: 30, Discarded: true, Reason: "not JSON"},
		model.Stderr{Stamp: model.Stamp{Time: uitest.At(0.3), Gen: 1}, Line: "reading ~/.weather/config.toml"},
		model.Stderr{Stamp: model.Stamp{Time: uitest.At(0.3), Gen: 1}, Line: "Error: WEATHER_API_KEY is not set"},
		model.Stderr{Stamp: model.Stamp{Time: uitest.At(0.3), Gen: 1}, Line: "    at loadConfig (/srv/weather/config.js:12:11)"},
		model.Exited{Stamp: model.Stamp{Time: uitest.At(0.4), Gen: 1}, Status: "exit status 1"},
		model.Failed{Stamp: model.Stamp{Time: uitest.At(0.4), Gen: 1}, Err: "mcp: connecting to ./weather-server: initialize: jsonrpc error -32000: The stdio server exited: exit status 1"},
	}
}
