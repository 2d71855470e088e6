package uitest

import (
	"testing"

	tea "charm.land/bubbletea/v2"
)

// Pump hands a program's model the messages its commands yield, one at a
// time and in order, as Bubble Tea's loop does, so that a test slips a
// key in between two of them (a fold's slices). It runs every command
// synchronously: only for commands that never wait (no ticks, no backend
// that blocks in Next).
type Pump struct {
	Model tea.Model
	// Queue is the messages yielded and not handed over yet, oldest first.
	Queue []tea.Msg
}

// Send hands msg to the model and queues what its commands yield.
func (p *Pump) Send(msg tea.Msg) {
	_, cmd := p.Model.Update(msg)
	p.Run(cmd)
}

// Run queues the messages of cmd (and of the commands it batches).
func (p *Pump) Run(cmd tea.Cmd) {
	if cmd == nil {
		return
	}
	switch msg := cmd().(type) {
	case nil:
	case tea.BatchMsg:
		for _, c := range msg {
			p.Run(c)
		}
	default:
		p.Queue = append(p.Queue, msg)
	}
}

// Step hands the oldest queued message to the model; false when none is
// left.
func (p *Pump) Step() bool {
	if len(p.Queue) == 0 {
		return false
	}
	msg := p.Queue[0]
	p.Queue = p.Queue[1:]
	p.Send(msg)
	return true
}

// Drain steps until nothing is queued, and fails tb if that never comes.
func (p *Pump) Drain(tb testing.TB) {
	tb.Helper()
	for i := 0; p.Step(); i++ {
		if i > 1_000_000 {
			tb.Fatal("the commands never end")
		}
	}
}
