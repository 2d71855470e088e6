package conn

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"os/exec"
	"runtime"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/mcptui/mcptui/internal/winproc"
)

// MarkerEnv is the variable conn adds to the server's environment; its value
// is unique to one connection, so every process the server starts, even one
// that left its process group, can be found again (on Linux, in /proc).
const MarkerEnv = "MCPTUI_SERVER_TREE"

// drainAfterExit is how long the end of stdout and stderr is still awaited
// once the server process exited, everything stdout held at that moment was
// read, the reader waits on the pipe for more and nothing more came: a child
// of the server may hold the pipes open and say nothing.
//
// drainBeyondExit bounds what is still read after the exit beyond what the
// pipe held then: a descendant that keeps writing cannot keep the
// connection open for ever. What the server wrote before it exited is
// bounded by bytes (the pipe's content), not by time, so a slow reader on a
// busy machine loses none of it.
const (
	drainAfterExit  = 250 * time.Millisecond
	drainBeyondExit = 1 << 20
)

// process is the server's process tree as conn manages it: the direct child,
// the process group it leads, and the marker its descendants carry.
type process struct {
	os     *os.Process
	pgid   int          // the group the child leads; 0 where there are none
	marker string       // MarkerEnv's value
	job    *winproc.Job // the Job Object holding the tree (Windows; nil elsewhere)

	reaped  chan struct{} // closed once the child has been waited for
	waitErr error         // how the child ended (nil: status 0); set before reaped closes
	stdoutR *os.File      // our end of the child's stdout
	stderrR *os.File      // our end of the child's stderr (nil: not captured through a pipe)
	outDone chan struct{} // closed at stdout's EOF
	outRead atomic.Int64  // bytes read from stdout
	handled atomic.Int64  // lines of stdout dispatched
	waiting atomic.Bool   // the reader waits on the pipe, every line it read dispatched
	errDone chan struct{} // closed at stderr's EOF (or at once when not captured)
}

// newMarker is a value for MarkerEnv no other connection has.
func newMarker() string {
	b := make([]byte, 12)
	_, _ = rand.Read(b)
	return fmt.Sprintf("%d-%s", os.Getpid(), hex.EncodeToString(b))
}

// startProcess starts cmd and waits for it, both from one goroutine locked
// to its OS thread: on Linux the child's parent-death signal fires when the
// thread that forked it exits, and a locked thread lives exactly as long as
// that goroutine, which returns only after the child was reaped. The child's
// exit is noticed there, on its own, whatever holds its pipes.
func startProcess(cmd *exec.Cmd, p *process) error {
	started := make(chan error, 1)
	go func() {
		runtime.LockOSThread()
		// Never unlocked: the thread ends with this goroutine, after the
		// child is gone, so the parent-death signal cannot fire early.
		if err := cmd.Start(); err != nil {
			started <- err
			return
		}
		p.os = cmd.Process
		if err := adopt(p); err != nil {
			_ = cmd.Process.Kill()
			_, _ = cmd.Process.Wait()
			started <- err
			return
		}
		started <- nil
		state, err := cmd.Process.Wait()
		switch {
		case err != nil:
			p.waitErr = err
		case !state.Success():
			p.waitErr = &exec.ExitError{ProcessState: state}
		}
		close(p.reaped)
	}()
	return <-started
}

// copyStderr copies the child's stderr to w until EOF, or until its pipe is
// closed after a shutdown.
func (p *process) copyStderr(w io.Writer) {
	defer close(p.errDone)
	_, _ = io.Copy(w, p.stderrR)
}

// drained waits for stdout and stderr to end after the child was reaped.
// Everything stdout held at that moment is read and dispatched first, with
// no time limit: an answer the server wrote before it exited is delivered
// however long the reader takes to reach it (where the pipe cannot be asked
// what it holds, only what the reader already took counts). After that,
// while a process of the tree may still hold the pipes, it waits until
// drainAfterExit passed with the reader waiting on the pipe and nothing read
// or dispatched, or until drainBeyondExit more bytes were read.
func (p *process) drained() {
	backlog := pipeBacklog(p.stdoutR) + p.outRead.Load()
	idle := time.NewTicker(drainAfterExit)
	defer idle.Stop()
	last := [2]int64{-1, -1}
	for _, ch := range []chan struct{}{p.outDone, p.errDone} {
		for done := false; !done; {
			select {
			case <-ch:
				done = true
			case <-idle.C:
				read, handled := p.outRead.Load(), p.handled.Load()
				switch {
				case read > backlog+drainBeyondExit:
					return // a descendant that goes on writing
				case read < backlog || !p.waiting.Load():
					// What the server wrote before its exit is still in
					// the pipe, or the reader is still dispatching.
					last = [2]int64{-1, -1}
				case [2]int64{read, handled} != last:
					last = [2]int64{read, handled}
				default:
					return // a descendant holds the pipes and says nothing
				}
			}
		}
	}
}

// countingReader counts the bytes read through it into n, and tells through
// waiting when a read from the pipe is under way: the line reader asks for
// more only once every complete line it held was returned.
type countingReader struct {
	r       io.Reader
	n       *atomic.Int64
	waiting *atomic.Bool
}

func (c countingReader) Read(b []byte) (int, error) {
	c.waiting.Store(true)
	n, err := c.r.Read(b)
	c.waiting.Store(false)
	c.n.Add(int64(n))
	return n, err
}

// closePipes closes our ends of stdout and stderr, so that no reader waits
// on a pipe a stray descendant still holds.
func (p *process) closePipes() {
	_ = p.stdoutR.Close()
	if p.stderrR != nil {
		_ = p.stderrR.Close()
	}
}

// isReaped reports whether the child has been waited for.
func (p *process) isReaped() bool {
	select {
	case <-p.reaped:
		return true
	default:
		return false
	}
}

// signal sends sig to the child's process group (to the child alone where
// there are none) and to every other process of the tree, which left it; it
// returns those.
func (p *process) signal(sig syscall.Signal) []Stray {
	strays := markedProcesses(p.marker, p.pgid)
	if p.job != nil {
		// Windows: every process of the tree is in the job, and there is
		// nothing gentler than ending them all.
		_ = p.job.Terminate(1)
		return nil
	}
	if p.pgid > 0 {
		_ = killGroup(p.pgid, sig)
	} else if !p.isReaped() {
		_ = signalProcess(p.os, sig)
	}
	for _, s := range strays {
		_ = killPID(s.PID, sig)
	}
	return strays
}

// gone reports whether nothing of the tree runs any more: the child reaped,
// its group empty, and no marked process left; strays are the marked
// processes outside the group that still run.
func (p *process) gone() (done bool, strays []Stray) {
	if !p.isReaped() {
		return false, nil
	}
	if p.pgid > 0 && groupAlive(p.pgid) {
		return false, nil
	}
	if p.job != nil && p.job.Active() != 0 {
		return false, jobMembers(p.job)
	}
	strays = markedProcesses(p.marker, p.pgid)
	return len(strays) == 0, strays
}

// waitGone polls until the tree is gone or d has passed; it returns the
// strays seen last.
func (p *process) waitGone(d time.Duration) (bool, []Stray) {
	deadline := time.Now().Add(d)
	interval := 2 * time.Millisecond
	select {
	case <-p.reaped:
	case <-time.After(d):
	}
	for {
		done, strays := p.gone()
		if done {
			return true, nil
		}
		left := time.Until(deadline)
		if left <= 0 {
			return false, strays
		}
		time.Sleep(min(interval, left))
		interval = min(2*interval, 50*time.Millisecond)
	}
}

// Stray is a process of the server's tree that had left its process group
// (a daemon that called setsid) when Shutdown ended the group.
type Stray struct {
	PID     int
	Command string // its name as the system reports it
}

func (s Stray) String() string { return fmt.Sprintf("pid %d (%s)", s.PID, s.Command) }

// pipes are the three standard streams of a child being started: the ends
// the child gets and the ends conn keeps. All are conn's own, so that
// nothing waits for a copy goroutine os/exec would run.
type pipes struct {
	parentStdin           *os.File
	childStdin            *os.File
	childStdout           *os.File
	childStderr           *os.File // nil when stderr goes to a file directly
	parentStdout, parentE *os.File
}

// openPipes creates the child's stdin, stdout and stderr and sets them on
// cmd. Stderr goes to stderr directly when it is a file (os.Stderr when
// nil); any other writer gets a pipe that copyStderr drains.
func openPipes(cmd *exec.Cmd, stderr io.Writer) (*process, *pipes, error) {
	var ps pipes
	var err error
	fail := func(err error) (*process, *pipes, error) {
		ps.closeChildEnds()
		ps.closeParentEnds()
		return nil, nil, err
	}
	if ps.childStdin, ps.parentStdin, err = os.Pipe(); err != nil {
		return fail(err)
	}
	if ps.parentStdout, ps.childStdout, err = os.Pipe(); err != nil {
		return fail(err)
	}
	cmd.Stdin, cmd.Stdout = ps.childStdin, ps.childStdout
	p := &process{
		reaped:  make(chan struct{}),
		outDone: make(chan struct{}),
		errDone: make(chan struct{}),
		stdoutR: ps.parentStdout,
	}
	switch f, isFile := stderr.(*os.File); {
	case stderr == nil:
		cmd.Stderr = os.Stderr
		close(p.errDone)
	case isFile && f != nil:
		cmd.Stderr = f
		close(p.errDone)
	default:
		if ps.parentE, ps.childStderr, err = os.Pipe(); err != nil {
			return fail(err)
		}
		cmd.Stderr = ps.childStderr
		p.stderrR = ps.parentE
	}
	return p, &ps, nil
}

// closeChildEnds closes the ends the child inherited (ours to close once it
// started, or if it could not).
func (ps *pipes) closeChildEnds() {
	for _, f := range []*os.File{ps.childStdin, ps.childStdout, ps.childStderr} {
		if f != nil {
			_ = f.Close()
		}
	}
}

// closeParentEnds closes conn's ends after a failed start.
func (ps *pipes) closeParentEnds() {
	for _, f := range []*os.File{ps.parentStdin, ps.parentStdout, ps.parentE} {
		if f != nil {
			_ = f.Close()
		}
	}
}
