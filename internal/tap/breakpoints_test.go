package tap

import (
	"bufio"
	"strings"
	"testing"
)

// arm sets a viewer's breakpoint and waits for the tap to acknowledge it.
func arm(t *testing.T, v *Viewer, filter string, deadlineMs int64) {
	t.Helper()
	until(t, v, "the header", func(e feedEntry) bool { return e.Type == "header" })
	if err := v.Send(Request{Op: OpBreak, Filter: filter, DeadlineMs: deadlineMs}); err != nil {
		t.Fatal(err)
	}
	e := until(t, v, "armed", func(e feedEntry) bool { return e.Type == TypeArmed })
	if e.msg.Error != "" || e.msg.Filter != filter {
		t.Fatalf("armed %q: %+v", filter, e.msg)
	}
}

func holdOf(t *testing.T, v *Viewer) Message {
	t.Helper()
	return until(t, v, "a hold", func(e feedEntry) bool { return e.Type == TypeHold }).msg
}

// TestBreakpointEdits: a held request is edited (pretty JSON, compacted);
// the server gets the edit, and the recording marks both lines.
func TestBreakpointEdits(t *testing.T) {
	rec := tempFile(t, "bp.jsonl")
	h := startTap(t, "echo", Options{Record: rec})
	v := h.watch()
	arm(t, v, "dir:out method:tools/call", 0)
	r := bufio.NewReader(h.out)
	original := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"a"}}`
	answered := make(chan string, 1)
	go func() { answered <- roundTrip(t, h, r, original+"\n") }()
	hd := holdOf(t, v)
	if string(hd.Line) != original || hd.Dir != "sent" {
		t.Fatalf("hold = %+v, want the request going to the server", hd)
	}
	// Bad JSON is refused and the hold still waits.
	_ = v.Send(Request{Op: OpResolve, Hold: hd.Hold, Action: ActionEdit, Line: `{"broken":`})
	if e := until(t, v, "refused", func(e feedEntry) bool { return e.Type == TypeRefused }); !strings.Contains(e.msg.Error, "not valid JSON") {
		t.Fatalf("refusal: %+v", e.msg)
	}
	edit := "{\n  \"jsonrpc\": \"2.0\", \"id\": 1,\n  \"method\": \"tools/call\", \"params\": {\"name\": \"b\"}\n}"
	_ = v.Send(Request{Op: OpResolve, Hold: hd.Hold, Action: ActionEdit, Line: edit})
	want := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"b"}}` + "\n"
	if got := <-answered; got != want {
		t.Fatalf("the server got %q, want the edit %q", got, want)
	}
	h.in.Close()
	h.wait()
	marks := lineMarks(t, rec)
	wantMarks := []string{"sent withheld replaced at a breakpoint", "sent edited at a breakpoint", "received"}
	if !matchMarks(marks, wantMarks) {
		t.Errorf("recorded lines %q, want %q", marks, wantMarks)
	}
}

// TestBreakpointDrops: a dropped line never reaches the server; the next
// one does.
func TestBreakpointDrops(t *testing.T) {
	rec := tempFile(t, "bp.jsonl")
	h := startTap(t, "echo", Options{Record: rec})
	v := h.watch()
	arm(t, v, "dir:out method:tools/call", 0)
	r := bufio.NewReader(h.out)
	go func() { _, _ = h.in.WriteString(request(1, "tools/call")) }()
	hd := holdOf(t, v)
	_ = v.Send(Request{Op: OpResolve, Hold: hd.Hold, Action: ActionDrop})
	until(t, v, "resolved", func(e feedEntry) bool { return e.Type == TypeResolved })
	if got := roundTrip(t, h, r, request(2, "ping")); got != request(2, "ping") {
		t.Fatalf("the first line back is %q, want the ping (the call was dropped)", got)
	}
	h.in.Close()
	h.wait()
	if marks := lineMarks(t, rec); !matchMarks(marks, []string{"sent withheld dropped at a breakpoint", "sent", "received"}) {
		t.Errorf("recorded lines %q", marks)
	}
}

// TestBreakpointTimesOut: a hold nobody resolves lets the line go on
// unchanged at its deadline.
func TestBreakpointTimesOut(t *testing.T) {
	rec := tempFile(t, "bp.jsonl")
	h := startTap(t, "echo", Options{Record: rec})
	v := h.watch()
	arm(t, v, "tools/call", 50)
	r := bufio.NewReader(h.out)
	line := request(1, "tools/call")
	answered := make(chan string, 1)
	go func() { answered <- roundTrip(t, h, r, line) }()
	holdOf(t, v)
	// The echo comes back through the armed direction too: held, and let
	// go at its deadline as well.
	if got := <-answered; got != line {
		t.Fatalf("got %q, want the line unchanged", got)
	}
	h.in.Close()
	h.wait()
	if marks := lineMarks(t, rec); !matchMarks(marks, []string{"sent held by a breakpoint; its deadline passed", "received held by a breakpoint; its deadline passed"}) {
		t.Errorf("recorded lines %q", marks)
	}
}

// TestBreakpointAnswers: the viewer answers a request in the server's
// place; the server never sees it.
func TestBreakpointAnswers(t *testing.T) {
	h := startTap(t, "lines", Options{})
	v := h.watch()
	arm(t, v, "dir:out method:tools/call", 0)
	r := bufio.NewReader(h.out)
	answered := make(chan string, 1)
	go func() { answered <- roundTrip(t, h, r, request(7, "tools/call")) }()
	hd := holdOf(t, v)
	fake := `{"jsonrpc":"2.0","id":7,"result":{"fake":true}}`
	_ = v.Send(Request{Op: OpResolve, Hold: hd.Hold, Action: ActionAnswer, Line: fake})
	if got := <-answered; got != fake+"\n" {
		t.Fatalf("the host got %q, want the viewer's answer", got)
	}
	if got := roundTrip(t, h, r, request(8, "ping")); got != `{"jsonrpc":"2.0","id":8,"result":{"n":1}}`+"\n" {
		t.Fatalf("the server's first line is %q: it saw the answered request", got)
	}
	h.in.Close()
	h.wait()
}

// lineMarks are the recording's lines as "type [withheld] mark".
func lineMarks(t *testing.T, path string) []string {
	t.Helper()
	var out []string
	for _, e := range recordingOf(t, path).Entries {
		if !e.IsLine() {
			continue
		}
		s := e.Type
		if e.Withheld {
			s += " withheld"
		}
		if e.Mark != "" {
			s += " " + e.Mark
		}
		out = append(out, s)
	}
	return out
}

// matchMarks reports whether each got line starts with the wanted one.
func matchMarks(got, want []string) bool {
	if len(got) != len(want) {
		return false
	}
	for i := range got {
		if !hasPrefix(got[i], want[i]) {
			return false
		}
	}
	return true
}

// TestBreakpointFilterIsTheTrafficFilter: a breakpoint takes the traffic
// pane's syntax — a word matches the summary (here the tool called), not
// just the method — and a term no line can match is refused, leaving the
// breakpoint armed before as it was.
func TestBreakpointFilterIsTheTrafficFilter(t *testing.T) {
	h := startTap(t, "echo", Options{})
	v := h.watch()
	arm(t, v, "dir:out kind:req adder", 0) // the echo of the call comes back as a request too
	for _, bad := range []string{"dir:up", "kind:reply", "   "} {
		_ = v.Send(Request{Op: OpBreak, Filter: bad})
		if e := until(t, v, "armed", func(e feedEntry) bool { return e.Type == TypeArmed }); e.msg.Error == "" {
			t.Errorf("filter %q was armed: %+v", bad, e.msg)
		}
	}
	r := bufio.NewReader(h.out)
	other := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo"}}`
	if got := roundTrip(t, h, r, other+"\n"); got != other+"\n" {
		t.Fatalf("a line the filter does not match came back %q", got)
	}
	held := `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"adder"}}`
	answered := make(chan string, 1)
	go func() { answered <- roundTrip(t, h, r, held+"\n") }()
	hd := holdOf(t, v)
	if string(hd.Line) != held {
		t.Fatalf("held %q, want the call of adder", hd.Line)
	}
	_ = v.Send(Request{Op: OpResolve, Hold: hd.Hold, Action: ActionForward})
	if got := <-answered; got != held+"\n" {
		t.Fatalf("forwarded %q", got)
	}
}
