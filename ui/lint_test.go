package ui

import (
	"strings"
	"testing"

	"github.com/mcptui/mcptui/internal/testkit/uitest"
	"github.com/mcptui/mcptui/model"
)

// A line that breaks a rule is marked in the traffic pane and counted in
// the header.
func TestLiveLintOnScreen(t *testing.T) {
	banner := "Server starting, hello"
	m, _ := newTest(t, 140, 40,
		model.Started{Stamp: model.Stamp{Time: uitest.At(0)}, Command: []string{"./server"}, PID: 7},
		model.Wire{Stamp: model.Stamp{Time: uitest.At(1)}, Dir: model.In, Line: []byte(banner), Size: len(banner), Discarded: true, Reason: "not JSON"},
	)
	s := screen(m)
	if !strings.Contains(s, "lint 1") {
		t.Errorf("no lint count in the header:\n%s", s)
	}
	seen := false
	for _, line := range strings.Split(s, "\n") {
		if strings.Contains(line, "hello") {
			seen = true
			if !strings.Contains(line, lintMark+" ") {
				t.Errorf("the banner line is not marked: %q", line)
			}
		}
	}
	if !seen {
		t.Errorf("the banner line is not on screen:\n%s", s)
	}
}
