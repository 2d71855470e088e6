package session

import (
	"reflect"
	"testing"

	"github.com/mcptui/mcptui/internal/check/lint"
	"github.com/mcptui/mcptui/model"
)

// fakeLinter finds its rule broken on every line.
type fakeLinter struct{ rule string }

func (l fakeLinter) Observe(lint.Line) []lint.Finding { return []lint.Finding{{Rule: l.rule}} }
func (fakeLinter) Reset()                             {}

// TestNextJudgesWithTheConfiguredLinter: the live lint plugs in from above
// (the model imports no schema validator): with Config.Linter, Next hands
// out its batches judged by it, marked so, and the model keeps what it
// found without judging them again.
func TestNextJudgesWithTheConfiguredLinter(t *testing.T) {
	h := startWith(t, Config{Linter: func() model.Linter { return fakeLinter{"fake.every-line"} }})
	waitFor(h, "the first line sent", func(w model.Wire) bool { return w.Dir == model.Out })
	if n := len(h.events); n < 3 || h.events[0] != (model.LintAhead{On: true}) {
		t.Fatalf("the first batch is not marked as judged: %#v", h.events)
	}
	s := model.New(model.Config{})
	for _, ev := range h.events {
		s.Apply(ev)
	}
	fs := s.Findings()
	if len(fs) == 0 {
		t.Fatal("no findings kept")
	}
	for _, f := range fs {
		if f.Rule != "fake.every-line" {
			t.Errorf("a finding of another linter: %+v", f)
		}
	}
	// The UI's own prelinter leaves lines already judged alone.
	evs := append([]model.Event(nil), h.events...)
	model.NewPrelinterWith(fakeLinter{"fake.again"}).Lint(evs)
	for i, ev := range evs {
		if !reflect.DeepEqual(ev, h.events[i]) {
			t.Errorf("event %d judged again: %#v", i, ev)
		}
	}
}
