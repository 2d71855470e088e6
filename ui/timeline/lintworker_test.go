package timeline

import (
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/mcptui/mcptui/internal/check/lint"
	"github.com/mcptui/mcptui/internal/testkit/tmuxtest"
	"github.com/mcptui/mcptui/model"
	"github.com/mcptui/mcptui/ui"
)

// stuckLinter judges as the default lint, but its nth line waits until
// release is closed (entered is closed meanwhile): a line that takes the
// lint for ever.
type stuckLinter struct {
	model.Linter
	seen    *atomic.Int64
	nth     int64
	once    *sync.Once
	entered chan struct{}
	release chan struct{}
}

func (s *stuckLinter) Observe(l lint.Line) []lint.Finding {
	if s.seen.Add(1) == s.nth {
		s.once.Do(func() {
			close(s.entered)
			<-s.release
		})
	}
	return s.Linter.Observe(l)
}

// keySpy is the replay program, telling what the screen showed after
// each key it handled.
type keySpy struct {
	tea.Model
	shown chan string
}

func (k *keySpy) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	next, cmd := k.Model.Update(msg)
	k.Model = next
	if _, ok := msg.(tea.KeyPressMsg); ok {
		k.shown <- k.View().Content
	}
	return k, cmd
}

// Judging the recording's lines never holds the keys up: here the lint
// takes for ever over a line of the third chunk, and the help key is
// handled, its screen drawn, while the recording is still loading.
func TestKeyHandledWhileTheLintIsStuck(t *testing.T) {
	t.Parallel()
	path := writeFlood(t, t.TempDir(), 20_000)
	seen := new(atomic.Int64)
	stuck := &stuckLinter{seen: seen, nth: 2*feedChunk + 10, once: new(sync.Once), entered: make(chan struct{}), release: make(chan struct{})}
	opts := Options{Theme: "dark", Title: "flood.jsonl", FoldBudget: ui.DefaultFoldBudget, Linter: func() model.Linter {
		l := *stuck
		l.Linter = model.DefaultLinter()
		return &l
	}}
	spy := &keySpy{Model: newLoader(path, opts), shown: make(chan string, 16)}
	p := tea.NewProgram(spy, tea.WithInput(nil), tea.WithOutput(discardWriter{}), tea.WithoutSignals(), tea.WithWindowSize(140, 40))
	done := make(chan struct{})
	go func() {
		defer close(done)
		_, _ = p.Run()
	}()
	t.Cleanup(func() {
		close(stuck.release)
		p.Quit()
		<-done
		if tl, ok := spy.Model.(*Timeline); ok {
			tl.Close()
		}
	})

	select {
	case <-stuck.entered:
	case <-time.After(tmuxtest.Deadline):
		t.Fatal("the lint never reached the line it is stuck on")
	}
	p.Send(tea.KeyPressMsg{Code: '?', Text: "?"})
	select {
	case screen := <-spy.shown:
		if !strings.Contains(screen, "Keys") || !strings.Contains(screen, "loading…") {
			t.Fatalf("the help key's screen, while the recording loads, shows no help or no loading:\n%s", screen)
		}
	case <-time.After(tmuxtest.Deadline):
		t.Fatal("the help key was not handled while the lint was stuck on a line")
	}
}

type discardWriter struct{}

func (discardWriter) Write(p []byte) (int, error) { return len(p), nil }
