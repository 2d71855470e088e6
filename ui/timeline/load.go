package timeline

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	bubkey "charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/mcptui/mcptui/internal/inert"
	"github.com/mcptui/mcptui/internal/record"
	"github.com/mcptui/mcptui/internal/replay"
	"github.com/mcptui/mcptui/keymap"
	"github.com/mcptui/mcptui/ui/kit"
)

// Inspect opens the inspector read-only on the recording at path, with a
// timeline under the panes to step through it, and returns when the person
// quits. The screen is up at once: the recording is read while it says so.
func Inspect(ctx context.Context, path string, opts Options) error {
	if opts.Title == "" {
		opts.Title = filepath.Base(path)
	}
	l := newLoader(path, opts)
	_, err := tea.NewProgram(l, tea.WithContext(ctx), kit.DetectedColors()).Run()
	if l.tl != nil {
		l.tl.Close()
	}
	switch {
	case l.err != nil:
		return l.err
	case err != nil && ctx.Err() == nil:
		return fmt.Errorf("replay: %w", err)
	}
	return nil
}

// loader is the replay program until the recording is read. Reading a
// recording of a few hundred thousand lines, and judging its lines, takes
// seconds: it is done off the UI goroutine, under a screen that says so,
// and the timeline takes over once it is built.
type loader struct {
	path string
	opts Options
	quit bubkey.Binding
	// tl is the timeline once it is built; err why it could not be.
	tl  *Timeline
	err error
	// What arrived meanwhile, for the timeline.
	size *tea.WindowSizeMsg
	bg   *tea.BackgroundColorMsg
}

// loadedMsg is the recording read and its timeline built, or why not.
type loadedMsg struct {
	tl  *Timeline
	err error
}

func newLoader(path string, opts Options) *loader {
	return &loader{path: path, opts: opts, quit: opts.keys().Global.Quit}
}

// Init reads the recording and builds its timeline, in a Cmd.
func (l *loader) Init() tea.Cmd {
	path, opts := l.path, l.opts
	return func() tea.Msg {
		tl, err := load(path, opts)
		return loadedMsg{tl: tl, err: err}
	}
}

// load builds the timeline of the recording at path. A file is indexed
// and its events read again from it as they are shown, so that the
// replay holds what the live inspector would, not the recording; what
// cannot be read twice (a pipe) is read into memory.
func load(path string, opts Options) (*Timeline, error) {
	if fi, err := os.Stat(path); err == nil && fi.Mode().IsRegular() {
		x, err := replay.IndexFile(path, opts.MaxLineBytes)
		if err != nil {
			return nil, err
		}
		return NewTimelineIndex(x, opts)
	}
	rec, err := record.OpenLimited(path, opts.MaxLineBytes)
	if err != nil {
		return nil, err
	}
	return NewTimeline(rec, opts), nil
}

// Update hands the timeline what arrived while the recording was read,
// and makes it the program's model; until then only the quit key counts.
func (l *loader) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch m := msg.(type) {
	case loadedMsg:
		if m.err != nil {
			l.err = m.err
			return l, tea.Quit
		}
		l.tl = m.tl
		cmds := []tea.Cmd{l.tl.Init()}
		if l.size != nil {
			_, cmd := l.tl.Update(*l.size)
			cmds = append(cmds, cmd)
		}
		if l.bg != nil {
			_, cmd := l.tl.Update(*l.bg)
			cmds = append(cmds, cmd)
		}
		return l.tl, tea.Batch(cmds...)
	case tea.WindowSizeMsg:
		l.size = &m
	case tea.BackgroundColorMsg:
		l.bg = &m
	case tea.KeyPressMsg:
		if bubkey.Matches(m, l.quit) {
			return l, tea.Quit
		}
	}
	return l, nil
}

// View says the recording is being read.
func (l *loader) View() tea.View {
	width := 80
	if l.size != nil && l.size.Width > 0 {
		width = l.size.Width
	}
	line := fmt.Sprintf("REPLAY %s reading the recording…   %s", inert.Fit(l.opts.Title, 24), keymap.Hint(l.quit))
	v := tea.NewView(inert.Fit(line, width))
	v.AltScreen = true
	return v
}
