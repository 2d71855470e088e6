package tap

import (
	"bufio"
	"encoding/json"
	"errors"
	"io"
	"net"
	"os"
	"strings"
	"syscall"
	"testing"
	"time"
)

// scriptedListener is a listener whose Accepts return what the test
// queues: a connection or an error; closing it ends the queue.
type scriptedListener struct {
	next   chan accepted
	closed chan struct{}
}

type accepted struct {
	c   net.Conn
	err error
}

func newScriptedListener() *scriptedListener {
	return &scriptedListener{next: make(chan accepted, 64), closed: make(chan struct{})}
}

func (l *scriptedListener) Accept() (net.Conn, error) {
	select {
	case a := <-l.next:
		return a.c, a.err
	case <-l.closed:
		return nil, net.ErrClosed
	}
}

func (l *scriptedListener) Close() error   { close(l.closed); return nil }
func (l *scriptedListener) Addr() net.Addr { return &net.UnixAddr{Name: "scripted", Net: "unix"} }

// dial queues a connection to the hub and returns the viewer's end.
func (l *scriptedListener) dial() net.Conn {
	a, b := net.Pipe()
	l.next <- accepted{c: b}
	return a
}

// serveHub runs h on a scripted listener for the test's life.
func serveHub(t *testing.T, h *hub) *scriptedListener {
	t.Helper()
	ln := newScriptedListener()
	done := make(chan struct{})
	go func() { h.serve(ln); close(done) }()
	t.Cleanup(func() {
		ln.Close()
		<-done
	})
	return ln
}

// askInfo sends "info" on c and reads the answer (with a generous deadline).
func askInfo(c net.Conn) (Info, error) {
	_ = c.SetDeadline(time.Now().Add(20 * time.Second))
	if _, err := io.WriteString(c, `{"op":"info"}`+"\n"); err != nil {
		return Info{}, err
	}
	line, err := bufio.NewReader(c).ReadBytes('\n')
	if err != nil {
		return Info{}, err
	}
	var info Info
	return info, json.Unmarshal(line, &info)
}

// closedByTap reads c until the tap closes it; it fails the test if the
// tap keeps it open for 20 s.
func closedByTap(t *testing.T, c net.Conn, what string) {
	t.Helper()
	_ = c.SetReadDeadline(time.Now().Add(20 * time.Second))
	_, err := io.Copy(io.Discard, c)
	if errors.Is(err, os.ErrDeadlineExceeded) {
		t.Fatalf("%s: the tap kept the connection open", what)
	}
}

// TestAcceptSurvivesFailures: Accept failing (out of file descriptors, as
// after a burst of idle connections; a connection aborted) does not end
// the tap's accept loop: the next viewer is served.
func TestAcceptSurvivesFailures(t *testing.T) {
	h := newHub(func() Info { return Info{Name: "t"} })
	ln := serveHub(t, h)
	for _, err := range []error{
		&net.OpError{Op: "accept", Net: "unix", Err: os.NewSyscallError("accept4", syscall.EMFILE)},
		&net.OpError{Op: "accept", Net: "unix", Err: os.NewSyscallError("accept4", syscall.ENFILE)},
		&net.OpError{Op: "accept", Net: "unix", Err: os.NewSyscallError("accept4", syscall.ECONNABORTED)},
	} {
		ln.next <- accepted{err: err}
	}
	info, err := askInfo(ln.dial())
	if err != nil || info.Name != "t" {
		t.Fatalf("after failed Accepts: info %+v, %v", info, err)
	}
	if n := h.acceptErrs.Load(); n != 3 {
		t.Errorf("%d failed Accepts counted, want 3", n)
	}
}

// TestFirstLineHasADeadline: a connection that sends nothing is dropped
// after the first line's wait; one whose first line is longer than any
// "info" or "watch" is dropped without the tap reading on.
func TestFirstLineHasADeadline(t *testing.T) {
	h := newHub(func() Info { return Info{Name: "t"} })
	h.firstWait = 50 * time.Millisecond
	ln := serveHub(t, h)
	closedByTap(t, ln.dial(), "an idle connection")

	c := ln.dial()
	go func() { _, _ = io.WriteString(c, `{"op":"info","filter":"`+strings.Repeat("x", 2*maxFirstLine)) }()
	closedByTap(t, c, "a first line over the bound")
}

// TestConnectionsAreBounded: past the bound, a new connection is closed at
// once (it holds no file descriptor, no goroutine); once one of those
// served ends, a new one is served again.
func TestConnectionsAreBounded(t *testing.T) {
	h := newHub(func() Info { return Info{Name: "t"} })
	h.conns = make(chan struct{}, 2)
	ln := serveHub(t, h)
	idle1, idle2 := ln.dial(), ln.dial()
	closedByTap(t, ln.dial(), "a connection past the bound")
	idle1.Close()
	deadline := time.Now().Add(20 * time.Second)
	for {
		info, err := askInfo(ln.dial())
		if err == nil && info.Name == "t" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("no connection served after one of the bound ended: %v", err)
		}
	}
	idle2.Close()
}

// TestBigRequestsOneAtATime: two viewers sending big request lines at once
// are read one after the other: the second waits, unread, until the first
// is handled, so memory holds one big line, not one per viewer.
func TestBigRequestsOneAtATime(t *testing.T) {
	h := newHub(func() Info { return Info{Name: "t"} })
	_, _ = h.Write([]byte(`{"type":"header"}` + "\n"))
	ln := serveHub(t, h)
	watch := func() (net.Conn, *bufio.Reader) {
		c := ln.dial()
		_ = c.SetDeadline(time.Now().Add(60 * time.Second))
		go func() { _, _ = io.WriteString(c, `{"op":"watch"}`+"\n") }()
		r := bufio.NewReader(c)
		if _, err := r.ReadBytes('\n'); err != nil { // the header
			t.Fatal(err)
		}
		return c, r
	}
	a, ar := watch()
	b, br := watch()
	big := `{"op":"break","filter":"method:` + strings.Repeat("x", 2*bigRequest)
	writeA := make(chan error, 1)
	go func() { _, err := io.WriteString(a, big); writeA <- err }()
	waitFor(t, "the first big line to take the token", func() bool { return h.bigWaits.Load() == 1 })
	writeB := make(chan error, 1)
	go func() { _, err := io.WriteString(b, big+`"}`+"\n"); writeB <- err }()
	waitFor(t, "the second big line to wait", func() bool { return h.bigWaits.Load() == 2 })
	select {
	case err := <-writeB:
		t.Fatalf("the second big line was read while the first was: %v", err)
	default:
	}
	if err := <-writeA; err != nil {
		t.Fatal(err)
	}
	if _, err := io.WriteString(a, `"}`+"\n"); err != nil {
		t.Fatal(err)
	}
	for name, r := range map[string]*bufio.Reader{"first": ar, "second": br} {
		line, err := r.ReadBytes('\n')
		if err != nil || !strings.Contains(string(line), `"armed"`) {
			t.Fatalf("the %s viewer's break: %q, %v", name, clip(line), err)
		}
	}
}

// waitFor waits (20 s at most) until ok.
func waitFor(t *testing.T, what string, ok func() bool) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for !ok() {
		if time.Now().After(deadline) {
			t.Fatalf("waiting for %s", what)
		}
		time.Sleep(time.Millisecond)
	}
}
