package tap

import (
	"bytes"
	"io"
	"os"
	"runtime"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// pipeSizeOf is the capacity of the pipe f is an end of.
func pipeSizeOf(t *testing.T, f *os.File) int {
	t.Helper()
	n, err := unix.FcntlInt(f.Fd(), unix.F_GETPIPE_SZ, 0)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// blocks reports whether f's open file is in blocking mode.
func blocks(t *testing.T, f *os.File) bool {
	t.Helper()
	raw, err := f.SyscallConn()
	if err != nil {
		t.Fatal(err)
	}
	var flags int
	var ferr error
	if err := raw.Control(func(fd uintptr) { flags, ferr = unix.FcntlInt(fd, unix.F_GETFL, 0) }); err != nil || ferr != nil {
		t.Fatal(err, ferr)
	}
	return flags&unix.O_NONBLOCK == 0
}

// keptPipes makes blocking pipes as a host does and keeps the ends given
// to the tap (its stdin's read end, its stdout's write end).
type keptPipes struct{ tapEnds []*os.File }

func (k *keptPipes) pipe() (r, w *os.File, err error) {
	r, w, err = blockingPipe()
	if err == nil {
		if len(k.tapEnds) == 0 {
			k.tapEnds = append(k.tapEnds, r) // the tap's stdin
		} else {
			k.tapEnds = append(k.tapEnds, w) // the tap's stdout
		}
	}
	return r, w, err
}

// roundTrip writes a line and reads it back through the echo.
func (h *host) roundTrip(line []byte) {
	h.t.Helper()
	if _, err := h.in.Write(line); err != nil {
		h.t.Fatal(err)
	}
	got := make([]byte, len(line))
	if _, err := io.ReadFull(h.out, got); err != nil || !bytes.Equal(got, line) {
		h.t.Fatalf("echo: %q, %v", got, err)
	}
}

// TestHostPipesGrown: the tap grows the host's pipes as it grows the
// server's (unless KeepHostPipes), and leaves the host's ends of them as
// they were: blocking. Its own waiting in Go's poller goes through a second
// open file of each pipe.
func TestHostPipesGrown(t *testing.T) {
	for _, keep := range []bool{false, true} {
		k := &keptPipes{}
		h := startTapPiped(t, "echo", Options{NoPublish: true, KeepHostPipes: keep}, false, k.pipe)
		h.roundTrip([]byte("{\"jsonrpc\":\"2.0\",\"method\":\"ping\"}\n"))
		want := pipeSize
		if keep {
			want = pipeSizeOf(t, k.tapEnds[0]) // whatever the kernel made it: untouched
			if want == pipeSize {
				t.Fatalf("the kernel's default pipe is already %d bytes: nothing to tell apart", want)
			}
		}
		for i, f := range []*os.File{h.in, h.out} {
			if got := pipeSizeOf(t, f); got != want {
				t.Errorf("keep %v: the host's pipe %d holds %d bytes, want %d", keep, i, got, want)
			}
		}
		for i, f := range append([]*os.File{h.in, h.out}, k.tapEnds...) {
			if !blocks(t, f) {
				t.Errorf("keep %v: end %d of the host's pipes was made non-blocking", keep, i)
			}
		}
		h.in.Close()
		h.wait()
	}
}

// TestServerEndsItsOutputMidSession: over a host's blocking pipes, a
// server that closes its stdout and goes on reading its stdin: the host
// sees the end of the tap's stdout at once, while the tap and the server
// still run (the tap closes every open file it has of that pipe).
func TestServerEndsItsOutputMidSession(t *testing.T) {
	h := startTapPiped(t, "closeout", Options{NoPublish: true}, false, blockingPipe)
	eof := make(chan error, 1)
	go func() {
		_, err := io.ReadAll(h.out)
		eof <- err
	}()
	select {
	case err := <-eof:
		if err != nil {
			t.Fatal(err)
		}
	case <-h.done:
		t.Fatal("the tap ended before the host saw the end of its stdout")
	case <-time.After(deadline):
		t.Fatal("the host never saw the end of the tap's stdout")
	}
	select {
	case <-h.done:
		t.Fatal("the tap ended with the server's stdin still open")
	default:
	}
	h.in.Close()
	if e := h.wait(); e.Code != 0 {
		t.Errorf("exit %+v", e)
	}
}

// TestSpliceBatchGoesOnWhole: a batch gathers in the splicer's private
// pipe with its last byte behind it, and reaches the destination in one
// piece: the reader there never sees a batch without its last byte.
func TestSpliceBatchGoesOnWhole(t *testing.T) {
	srcR, srcW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	dstR, dstW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer func() { srcR.Close(); srcW.Close(); dstR.Close(); dstW.Close() }()
	growPipe(srcW)
	growPipe(dstW)
	s := newSplicer(srcR, dstW)
	if s == nil {
		t.Fatal("no splicer between two pipes")
	}
	defer s.close()
	batch := bytes.Repeat(bulkLine(7), 3)
	if _, err := srcW.Write(batch); err != nil {
		t.Fatal(err)
	}
	if err := s.gather(len(batch) - 1); err != nil {
		t.Fatal(err)
	}
	one := make([]byte, 1)
	if _, err := io.ReadFull(srcR, one); err != nil {
		t.Fatal(err)
	}
	if err := s.add(one); err != nil {
		t.Fatal(err)
	}
	if n := pipeHolds(t, dstR); n != 0 {
		t.Fatalf("%d bytes reached the destination before the batch was whole", n)
	}
	if err := s.flush(); err != nil {
		t.Fatal(err)
	}
	if n := pipeHolds(t, dstR); n != len(batch) {
		t.Fatalf("the destination holds %d bytes, want the batch's %d", n, len(batch))
	}
	got := make([]byte, len(batch))
	if _, err := io.ReadFull(dstR, got); err != nil || !bytes.Equal(got, batch) {
		t.Fatalf("the destination got other bytes (%v)", err)
	}
}

// TestRunLeavesNoPumpBehind: the server exits while the host's stdin (a
// blocking pipe, as hosts give) stays open; once Run returned, no pump is
// left waiting on it: the tap reads the host's pipe through an open file
// of its own, in Go's poller, and closing that ends the read.
func TestRunLeavesNoPumpBehind(t *testing.T) {
	h := startTapPiped(t, "crash", Options{NoPublish: true}, false, blockingPipe)
	go func() { _, _ = io.Copy(io.Discard, h.out) }()
	h.wait()
	end := time.Now().Add(deadline)
	for {
		buf := make([]byte, 1<<20)
		stacks := buf[:runtime.Stack(buf, true)]
		if !bytes.Contains(stacks, []byte("(*pump).run")) {
			return
		}
		if time.Now().After(end) {
			t.Fatalf("a pump still runs after Run returned:\n%s", stacks)
		}
		time.Sleep(5 * time.Millisecond) // polling a condition, not timing
	}
}

// keptSockets makes blocking socketpairs, as a libuv host (Node, Electron)
// gives its servers, and keeps a duplicate of each end given to the tap:
// the same open file, which neither the tap nor the harness closes.
type keptSockets struct{ tapEnds []*os.File }

func (k *keptSockets) pipe() (r, w *os.File, err error) {
	r, w, err = socketPair()
	if err != nil {
		return r, w, err
	}
	end := w // the tap's stdout
	if len(k.tapEnds) == 0 {
		end = r // the tap's stdin
	}
	fd, err := unix.FcntlInt(end.Fd(), unix.F_DUPFD_CLOEXEC, 0)
	if err != nil {
		return nil, nil, err
	}
	k.tapEnds = append(k.tapEnds, os.NewFile(uintptr(fd), "kept "+end.Name()))
	return r, w, nil
}

// TestHostSocketsWaitInThePoller: over a host's blocking sockets the
// pumps wait in Go's poller (a pump blocked in read(2) on the socket, once
// woken, waited for a P: +60-84 µs a round trip), through a duplicate
// whose open file is made non-blocking; once the tap has ended, that open
// file is blocking again, as the host handed it over (a launching shell
// may still hold it).
func TestHostSocketsWaitInThePoller(t *testing.T) {
	k := &keptSockets{}
	h := startTapPiped(t, "echo", Options{NoPublish: true}, false, k.pipe)
	h.roundTrip([]byte("{\"jsonrpc\":\"2.0\",\"method\":\"ping\"}\n"))
	for i, f := range k.tapEnds {
		if blocks(t, f) {
			t.Errorf("the tap's end %d of the host's sockets still blocks: the pump waits in read(2)", i)
		}
	}
	for _, f := range k.tapEnds {
		defer f.Close()
	}
	for i, f := range []*os.File{h.in, h.out} {
		if !blocks(t, f) {
			t.Errorf("the host's own end %d was made non-blocking", i)
		}
	}
	h.in.Close()
	h.wait()
	for i, f := range k.tapEnds {
		if !blocks(t, f) {
			t.Errorf("the tap's end %d of the host's sockets was left non-blocking after the tap ended", i)
		}
	}
}
