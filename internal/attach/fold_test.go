package attach

import (
	"fmt"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/mcptui/mcptui/internal/record"
	"github.com/mcptui/mcptui/internal/replay"
	"github.com/mcptui/mcptui/internal/testkit/uitest"
	"github.com/mcptui/mcptui/model"
)

// A batch the tap pushed under a flood is folded a slice at a time: with
// a budget spent at the first look at the clock, the batch's Update folds
// one chunk (ui's 128 events), a key typed meanwhile is handled before
// the rest, and the rest is folded by the slices that follow.
func TestAttachFoldsAFloodInSlices(t *testing.T) {
	const flood = 3000
	evs := uitest.Session()
	for i := range flood {
		line := fmt.Sprintf(`{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","logger":"flood","data":"tick %d"}}`, i)
		evs = append(evs, model.Wire{Stamp: model.Stamp{Time: uitest.At(30)}, Dir: model.In, Line: []byte(line), Size: len(line)})
	}
	backend := replay.NewBackend(nil)
	backend.Push(evs...)
	// Once the batch is delivered, Next answers io.EOF at once instead of
	// waiting for more: the commands can run synchronously.
	backend.Close()
	m := New("t1", record.Entry{Command: "server"}, backend, noTap{}, Options{Theme: "dark", Tick: -1, FoldBudget: time.Nanosecond})
	p := &uitest.Pump{Model: m}
	p.Send(tea.WindowSizeMsg{Width: 140, Height: 40})
	p.Run(m.Init())
	if len(p.Queue) != 1 {
		t.Fatalf("Init yielded %d messages, want the batch alone", len(p.Queue))
	}
	p.Step()
	if got := m.Inspector().Session().History().Len(); got > 128 {
		t.Fatalf("the batch's Update folded %d entries, more than a chunk", got)
	}
	waiting := m.Inspector().Backlog()
	if waiting == 0 {
		t.Fatal("the batch was folded in one piece")
	}
	p.Send(tea.KeyPressMsg{Code: '?', Text: "?"})
	if !strings.Contains(m.View().Content, "Keys") || m.Inspector().Backlog() != waiting {
		t.Fatalf("the key was not handled before the rest of the batch (%d events wait, %d before):\n%s", m.Inspector().Backlog(), waiting, m.View().Content)
	}
	p.Drain(t)
	if got := m.Inspector().Session().Logs().Len(); got < flood {
		t.Errorf("not every event was folded: %d log lines of %d", got, flood)
	}
}
