package tap

import (
	"bytes"
	"os"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// pipeHolds is how many bytes wait in the pipe f is an end of.
func pipeHolds(t *testing.T, f *os.File) int {
	t.Helper()
	n, err := unix.IoctlGetInt(int(f.Fd()), unix.TIOCINQ)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// TestDisarmedMidLineKeepsOrder: a breakpoint is armed, the host writes the
// start of a line (the tap keeps it, waiting for its end), the breakpoint
// is removed, and the rest comes with 4 MiB more: the direction goes back
// to the fast path only after that line, so nothing is reordered.
func TestDisarmedMidLineKeepsOrder(t *testing.T) {
	h := startTap(t, "echo", Options{FeedRate: 1})
	v := h.watch()
	got := readAll(h.out)
	arm(t, v, "dir:out method:tools/call", 60_000)
	line := bulkLine(0)
	head, tail := line[:40<<10], line[40<<10:]
	if _, err := h.in.Write(head); err != nil {
		t.Fatal(err)
	}
	end := time.Now().Add(deadline)
	for pipeHolds(t, h.in) > 0 { // the tap has read the head
		if time.Now().After(end) {
			t.Fatal("the tap did not read the line's start")
		}
		time.Sleep(time.Millisecond) // polling a condition, not timing
	}
	_ = v.Send(Request{Op: OpBreak})
	until(t, v, "disarmed", func(e feedEntry) bool { return e.Type == TypeArmed && e.msg.Filter == "" })
	want := append(append([]byte{}, head...), tail...)
	rest := append([]byte{}, tail...)
	for i := 1; i <= 64; i++ {
		rest = append(rest, bulkLine(i)...)
	}
	want = append(want, rest[len(tail):]...)
	if _, err := h.in.Write(rest); err != nil {
		t.Fatal(err)
	}
	h.in.Close()
	out := receive(t, got)
	h.wait()
	if !bytes.Equal(out, want) {
		t.Fatalf("the host read %d bytes, want the %d sent in order (first difference at %d)", len(out), len(want), firstDiff(out, want))
	}
}
