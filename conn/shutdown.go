package conn

import (
	"fmt"
	"strings"
	"syscall"
	"time"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/mcptui/mcptui/internal/protocol"
)

// ShutdownStage is a step of Shutdown, told to Options.OnShutdownStage.
type ShutdownStage int

// The stages of Shutdown, in order; a shutdown skips the signals it does
// not need.
const (
	// StageClosing answers the server's open requests with an error, cancels
	// the client's requests in flight and closes stdin.
	StageClosing ShutdownStage = iota + 1
	// StageWaiting gives the process tree the grace to exit after EOF.
	StageWaiting
	// StageTerminating has sent SIGTERM to the process group and waits the
	// grace again.
	StageTerminating
	// StageKilling has sent SIGKILL to the process group.
	StageKilling
	// StageDone: the tree is gone, or what is left of it is named.
	StageDone
)

// String names the stage as a person reads it.
func (s ShutdownStage) String() string {
	switch s {
	case StageClosing:
		return "closing stdin"
	case StageWaiting:
		return "waiting for the server to exit"
	case StageTerminating:
		return "SIGTERM sent, waiting"
	case StageKilling:
		return killedText
	case StageDone:
		return "stopped"
	}
	return fmt.Sprintf("ShutdownStage(%d)", int(s))
}

const (
	// farewellWait bounds how long Shutdown waits for its last lines (the
	// answers to the server's open requests, the cancellations) to be
	// written before it closes stdin.
	farewellWait = 100 * time.Millisecond
	// killWait bounds every wait after SIGKILL.
	killWait = 2 * time.Second
	// msgGoingAway answers the server's open requests at a shutdown.
	msgGoingAway = "The client is shutting down"
	// reasonShuttingDown is the reason of the cancellations a shutdown sends.
	reasonShuttingDown = "The client is shutting down"
)

// ShutdownError says how a Shutdown ended that took more than stdin's EOF, or
// that left something running. It unwraps to the server's exit status.
type ShutdownError struct {
	// Grace is the wait after EOF and after SIGTERM.
	Grace time.Duration
	// Signal is the last signal the process group was sent (0: none).
	Signal syscall.Signal
	// Exit is how the server process ended (nil: status 0).
	Exit error
	// Strays are processes of the tree that had left its process group
	// (setsid daemons): they were sent the group's signals, and not waited
	// for beyond the group.
	Strays []Stray
	// Left are the processes of the tree still running at the end.
	Left []Stray
	// Unreaped is set when the server process itself could not be waited
	// for even after SIGKILL.
	Unreaped bool
}

func (e *ShutdownError) Error() string {
	var b strings.Builder
	switch e.Signal {
	case syscall.SIGTERM:
		fmt.Fprintf(&b, "conn: server did not exit within %v of EOF; stopped by SIGTERM: %v", e.Grace, exitCause(e.Exit))
	case syscall.SIGKILL:
		if !hasTerm {
			fmt.Fprintf(&b, "conn: server did not exit within %v of EOF; its job was terminated: %v", e.Grace, exitCause(e.Exit))
			break
		}
		fmt.Fprintf(&b, "conn: server ignored EOF and SIGTERM for %v each; killed: %v", e.Grace, exitCause(e.Exit))
	default:
		fmt.Fprintf(&b, "conn: server exited at EOF: %v", exitCause(e.Exit))
	}
	if e.Unreaped {
		b.WriteString("; the server process did not end even after SIGKILL")
	}
	if len(e.Strays) > 0 {
		fmt.Fprintf(&b, "; had left the process group: %s", strayList(e.Strays))
	}
	if len(e.Left) > 0 {
		fmt.Fprintf(&b, "; still running, not waited for: %s", strayList(e.Left))
	}
	return b.String()
}

// Unwrap is the exit status.
func (e *ShutdownError) Unwrap() error { return exitCause(e.Exit) }

func strayList(ss []Stray) string {
	parts := make([]string, len(ss))
	for i, s := range ss {
		parts[i] = s.String()
	}
	return strings.Join(parts, ", ")
}

// Shutdown stops the server and its whole process tree for good: it answers
// the server's open requests with an error saying the client is going away,
// cancels the client's requests in flight, closes stdin, waits up to grace
// for the tree to exit, then sends SIGTERM to the server's process group,
// waits up to grace again, then sends SIGKILL. Every wait is bounded: after
// SIGKILL nothing waits for a pipe that a stray descendant still holds. It
// returns nil if the server exited with status 0 after EOF and nothing of
// its tree is left, and otherwise an error saying how it ended (a
// *ShutdownError once a signal was needed or a process of the tree escaped
// its group). Calls after the first wait for it and return its result.
func (c *Conn) Shutdown(grace time.Duration) error {
	c.shutdownOnce.Do(func() {
		c.shutdownErr = c.shutdown(grace)
		close(c.shutdownDone)
	})
	<-c.shutdownDone
	return c.shutdownErr
}

func (c *Conn) shutdown(grace time.Duration) error {
	p := c.proc
	c.stage(StageClosing)
	c.farewell()
	c.Close()
	c.stage(StageWaiting)
	if gone, _ := p.waitGone(grace); gone {
		c.settle(grace)
		c.stage(StageDone)
		return p.waitErr
	}
	var strays []Stray
	if hasTerm {
		strays = p.signal(syscall.SIGTERM)
		c.stage(StageTerminating)
		if gone, _ := p.waitGone(grace); gone {
			c.settle(grace)
			c.stage(StageDone)
			return &ShutdownError{Grace: grace, Signal: syscall.SIGTERM, Exit: p.waitErr, Strays: strays}
		}
	}
	strays = mergeStrays(strays, p.signal(syscall.SIGKILL))
	c.stage(StageKilling)
	_, left := p.waitGone(killWait)
	c.settle(killWait)
	_ = p.job.Close()
	c.stage(StageDone)
	return &ShutdownError{Grace: grace, Signal: syscall.SIGKILL, Exit: p.waitErr, Strays: strays,
		Left: left, Unreaped: !p.isReaped()}
}

// settle waits (at most d) for the exit to be reported, then closes our
// ends of stdout and stderr: nothing of the tree that could write to them is
// left, or what is left was killed and must not be waited for.
func (c *Conn) settle(d time.Duration) {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-c.exited:
	case <-t.C:
	}
	c.proc.closePipes()
}

// stage tells OnShutdownStage.
func (c *Conn) stage(s ShutdownStage) {
	if c.opts.OnShutdownStage != nil {
		c.opts.OnShutdownStage(s)
	}
}

// farewell answers every open server request with an error saying the
// client is going away and cancels every request of ours the server has
// seen, then waits (briefly) for those lines to be written.
func (c *Conn) farewell() {
	c.mu.Lock()
	if c.stopErr != nil {
		c.mu.Unlock()
		return
	}
	var asked []*serverRequest
	for _, sr := range c.serverRequests {
		if !sr.answered {
			sr.answered = true
			asked = append(asked, sr)
		}
	}
	var sent []int64
	for id, pc := range c.pending {
		if pc.out.state.Load() == lineTaken {
			sent = append(sent, id)
		}
	}
	for id, s := range c.subs {
		if s.out.state.Load() == lineTaken {
			sent = append(sent, id)
		}
	}
	c.mu.Unlock()

	var written []chan error
	for _, sr := range asked {
		sr.cancel()
		done := make(chan error, 1)
		if c.answerWith(sr.id, nil, &Error{Code: CodeConnection, Message: msgGoingAway}, done) {
			written = append(written, done)
		}
	}
	for _, id := range sent {
		params := fmt.Appendf(nil, `{"requestId":%d,"reason":`, id)
		params, _ = jsontext.AppendQuote(params, reasonShuttingDown)
		params = append(params, '}')
		done := make(chan error, 1)
		if c.w.enqueue(&outgoing{line: appendRequest(nil, 0, protocol.NotificationCancelled, params), done: done}) {
			written = append(written, done)
		}
	}
	t := time.NewTimer(farewellWait)
	defer t.Stop()
	for _, done := range written {
		select {
		case <-done:
		case <-t.C:
			return
		}
	}
}

// mergeStrays is a and the processes of b not in a.
func mergeStrays(a, b []Stray) []Stray {
	for _, s := range b {
		found := false
		for _, x := range a {
			found = found || x.PID == s.PID
		}
		if !found {
			a = append(a, s)
		}
	}
	return a
}
