package conn_test

import (
	"context"
	"strconv"
	"testing"
	"time"

	"github.com/mcptui/mcptui/conn"
)

// TestControlReportsIDAndDeadline: a CallControl tells the request's id and
// its deadline while the call is in flight, and forgets the deadline after.
func TestControlReportsIDAndDeadline(t *testing.T) {
	h := start(t, conn.Options{})
	var ctl conn.CallControl
	before := time.Now()
	done := make(chan error, 1)
	go func() {
		_, err := h.call("hold/a", nil, conn.WithTimeout(time.Hour), conn.WithControl(&ctl))
		done <- err
	}()
	recv(t, ctl.Started(), "Started")
	req := h.sentRequest("hold/a")
	if got := ctl.ID(); string(req.ID) != strconv.FormatInt(got, 10) {
		t.Fatalf("ID() = %d, the wire id is %s", got, req.ID)
	}
	dl, ok := ctl.Deadline()
	if !ok || dl.Before(before.Add(time.Hour)) || dl.After(time.Now().Add(time.Hour)) {
		t.Fatalf("Deadline() = %v, %v; want about an hour from the start", dl, ok)
	}
	h.release("a")
	if err := recv(t, done, "the call's outcome"); err != nil {
		t.Fatal(err)
	}
	if _, ok := ctl.Deadline(); ok {
		t.Fatal("Deadline() still set after the call ended")
	}
}

// TestControlExtendSavesACallFromItsTimeout: a call with a short timeout that
// is extended before it expires gets its response instead of -32001.
func TestControlExtendSavesACallFromItsTimeout(t *testing.T) {
	h := start(t, conn.Options{})
	var ctl conn.CallControl
	// Extending before the call starts counts once it does.
	ctl.Extend(time.Hour)
	done := make(chan error, 1)
	go func() {
		_, err := h.call("hold/b", nil, conn.WithTimeout(50*time.Millisecond), conn.WithControl(&ctl))
		done <- err
	}()
	h.sentRequest("hold/b")
	deadline := time.Now().Add(waitTimeout)
	for {
		if dl, ok := ctl.Deadline(); ok && time.Until(dl) > 30*time.Minute {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the extension never moved the deadline")
		}
		select {
		case err := <-done:
			t.Fatalf("the call ended before the extension: %v", err)
		case <-time.After(time.Millisecond):
		}
	}
	h.release("b")
	if err := recv(t, done, "the call's outcome"); err != nil {
		t.Fatalf("extended call failed: %v", err)
	}
}

// TestControlWithoutTimerHasNoDeadline: WithTimeout(0) means no timer, and
// extending it changes nothing.
func TestControlWithoutTimerHasNoDeadline(t *testing.T) {
	h := start(t, conn.Options{})
	var ctl conn.CallControl
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		_, err := h.c.Call(ctx, "park", nil, conn.WithTimeout(0), conn.WithControl(&ctl))
		done <- err
	}()
	h.sentRequest("park")
	ctl.Extend(time.Minute)
	if _, ok := ctl.Deadline(); ok {
		t.Fatal("a call without a timer reports a deadline")
	}
	cancel()
	if err := recv(t, done, "the cancelled call"); err == nil {
		t.Fatal("cancelled call returned no error")
	}
}
