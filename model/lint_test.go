package model

import (
	"testing"
)

// The live lint marks the lines that break a rule and counts them, the
// same whether Apply judges the lines or a Prelinter judged them ahead (and
// then Apply judges nothing again).
func TestLiveLintMarksBrokenLines(t *testing.T) {
	for _, ahead := range []bool{false, true} {
		name := "in Apply"
		if ahead {
			name = "ahead"
		}
		t.Run(name, func(t *testing.T) { liveLintMarksBrokenLines(t, ahead) })
	}
}

func liveLintMarksBrokenLines(t *testing.T, ahead bool) {
	s := started(t, Config{})
	apply := s.Apply
	if ahead {
		pre := NewPrelinter()
		apply = func(ev Event) {
			evs := []Event{ev}
			pre.Lint(evs)
			s.ApplyAll(Judged(evs))
		}
	}
	apply(out(0, `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`))
	apply(in(1, `{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":"2025-11-25","capabilities":{"tools":{}},"serverInfo":{"name":"s","version":"1"}}}`))
	apply(out(2, `{"jsonrpc":"2.0","method":"notifications/initialized"}`))
	apply(in(3, `{"jsonrpc":"2.0","method":"notifications/tools/list_changed"}`))
	changed := s.History().NextSeq() - 1
	apply(Wire{Stamp: Stamp{Time: at(4)}, Dir: In, Line: []byte("Server started!"), Size: 15, Discarded: true, Reason: "not JSON"})
	banner := s.History().NextSeq() - 1
	apply(out(5, `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"p","_meta":{"progressToken":"t"}}}`))
	apply(in(6, `{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"t","progress":5}}`))
	apply(in(7, `{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"t","progress":3}}`))
	backwards := s.History().NextSeq() - 1
	apply(in(8, `{"jsonrpc":"2.0","id":1,"result":{"content":[]}}`))

	if got := s.LintMark(changed); got != "capabilities.list-changed-declared" {
		t.Errorf("list_changed without listChanged: mark %q", got)
	}
	if got := s.LintMark(banner); got != "transport.stdout-messages-only" {
		t.Errorf("banner: mark %q", got)
	}
	if got := s.LintMark(backwards); got != "progress.increasing" {
		t.Errorf("progress backwards: mark %q", got)
	}
	if s.FindingCount() != 3 || len(s.Findings()) != 3 {
		t.Errorf("findings: %d %v", s.FindingCount(), s.Findings())
	}
	// A restart forgets the old process's requests, not the findings.
	apply(Started{Stamp: Stamp{Time: at(9)}, Command: []string{"./server"}, PID: 43})
	apply(in(10, `{"jsonrpc":"2.0","id":1,"result":{}}`))
	if got := s.LintMark(s.History().NextSeq() - 1); got != "basic.response-id" || s.FindingCount() != 4 {
		t.Errorf("after restart: mark %q, %d findings", got, s.FindingCount())
	}
	if ahead && s.lint.linter != nil {
		t.Error("Apply linted lines a Prelinter had judged")
	}
}

// TestPrelinterLeavesCleanLinesAlone: a Prelinter copies only the lines
// that broke a rule, to carry their findings; a flood's clean lines go on
// as they are (re-boxing each Wire was a quarter of a flood's garbage).
func TestPrelinterLeavesCleanLinesAlone(t *testing.T) {
	const n = 1000
	evs := make([]Event, n)
	line := []byte(`{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","logger":"flood","data":"tick"}}`)
	for i := range evs {
		evs[i] = Wire{Stamp: Stamp{Time: at(1)}, Dir: In, Line: line, Size: len(line)}
	}
	pre := NewPrelinter()
	pre.Lint([]Event{Started{Stamp: Stamp{Time: at(0)}}})
	allocs := testing.AllocsPerRun(5, func() { pre.Lint(evs) })
	if perLine := allocs / n; perLine >= 0.5 {
		t.Errorf("%.2f allocations a clean line, want none", perLine)
	}
}
