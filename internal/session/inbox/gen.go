package inbox

import (
	"time"

	"github.com/mcptui/mcptui/conn"
	"github.com/mcptui/mcptui/model"
)

// ObserverGen is a conn Observer that feeds the inbox with events stamped
// with the connection generation gen, so that the model can tell a late
// event of a restarted process from one of its successor.
func (in *Inbox) ObserverGen(gen int) func(conn.Event) {
	return func(ev conn.Event) { in.Push(model.FromConnGen(ev, gen)) }
}

// StderrGen is Stderr with every line stamped with the generation gen.
func (in *Inbox) StderrGen(gen int, now func() time.Time) *StderrWriter {
	return &StderrWriter{in: in, now: now, gen: gen}
}
