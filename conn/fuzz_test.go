package conn_test

// Fuzzing the whole incoming path: the fake server writes the fuzzer's bytes
// to a live connection, which must read, frame and dispatch them without
// panicking, stopping, or disturbing the calls that follow.

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"sync"
	"testing"

	"github.com/mcptui/mcptui/conn"
)

// violation records the first broken Observer invariant, seen on the
// connection's goroutines, for the fuzz function to report.
type violation struct {
	mu  sync.Mutex
	err error
}

func (v *violation) set(format string, args ...any) {
	v.mu.Lock()
	defer v.mu.Unlock()
	if v.err == nil {
		v.err = fmt.Errorf(format, args...)
	}
}

func (v *violation) get() error {
	v.mu.Lock()
	defer v.mu.Unlock()
	return v.err
}

// checkEvent checks what holds for every Observer event: no newline in a
// line, a size at least the line's (a trimmed \r or BOM makes it more), sent
// and received lines that are valid JSON, and a reason for each discarded
// line.
func checkEvent(v *violation, e conn.Event) {
	switch {
	case bytes.IndexByte(e.Line, '\n') >= 0:
		v.set("%v event with a newline in its line %q", e.Kind, e.Line)
	case e.Size < len(e.Line):
		v.set("%v event of size %d for a line of %d bytes", e.Kind, e.Size, len(e.Line))
	case (e.Kind == conn.Sent || e.Kind == conn.Received) && !json.Valid(e.Line):
		v.set("%v event with invalid JSON %q", e.Kind, e.Line)
	case e.Kind == conn.Discarded && e.Err == nil:
		v.set("Discarded event without a reason: %q", e.Line)
	case e.Kind == conn.Exited:
		v.set("the server exited: %v", e.Err)
	}
}

// FuzzDispatch writes arbitrary bytes (then a newline) from the server to one
// long-lived connection, per fuzz process. Then the connection must still be
// running, and a fresh call must get exactly its own answer. Calls made while
// the fuzzer's lines are still being dispatched may be answered by them (a
// line can forge a response to a predictable id); those are allowed to fail,
// but only once per line.
func FuzzDispatch(f *testing.F) {
	var v violation
	c := dial(f, conn.Options{
		Stderr:   &textWatch{},
		Observer: func(e conn.Event) { checkEvent(&v, e) },
		OnServerRequest: func(ctx context.Context, req *conn.Request) (json.RawMessage, error) {
			return json.RawMessage(`{"handled":true}`), nil
		},
		OnNotification: func(conn.Notification) {},
	}, "-watchdog=24h")
	f.Cleanup(func() { c.Shutdown(waitTimeout) })

	f.Fuzz(func(t *testing.T, data []byte) {
		ctx, cancel := context.WithTimeout(context.Background(), waitTimeout)
		defer cancel()
		payload := base64.StdEncoding.EncodeToString(append(bytes.Clone(data), '\n'))
		c.Call(ctx, "write", map[string]string{"b64": payload}) // the data may answer it

		echo := func() (bool, error) {
			nonce := rand.Text()
			res, err := c.Call(ctx, "echo", map[string]string{"nonce": nonce})
			return err == nil && string(res) == `{"nonce":"`+nonce+`"}`, err
		}
		// The data has at most this many lines that could forge an answer.
		forgeries := bytes.Count(data, []byte("\n")) + 1
		for i := 0; ; i++ {
			ok, err := echo()
			if ok {
				break
			}
			if i >= forgeries {
				t.Fatalf("no call answered correctly after %d attempts: %v", i+1, err)
			}
		}
		if ok, err := echo(); !ok {
			t.Fatalf("a call after the data was dispatched got a wrong answer: %v", err)
		}
		if err := c.Err(); err != nil {
			t.Fatalf("the connection stopped: %v", err)
		}
		if err := v.get(); err != nil {
			t.Fatal(err)
		}
	})
}
