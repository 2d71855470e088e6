package inbox

import (
	"bytes"
	"context"
	"errors"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcptui/mcptui/conn"
	"github.com/mcptui/mcptui/model"
)

var t0 = time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)

func clock() time.Time { return t0 }

func wire(s string) model.Wire {
	return model.Wire{Stamp: model.Stamp{Time: t0}, Dir: model.In, Line: []byte(s), Size: len(s)}
}

func next(t *testing.T, in *Inbox) []model.Event {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	evs, err := in.Next(ctx)
	if err != nil {
		t.Fatalf("Next: %v", err)
	}
	return evs
}

func TestBatchesInOrder(t *testing.T) {
	in := New(Limits{MaxBatch: 3, Now: clock})
	for _, s := range []string{"a", "b", "c", "d"} {
		in.Push(wire(s))
	}
	first, second := next(t, in), next(t, in)
	if len(first) != 3 || len(second) != 1 || string(second[0].(model.Wire).Line) != "d" {
		t.Errorf("batches %d and %d", len(first), len(second))
	}
	if in.Len() != 0 {
		t.Errorf("%d left", in.Len())
	}
}

func TestNextWaitsForAPush(t *testing.T) {
	in := New(Limits{Now: clock})
	got := make(chan []model.Event)
	go func() {
		evs, _ := in.Next(context.Background())
		got <- evs
	}()
	in.Push(model.Ready{Stamp: model.Stamp{Time: t0}, ServerName: "x"})
	select {
	case evs := <-got:
		if r, ok := evs[0].(model.Ready); !ok || r.ServerName != "x" {
			t.Errorf("got %+v", evs)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Next did not wake up")
	}
}

func TestNextHonoursContextAndClose(t *testing.T) {
	in := New(Limits{Now: clock})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := in.Next(ctx); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled Next = %v", err)
	}
	in.Push(wire("last"))
	in.Close()
	in.Push(wire("after close"))
	if evs := next(t, in); len(evs) != 1 {
		t.Errorf("drain = %d events", len(evs))
	}
	if _, err := in.Next(context.Background()); !errors.Is(err, ErrClosed) {
		t.Errorf("closed Next = %v", err)
	}
}

func TestOverloadDropsContentThenEvents(t *testing.T) {
	in := New(Limits{MaxEvents: 2, MaxBytes: 1 << 20, MaxBatch: 100, Now: clock})
	for range 10 {
		in.Push(wire("line"))
	}
	in.Push(model.Exited{Stamp: model.Stamp{Time: t0}, Status: "exit status 1"}) // always kept
	in.Push(model.Stderr{Stamp: model.Stamp{Time: t0}, Line: "last words"})      // set aside
	evs := next(t, in)
	lost, ok := evs[0].(model.Lost)
	if !ok || lost.N != 6 {
		t.Fatalf("first event = %+v, want Lost of 6 wire lines", evs[0])
	}
	kept := evs[1:]
	if len(kept) != 5 {
		t.Fatalf("kept %d events", len(kept))
	}
	if w := kept[0].(model.Wire); w.Lost || string(w.Line) != "line" {
		t.Errorf("first line = %+v", w)
	}
	if w := kept[2].(model.Wire); !w.Lost || w.Line != nil || w.Size != 4 {
		t.Errorf("third line = %+v, want lost content with its size", w)
	}
	if _, ok := kept[4].(model.Exited); !ok {
		t.Errorf("the exit was dropped: %+v", kept[4])
	}
	if evs := next(t, in); len(evs) != 1 || evs[0].(model.Stderr).Line != "last words" {
		t.Errorf("the stderr line set aside under load = %+v", evs)
	}
}

// Under load a notification is shed but a request, a response and an error
// keep their envelope, and the server's last stderr lines come before its
// exit.
func TestOverloadKeepsEnvelopesAndLastStderr(t *testing.T) {
	in := New(Limits{MaxEvents: 2, MaxBytes: 1 << 20, MaxBatch: 1000, Now: clock})
	for range 10 {
		in.Push(wire(`{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":1,"progress":1}}`))
	}
	for i := range 50 {
		in.Push(model.Stderr{Stamp: model.Stamp{Time: t0}, Line: "stderr " + strconv.Itoa(i)})
	}
	in.Push(wire(`{"jsonrpc":"2.0","id":7,"result":{"content":[{"type":"text","text":"the answer"}]}}`))
	in.Push(wire(`{"jsonrpc":"2.0","id":8,"error":{"code":-32000,"message":"broken","data":"lots"}}`))
	in.Push(wire(`{"jsonrpc":"2.0","id":"q","method":"sampling/createMessage","params":{"messages":[]}}`))
	in.Push(model.Exited{Stamp: model.Stamp{Time: t0}, Status: "exit status 1"})
	evs := next(t, in)
	var stubs []string
	var stderr []string
	lost := 0
	for _, ev := range evs {
		switch e := ev.(type) {
		case model.Lost:
			lost += e.N
		case model.Wire:
			if e.Lost && e.Line != nil {
				stubs = append(stubs, string(e.Line))
			}
		case model.Stderr:
			stderr = append(stderr, e.Line)
		}
	}
	want := []string{
		`{"jsonrpc":"2.0","id":7,"result":null}`,
		`{"jsonrpc":"2.0","id":8,"error":{"code":-32000,"message":"broken"}}`,
		`{"jsonrpc":"2.0","id":"q","method":"sampling/createMessage"}`,
	}
	if !slices.Equal(stubs, want) {
		t.Errorf("stubs = %q, want %q", stubs, want)
	}
	if len(stderr) != keptStderr || stderr[len(stderr)-1] != "stderr 49" {
		t.Errorf("stderr kept = %q, want the last %d", stderr, keptStderr)
	}
	if _, ok := evs[len(evs)-1].(model.Exited); !ok {
		t.Errorf("the exit is not last: %+v", evs[len(evs)-1])
	}
	if lost != 6+50-keptStderr {
		t.Errorf("lost = %d", lost)
	}
}

func TestByteLimit(t *testing.T) {
	in := New(Limits{MaxBytes: 10, Now: clock})
	in.Push(wire(strings.Repeat("x", 8)))
	in.Push(wire(strings.Repeat("y", 8)))
	evs := next(t, in)
	if evs[0].(model.Wire).Lost || !evs[1].(model.Wire).Lost {
		t.Errorf("byte limit not applied: %+v", evs)
	}
	in.Push(wire(strings.Repeat("z", 8)))
	if evs := next(t, in); evs[0].(model.Wire).Lost {
		t.Error("bytes were not released by Next")
	}
}

// A producer flooding the inbox finishes without ever waiting for the
// consumer, and nothing is lost silently.
func TestFloodNeverBlocksProducer(t *testing.T) {
	in := New(Limits{MaxEvents: 1000, Now: clock})
	obs := in.Observer()
	const n = 100000
	done := make(chan struct{})
	go func() {
		defer close(done)
		line := []byte(`{"jsonrpc":"2.0","method":"notifications/message","params":{}}`)
		for range n {
			obs(conn.Event{Time: t0, Kind: conn.Received, Line: line, Size: len(line)})
		}
		in.Close()
	}()
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		t.Fatal("the producer blocked")
	}
	total := 0
	for {
		evs, err := in.Next(context.Background())
		if errors.Is(err, ErrClosed) {
			break
		}
		for _, ev := range evs {
			if l, ok := ev.(model.Lost); ok {
				total += l.N
			} else {
				total++
			}
		}
	}
	if total != n {
		t.Errorf("accounted for %d of %d lines", total, n)
	}
}

func TestStderrWriter(t *testing.T) {
	in := New(Limits{Now: clock})
	w := in.Stderr(clock)
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		_, _ = w.Write([]byte("one\r\ntw"))
		_, _ = w.Write([]byte("o\nthree"))
		_, _ = w.Write([]byte(strings.Repeat("z", maxPartial+5)))
		w.Flush()
	}()
	wg.Wait()
	evs := next(t, in)
	var lines []string
	for _, ev := range evs {
		lines = append(lines, ev.(model.Stderr).Line)
	}
	if len(lines) != 4 || lines[0] != "one" || lines[1] != "two" || len(lines[2]) != maxPartial || !strings.HasPrefix(lines[2], "three") || len(lines[3]) != 10 {
		t.Errorf("lines = %d: %q %q len %d len %d", len(lines), lines[0], lines[1], len(lines[2]), len(lines[len(lines)-1]))
	}
}

// TestALoneLineLargerThanTheByteLimitPasses: a response as long as the
// line limit, larger than the inbox's byte share of the history, reaches
// the UI with its content when nothing else is queued.
func TestALoneLineLargerThanTheByteLimitPasses(t *testing.T) {
	in := New(Limits{MaxBytes: 1 << 20})
	big := append(append([]byte(`{"jsonrpc":"2.0","id":1,"result":{"x":"`), bytes.Repeat([]byte("a"), 3<<20)...), `"}}`...)
	in.Observer()(conn.Event{Time: time.Now(), Kind: conn.Received, Line: big, Size: len(big)})
	evs, err := in.Next(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	w, ok := evs[0].(model.Wire)
	if !ok || len(w.Line) != len(big) || w.Lost {
		t.Fatalf("got %T %+v, want the whole line", evs[0], evs[0])
	}
}
