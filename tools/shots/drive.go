package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"image/png"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/vt"

	"github.com/mcptui/mcptui/internal/backend"
	"github.com/mcptui/mcptui/internal/testkit/uitest"
	"github.com/mcptui/mcptui/model"
	"github.com/mcptui/mcptui/tools/shots/termpng"
	"github.com/mcptui/mcptui/ui"
)

// run makes every scene (or c.Only) in c.Out and returns the files written.
func run(ctx context.Context, c config) ([]string, error) {
	if err := os.MkdirAll(c.Out, 0o755); err != nil {
		return nil, err
	}
	var files []string
	var made []scene
	for _, sc := range scenes() {
		if c.Only != "" && sc.name != c.Only {
			continue
		}
		styled, err := shoot(ctx, sc, c.Width, c.Height, c.SceneTimeout)
		if err != nil {
			return files, fmt.Errorf("scene %s: %w", sc.name, err)
		}
		fs, err := write(c, sc.name, styled)
		files = append(files, fs...)
		if err != nil {
			return files, fmt.Errorf("scene %s: %w", sc.name, err)
		}
		made = append(made, sc)
	}
	if len(made) == 0 {
		return files, fmt.Errorf("no scene named %q", c.Only)
	}
	if c.Only == "" {
		index := filepath.Join(c.Out, "README.md")
		if err := os.WriteFile(index, []byte(readme(made, c)), 0o644); err != nil {
			return files, err
		}
		files = append(files, index)
	}
	return files, nil
}

// write saves a screen as <name>.png, .ansi and .txt.
func write(c config, name, styled string) ([]string, error) {
	base := filepath.Join(c.Out, name)
	img := termpng.Render(styled, c.Width, c.Height, termpng.Options{FontSize: c.FontSize})
	var buf bytes.Buffer
	if err := (&png.Encoder{CompressionLevel: png.DefaultCompression}).Encode(&buf, img); err != nil {
		return nil, err
	}
	out := []struct {
		path string
		data []byte
	}{
		{base + ".png", buf.Bytes()},
		{base + ".ansi", []byte(styled + "\n")},
		{base + ".txt", []byte(trimLines(ansi.Strip(styled)) + "\n")},
	}
	var files []string
	for _, f := range out {
		if err := os.WriteFile(f.path, f.data, 0o644); err != nil {
			return files, err
		}
		files = append(files, f.path)
	}
	return files, nil
}

// readme is the index of the screenshots.
func readme(made []scene, c config) string {
	var b strings.Builder
	b.WriteString("# Screenshots\n\n")
	b.WriteString("Made by `go run ./tools/shots` (see its doc comment): the real program, driven by scripted\n")
	fmt.Fprintf(&b, "scenes on a fixed clock, drawn at %d×%d cells. Do not edit these files; re-run the command\n", c.Width, c.Height)
	b.WriteString("whenever the UI changes. Each PNG has a `.ansi` twin (the styled screen: `cat` it in a\n")
	b.WriteString("terminal) and a `.txt` one (plain text).\n\n")
	b.WriteString("demo.png, the README's, is not a scene: it is the real binary on its demo server, captured\n")
	b.WriteString("through tmux after the README's tour, and made by\n")
	b.WriteString("`MCPTUI_E2E=1 MCPTUI_DEMO_SHOT=$PWD/screenshots/demo.png go test ./tools/shots -run TestDemoScreenshot`.\n\n")
	for _, sc := range made {
		fmt.Fprintf(&b, "## %s\n\n%s\n\n![%s](%s.png)\n\n", sc.title, sc.about, sc.title, sc.name)
	}
	return b.String()
}

// onlcr maps \n to \r\n, as a terminal's line discipline would: without a
// TTY the renderer leaves that to the output. It signals wrote after each
// write, without blocking: one pending signal is enough.
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

// shoot runs a scene through the real program into an in-memory terminal
// and returns the terminal's styled screen once it shows the scene's last
// frame. A timeout above 0 bounds the scene.
func shoot(ctx context.Context, sc scene, w, h int, timeout time.Duration) (string, error) {
	if timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, timeout)
		defer cancel()
	}

	// The twin is a second model fed the same input without a terminal;
	// what it draws is the frame to wait for.
	twin := sc.model(uitest.New())
	twin.Update(tea.WindowSizeMsg{Width: w, Height: h})
	twin.Update(ui.EventsMsg{Events: sc.events})

	fb := uitest.New()
	term := vt.NewSafeEmulator(w, h)
	wrote := make(chan struct{}, 1)
	p := tea.NewProgram(sc.model(fb), tea.WithInput(nil), tea.WithOutput(onlcr{term, wrote}), tea.WithoutSignals(),
		tea.WithWindowSize(w, h), tea.WithColorProfile(colorprofile.TrueColor),
		tea.WithEnvironment([]string{"TERM=xterm-256color", "COLORTERM=truecolor"}))
	done := make(chan error, 1)
	go func() { _, err := p.Run(); done <- err }()
	defer func() {
		p.Quit()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			p.Kill()
		}
	}()
	p.Send(tea.WindowSizeMsg{Width: w, Height: h})
	// The events reach the program the way the live ones do: through the
	// backend's inbox, in whatever batches it makes.
	fb.Push(sc.events...)
	screen, err := waitFrame(ctx, term, wrote, twin, w, h)
	if err != nil {
		return "", err
	}
	if len(sc.keys) == 0 {
		return screen, nil
	}
	// The program draws (calls View) after every message it takes, and
	// the ui sizes some parts while drawing, so the twin draws after
	// every key too; then the keys can go in one burst, and only the
	// last frame needs waiting for.
	for _, msg := range sc.keys {
		p.Send(msg)
		twin.Update(msg)
		twin.View()
	}
	return waitFrame(ctx, term, wrote, twin, w, h)
}

// waitFrame waits until the terminal looks exactly like the twin's frame,
// cell by cell with colours, and returns the screen it matched. It looks
// again each time the program wrote to the terminal, not on a clock (a
// 5 ms poll parsed the whole screen 200 times a second, taking the CPU
// the program needed to draw under -race on a busy machine). Comparing
// colours, not just text, waits out what changes only colours, such as a
// blinking cursor; comparing looks, not escape sequences, ignores how the
// renderer chose to encode them.
func waitFrame(ctx context.Context, term *vt.SafeEmulator, wrote <-chan struct{}, twin *ui.Model, w, h int) (string, error) {
	want := termpng.Parse(twin.View().Content, w, h)
	for {
		got := term.Render()
		x, y, differ := termpng.Differ(want, termpng.Parse(got, w, h))
		if !differ {
			return got, nil
		}
		select {
		case <-ctx.Done():
			return "", frameError(want.Render(), got, x, y)
		case <-wrote:
		}
	}
}

var errTimeout = errors.New("timed out")

// frameError says how the terminal's screen differs from the frame it was
// waiting for: the text, or, when only the colours differ, the first cell
// that differs and its line, escapes quoted.
func frameError(want, got string, x, y int) error {
	pw, pg := trimLines(ansi.Strip(want)), trimLines(ansi.Strip(got))
	if pw != pg {
		return fmt.Errorf("%w: the terminal never showed the expected frame.\nwant:\n%s\n\ngot:\n%s", errTimeout, pw, pg)
	}
	line := func(s string) string {
		if ls := strings.Split(s, "\n"); y < len(ls) {
			return ls[y]
		}
		return ""
	}
	return fmt.Errorf("%w: the terminal shows the expected text in other colours from column %d of line %d:\nwant %q\n got %q",
		errTimeout, x+1, y+1, line(want), line(got))
}

// trimLines drops trailing spaces and blank last lines.
func trimLines(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " ")
	}
	return strings.TrimRight(strings.Join(lines, "\n"), "\n")
}

// fixedNow is the scenes' clock: every scene is drawn at At(30).
func fixedNow() time.Time { return uitest.At(30) }

// newModel builds the program's model as the scenes run it.
func newModel(b backend.Backend, sess *model.Session, title string) *ui.Model {
	return ui.New(ui.Options{Backend: b, Session: sess, Theme: "dark", Now: fixedNow, Tick: -1, NoBell: true, Title: title})
}
