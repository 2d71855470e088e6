//go:build unix

package timeline

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/mcptui/mcptui/internal/testkit/tmuxtest"
)

// The replay program's screen is up before the recording is read (a big
// one takes seconds to read and judge): here the recording is a named
// pipe nobody writes to yet, so that reading it waits. Once it is read,
// the timeline takes over with the terminal's size given meanwhile.
func TestReplayScreenIsUpBeforeTheRecordingIsRead(t *testing.T) {
	t.Parallel()
	demo, err := os.ReadFile(filepath.Join("testdata", "demo.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	fifo := filepath.Join(t.TempDir(), "rec.jsonl")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	built := make(chan *loader, 1)
	go func() { built <- newLoader(fifo, Options{Theme: "dark", Title: "rec.jsonl"}) }()
	var l *loader
	select {
	case l = <-built:
	case <-time.After(tmuxtest.Deadline):
		t.Fatal("the replay program waits for the recording before its first screen")
	}
	l.Update(tea.WindowSizeMsg{Width: 140, Height: 40})
	if view := l.View(); !view.AltScreen || !strings.Contains(view.Content, "REPLAY rec.jsonl reading the recording…") {
		t.Fatalf("the first screen does not say the recording is being read: %q", view.Content)
	}

	loaded := make(chan tea.Msg, 1)
	go func() { loaded <- l.Init()() }()
	if err := os.WriteFile(fifo, demo, 0o600); err != nil {
		t.Fatal(err)
	}
	var msg tea.Msg
	select {
	case msg = <-loaded:
	case <-time.After(tmuxtest.Deadline):
		t.Fatal("the recording was never read")
	}
	next, _ := l.Update(msg)
	tl, ok := next.(*Timeline)
	if !ok {
		t.Fatalf("the timeline did not take over: %T", next)
	}
	if tl.width != 140 || tl.Cursor() != tl.Len() || !strings.Contains(tl.StatusLine(140), "exited") {
		t.Fatalf("the timeline has width %d, cursor %d of %d: %q", tl.width, tl.Cursor(), tl.Len(), tl.StatusLine(140))
	}
}

// A file that is not a recording ends the program with the error.
func TestReplayOfABadFileEndsWithItsError(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "notes.txt")
	if err := os.WriteFile(path, []byte("not a recording\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	l := newLoader(path, Options{Theme: "dark"})
	_, cmd := l.Update(l.Init()())
	if l.err == nil || cmd == nil {
		t.Fatal("a bad recording neither fails nor quits")
	}
	if _, ok := cmd().(tea.QuitMsg); !ok {
		t.Error("a bad recording does not quit the program")
	}
}
