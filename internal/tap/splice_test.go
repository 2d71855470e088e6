package tap

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"strings"
	"testing"
	"time"
)

// bulkLine is a 64 KiB JSON-RPC notification numbered i: big enough for
// the fast path.
func bulkLine(i int) []byte {
	head := fmt.Sprintf(`{"jsonrpc":"2.0","method":"bulk","params":{"i":%d,"pad":"`, i)
	tail := "\"}}\n"
	return []byte(head + strings.Repeat("x", 64<<10-len(head)-len(tail)) + tail)
}

// infoUntil asks the tap for its description until ok holds.
func infoUntil(t *testing.T, h *host, what string, ok func(Info) bool) Info {
	t.Helper()
	end := time.Now().Add(deadline)
	for {
		in, err := QueryInfo(h.socket)
		if err == nil && ok(in) {
			return in
		}
		if time.Now().After(end) {
			t.Fatalf("waiting for %s: last %+v, %v", what, in, err)
		}
		time.Sleep(5 * time.Millisecond) // polling a condition, not timing
	}
}

// TestBreakpointArmedMidStream: 64 KiB lines stream through the fast path
// (the feed wants none of them); a breakpoint armed in the middle of the
// stream takes the next request, which the viewer answers in the server's
// place; disarmed, the direction goes back to the fast path. The host gets
// every byte it sent, in order, less the answered request, and the answer
// whole between two lines; no line after the disarm is held.
func TestBreakpointArmedMidStream(t *testing.T) {
	h := startTap(t, "echo", Options{FeedRate: 1})
	v := h.watch()
	got := readAll(h.out)
	var echoed bytes.Buffer // what the server gets, and echoes
	write := func(b []byte) {
		if _, err := h.in.Write(b); err != nil {
			t.Error(err)
		}
	}
	n := 0
	bulk := func(lines int) []byte {
		var b bytes.Buffer
		for range lines {
			b.Write(bulkLine(n))
			n++
		}
		return b.Bytes()
	}

	first := bulk(64)
	echoed.Write(first)
	write(first)
	before := infoUntil(t, h, "the first 4 MiB relayed", func(in Info) bool { return in.BytesReceived >= int64(echoed.Len()) })
	if canSplice && (before.SplicedSent == 0 || before.SplicedReceived == 0) {
		t.Fatalf("nothing went through the fast path: %+v", before)
	}

	// Arm while the bulk streams.
	stop, streamed := make(chan struct{}), make(chan []byte)
	go func() {
		var all bytes.Buffer
		for {
			select {
			case <-stop:
				streamed <- all.Bytes()
				return
			default:
			}
			b := bulk(4)
			all.Write(b)
			write(b)
		}
	}()
	arm(t, v, "dir:out method:tools/call", 60_000)
	close(stop)
	echoed.Write(<-streamed)

	call := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"held"}}` + "\n"
	around, after := bulk(2), bulk(2)
	echoed.Write(around)
	echoed.Write(after)
	wrote := make(chan struct{})
	go func() {
		write(append(append(append([]byte{}, around...), call...), after...))
		close(wrote)
	}()
	hd := holdOf(t, v)
	if string(hd.Line)+"\n" != call {
		t.Fatalf("held %q, want the request %q", clip(hd.Line), call)
	}
	answer := `{"jsonrpc":"2.0","id":1,"result":{"answered":true}}`
	_ = v.Send(Request{Op: OpResolve, Hold: hd.Hold, Action: ActionAnswer, Line: answer})
	<-wrote

	// Disarm while nothing streams, then stream again, with a request the
	// breakpoint would have held.
	_ = v.Send(Request{Op: OpBreak})
	until(t, v, "disarmed", func(e feedEntry) bool { return e.Type == TypeArmed && e.msg.Filter == "" })
	holds := make(chan int, 1)
	go func() {
		n := 0
		for {
			e, err := next(t, v)
			if err != nil {
				holds <- n
				return
			}
			if e.Type == TypeHold {
				n++
			}
		}
	}()
	mid := infoUntil(t, h, "the armed part relayed", func(in Info) bool { return in.BytesSent >= int64(echoed.Len()) })
	last := append(append(bulk(64), `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"free"}}`+"\n"...), bulk(64)...)
	echoed.Write(last)
	write(last)
	end := infoUntil(t, h, "everything relayed", func(in Info) bool { return in.BytesReceived >= int64(echoed.Len()) })
	if canSplice && end.SplicedSent <= mid.SplicedSent {
		t.Errorf("disarmed, the host's direction did not go back to the fast path: spliced %d, then %d", mid.SplicedSent, end.SplicedSent)
	}
	h.in.Close()
	out := receive(t, got)
	h.wait()

	// The answer is one whole line, at a line start; without it the host
	// read exactly what the server echoed.
	at := bytes.Index(out, []byte(answer+"\n"))
	if at < 0 || (at > 0 && out[at-1] != '\n') {
		t.Fatalf("the answer is not a whole line of what the host read (at %d)", at)
	}
	rest := append(append([]byte{}, out[:at]...), out[at+len(answer)+1:]...)
	if !bytes.Equal(rest, echoed.Bytes()) {
		t.Fatalf("the host read %d bytes besides the answer, want the %d echoed, in order (first difference at %d)", len(rest), echoed.Len(), firstDiff(rest, echoed.Bytes()))
	}
	if n := <-holds; n != 0 {
		t.Errorf("%d lines were held after the breakpoint was removed", n)
	}
}

// TestRelayOverBlockingPipes: a host's blocking pipes, a mixed stream
// through the fast path: byte for byte, both ways spliced.
func TestRelayOverBlockingPipes(t *testing.T) { relayOver(t, blockingPipe) }

// TestRelayOverSockets: the same over unix sockets, blocking or not.
func TestRelayOverSockets(t *testing.T) {
	if !haveSocketPairs {
		t.Skip("SKIP: there are no socket pairs on Windows")
	}
	t.Run("blocking", func(t *testing.T) { relayOver(t, socketPair) })
	t.Run("nonblocking", func(t *testing.T) { relayOver(t, nonblockingSocketPair) })
}

func relayOver(t *testing.T, pipe func() (r, w *os.File, err error)) {
	h := startTapPiped(t, "echo", Options{FeedRate: 1}, true, pipe)
	want := mixedStream(t)
	go func() { _, _ = h.in.Write(want) }()
	out := make([]byte, len(want))
	if _, err := io.ReadFull(h.out, out); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(out, want) {
		t.Fatalf("the host read other bytes than it sent (first difference at %d)", firstDiff(out, want))
	}
	in := infoUntil(t, h, "the counts", func(Info) bool { return true })
	if in.BytesSent != int64(len(want)) || in.BytesReceived != int64(len(want)) {
		t.Errorf("counted %d sent, %d received, want %d each", in.BytesSent, in.BytesReceived, len(want))
	}
	if canSplice && (in.SplicedSent == 0 || in.SplicedReceived == 0) {
		t.Errorf("nothing went through the fast path: %+v", in)
	}
	h.in.Close()
	if rest, _ := io.ReadAll(h.out); len(rest) != 0 {
		t.Errorf("%d bytes more after the stream", len(rest))
	}
	if e := h.wait(); e.Code != 0 {
		t.Errorf("exit %+v", e)
	}
}
