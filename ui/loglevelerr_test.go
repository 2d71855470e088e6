package ui

import (
	"testing"

	"github.com/mcptui/mcptui/internal/inert/inerttest"
	"github.com/mcptui/mcptui/internal/testkit/uitest"
	"github.com/mcptui/mcptui/model"
)

// TestLogLevelErrorIsDrawnInert: the error of logging/setLevel quotes the
// server's message; the empty log pane draws it escaped, not raw.
func TestLogLevelErrorIsDrawnInert(t *testing.T) {
	for _, name := range inerttest.Names() {
		ev := model.LogLevelSet{Stamp: model.Stamp{Time: uitest.At(1)}, Level: "debug",
			Err: "setting the log level to debug: " + inerttest.Hostile[name]}
		m, _ := newTest(t, 100, 30, ev)
		m.focus, m.zoom = paneLog, true
		if err := inerttest.Drawn(m.render()); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
}
