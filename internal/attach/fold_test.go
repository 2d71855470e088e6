package attach

import (
	"fmt"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/mcptui/mcptui/internal/record"
	"github.com/mcptui/mcptui/internal/replay"
	"github.com/mcptui/mcptui/internal/tap"
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

// The breakpoint line describes a held line once per hold, not for every
// frame: a held line can be megabytes, and a flood's slices each draw one.
func TestBreakLineDescribesAHoldOnce(t *testing.T) {
	at := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	backend := replay.NewBackend(nil)
	defer backend.Close()
	m := New("t1", record.Entry{Command: "server"}, backend, noTap{}, Options{Theme: "dark", Tick: -1, Now: func() time.Time { return at }})
	hold := func(id uint64, method string) tap.Message {
		return tap.Message{Type: tap.TypeHold, Hold: id, Dir: "sent", Deadline: at.Add(30 * time.Second),
			Line: []byte(`{"jsonrpc":"2.0","id":7,"method":"` + method + `"}`)}
	}
	m.Update(tapMsg{m: hold(1, "tools/call")})
	first := m.BreakLine(140)
	if !strings.Contains(first, "tools/call") {
		t.Fatalf("the breakpoint line does not describe the hold: %q", first)
	}
	m.holds[0].Line = hold(1, "another/method").Line
	if got := m.BreakLine(140); got != first {
		t.Fatalf("the held line was described again:\n%q\n%q", got, first)
	}
	m.Update(tapMsg{m: hold(2, "prompts/get")})
	m.Update(tapMsg{m: tap.Message{Type: tap.TypeResolved, Hold: 1, Mark: "forwarded"}})
	if got := m.BreakLine(140); !strings.Contains(got, "prompts/get") {
		t.Fatalf("the next hold is not described: %q", got)
	}
}
