package tap

import (
	"context"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"sync"
	"syscall"
	"time"

	"github.com/mcptui/mcptui/conn"
	"github.com/mcptui/mcptui/internal/record"
)

// Options configure a tap.
type Options struct {
	// Command and Args are the server.
	Command string
	Args    []string
	// Name is the name viewers attach by ("" = DefaultName).
	Name string
	// Record is a file to record the session to ("" = none);
	// RecordSecrets keeps secret-looking server arguments in it.
	Record        string
	RecordSecrets bool
	// Dir is the runtime directory to publish in ("" = RuntimeDir).
	Dir string
	// NoPublish relays without publishing.
	NoPublish bool
	// KeepHostPipes leaves the host's pipes (the tap's stdin and stdout,
	// when they are pipes) the size the host made them. Otherwise the tap
	// asks the kernel to grow them as it grows the server's (pipeSize):
	// invisible to the host but for F_GETPIPE_SZ, and the relay wakes up
	// far less often.
	KeepHostPipes bool
	// Stdin, Stdout and Stderr are the host's side.
	Stdin  io.Reader
	Stdout io.Writer
	Stderr io.Writer
	// Log is where the tap reports its own trouble (nil = Stderr): the host
	// sees it as the server's stderr, so the tap says nothing unless
	// something is wrong.
	Log io.Writer
	// Signals are forwarded to the server as they come (nil = none).
	Signals <-chan os.Signal
	// MaxLineBytes is the longest line viewers are shown whole (0 =
	// DefaultMaxLineBytes); it does not limit the relay.
	MaxLineBytes int
	// FeedRate is how many relayed bytes a second viewers are shown when
	// the tap does not record (0 = DefaultFeedRate, negative = no limit);
	// past it they are told how much they were not shown. A recording
	// takes every line its queue can hold.
	FeedRate int
	// Mcptui is mcptui's version, for the recording's header.
	Mcptui string
	// Observer, when set, sees every line relayed (as the recording has
	// it, ToServer as Sent) and the server's exit, from the feed's
	// goroutine; it must not block. Like a recording, it turns the feed's
	// rate limit off. WrapStderr, when set, wraps the writer the server's
	// stderr is copied to. (--otlp-endpoint's live tracing.)
	Observer   func(conn.Event)
	WrapStderr func(next io.Writer) io.Writer
	// OnPublish, when set, is told the name and socket the tap publishes
	// on (tests).
	OnPublish func(name, socket string)
}

// Exit is how the server ended, for the tap to end the same way.
type Exit struct {
	// Code is the exit status (-1 when a signal ended the server).
	Code int
	// Signal is the signal that ended it, or 0.
	Signal syscall.Signal
}

// drainAfterExit bounds how long the tap still relays the server's stdout
// and stderr after the server exited (a child of the server may hold them
// open).
const drainAfterExit = 2 * time.Second

// stopGrace is how long the server has between SIGTERM and SIGKILL when the
// tap's context is cancelled.
const stopGrace = 3 * time.Second

// Run starts the server and relays between it and the host until the
// server exits; it returns how the server ended. An error means the server
// could not be started (Exit is then 127, as a shell says). Publishing and
// recording problems are reported on Log and never stop the relay.
// Cancelling ctx stops the server (SIGTERM, then SIGKILL).
func Run(ctx context.Context, o Options) (Exit, error) {
	logw := o.Log
	if logw == nil {
		logw = o.Stderr
	}
	cmd := exec.Command(o.Command, o.Args...)
	cmd.SysProcAttr = serverAttr()
	if err := resolve(cmd, o.Command, o.Args); err != nil {
		return Exit{Code: 127}, fmt.Errorf("tap: starting %s: %w", o.Command, err)
	}
	pipes, err := newPipes()
	if err != nil {
		return Exit{Code: 127}, err
	}
	cmd.Stdin, cmd.Stdout, cmd.Stderr = pipes.childIn, pipes.childOut, pipes.childErr
	server, err := own(cmd)
	if err != nil {
		pipes.closeAll()
		return Exit{Code: 127}, fmt.Errorf("tap: starting %s: %w", o.Command, err)
	}
	pipes.closeChild()
	started := time.Now()
	pid := cmd.Process.Pid

	t := &tapped{opts: o, started: started, pid: pid, logw: logw}
	t.setUp(logw)

	hostIn, hostOut := o.Stdin, o.Stdout
	if !o.KeepHostPipes {
		// Fewer, larger hops on the host's side too: a 1 MiB line crosses
		// in one or two batches rather than sixteen.
		for _, s := range []any{o.Stdin, o.Stdout} {
			if f, ok := s.(*os.File); ok {
				growPipe(f)
			}
		}
	}
	if f, ok := o.Stdin.(*os.File); ok {
		if r := pollable(f, false); r != nil {
			hostIn = r
			defer restoreBlocking(f) // after the Close below
			defer r.Close()          // wakes the pump still reading it
		}
	}
	toServer := newDest(pipes.in)
	toHost := newDest(o.Stdout)
	if f, ok := o.Stdout.(*os.File); ok {
		if w := pollable(f, true); w != nil {
			hostOut = w
			toHost = newDest(w)
			toHost.also = reblocking{f} // closing the host's stdout closes both, for its EOF
			defer restoreBlocking(f)
		}
	}
	var holds holder
	if t.hub != nil {
		holds = t.hub
	}
	up := &pump{dir: ToServer, src: hostIn, dst: toServer, back: toHost, feed: t.feed, holds: holds, count: &t.sent,
		fast: newSplicer(hostIn, pipes.in)}
	down := &pump{dir: ToHost, src: pipes.out, dst: toHost, back: toServer, feed: t.feed, holds: holds, count: &t.received,
		fast: newSplicer(pipes.out, hostOut)}
	downDone := make(chan struct{})
	errDone := make(chan struct{})
	go func() { _ = up.run() }()
	go func() {
		defer close(downDone)
		if err := down.run(); err != nil {
			// The host stopped reading: the server gets EPIPE, as it would.
			_ = pipes.out.Close()
		}
	}()
	go func() {
		defer close(errDone)
		_, _ = io.Copy(t.stderr(o.Stderr), pipes.err)
	}()

	waited := make(chan error, 1)
	go func() { waited <- cmd.Wait() }()
	var werr error
	stopping := ctx.Done()
	var kill <-chan time.Time
	said := false // the tap said why it cannot forward a signal
loop:
	for {
		select {
		case werr = <-waited:
			break loop
		case sig := <-o.Signals:
			server.forward(sig, func(s string) {
				if !said {
					said = true
					fmt.Fprintln(logw, s)
				}
			})
		case <-stopping:
			stopping = nil
			server.stop(toServer.close)
			kill = time.After(stopGrace)
		case <-kill:
			server.kill()
		}
	}
	// Whatever the server wrote before it exited goes to the host, then
	// nothing of it may outlive the tap.
	drain := time.NewTimer(drainAfterExit)
	select {
	case <-downDone:
	case <-drain.C:
	}
	select {
	case <-errDone:
	case <-drain.C:
	}
	drain.Stop()
	server.kill()
	server.release()
	pipes.closeParent()
	toServer.close()
	<-downDone
	t.finish(werr)
	return exitOf(cmd.ProcessState), nil
}

// exitOf is how a process ended.
func exitOf(ps *os.ProcessState) Exit {
	if ps == nil {
		return Exit{Code: 1}
	}
	if ws, ok := ps.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		return Exit{Code: -1, Signal: ws.Signal()}
	}
	return Exit{Code: ps.ExitCode()}
}

// pipes are the server's three standard streams: the child's ends and
// ours. Owning them (rather than exec's StdinPipe) keeps cmd.Wait from
// closing our ends before we have read everything.
type pipes struct {
	childIn, childOut, childErr *os.File
	in, out, err                *os.File
}

func newPipes() (*pipes, error) {
	p := &pipes{}
	var err error
	if p.childIn, p.in, err = os.Pipe(); err != nil {
		return nil, fmt.Errorf("tap: pipe: %w", err)
	}
	if p.out, p.childOut, err = os.Pipe(); err != nil {
		p.closeAll()
		return nil, fmt.Errorf("tap: pipe: %w", err)
	}
	if p.err, p.childErr, err = os.Pipe(); err != nil {
		p.closeAll()
		return nil, fmt.Errorf("tap: pipe: %w", err)
	}
	growPipe(p.in)
	growPipe(p.out)
	return p, nil
}

func (p *pipes) closeChild() {
	for _, f := range []*os.File{p.childIn, p.childOut, p.childErr} {
		if f != nil {
			f.Close()
		}
	}
}

func (p *pipes) closeParent() {
	for _, f := range []*os.File{p.in, p.out, p.err} {
		if f != nil {
			f.Close()
		}
	}
}

func (p *pipes) closeAll() { p.closeChild(); p.closeParent() }

// tapped is the viewer side of a running tap: the recorder, the feed and
// the hub. Any of them may be missing (publishing refused, no recording);
// the relay does not care.
type tapped struct {
	opts     Options
	logw     io.Writer
	started  time.Time
	pid      int
	sent     counters
	received counters

	rec  *record.Recorder
	feed *feed
	hub  *hub
	ln   net.Listener
	file *os.File
	name string
	once sync.Once
}

// setUp opens the recording and the socket; what fails is said on logw and
// left out.
func (t *tapped) setUp(logw io.Writer) {
	var outs []io.Writer
	if t.opts.Record != "" {
		f, err := os.OpenFile(t.opts.Record, os.O_CREATE|os.O_TRUNC|os.O_WRONLY, 0o600)
		if err != nil {
			fmt.Fprintf(logw, "mcptui tap: not recording: %v\n", err)
		} else {
			t.file = f
			outs = append(outs, &failSoft{w: f, logw: logw, what: "recording"})
		}
	}
	if !t.opts.NoPublish {
		dir := t.opts.Dir
		if dir == "" {
			dir = RuntimeDir()
		}
		name := t.opts.Name
		if name == "" {
			name = DefaultName(t.opts.Command, t.opts.Args)
		}
		ln, got, err := listen(dir, CleanName(name))
		if err != nil {
			fmt.Fprintf(logw, "mcptui tap: not publishing (still relaying): %v\n", err)
		} else {
			t.ln, t.name = ln, got
			t.hub = newHub(t.info)
			outs = append(outs, t.hub)
			go t.hub.serve(ln)
			if t.opts.OnPublish != nil {
				t.opts.OnPublish(got, ln.Addr().String())
			}
		}
	}
	if len(outs) == 0 {
		return
	}
	t.rec = record.New(io.MultiWriter(outs...), record.Header{Mode: "tap", Mcptui: t.opts.Mcptui,
		Command: t.opts.Command, Args: t.opts.Args, Secrets: t.opts.RecordSecrets, Settings: record.Settings{MaxLineBytes: t.opts.MaxLineBytes}})
	t.rec.SetMaxQueue(maxRecorderQueue)
	t.feed = newFeed(t.rec, t.opts.MaxLineBytes, t.feedRate())
	t.feed.observer = t.opts.Observer
}

// feedRate is the feed's rate limit (0: none).
func (t *tapped) feedRate() int {
	switch {
	case t.opts.Record != "" || t.opts.Observer != nil || t.opts.FeedRate < 0:
		return 0
	case t.opts.FeedRate == 0:
		return DefaultFeedRate
	}
	return t.opts.FeedRate
}

// stderr is where the server's stderr goes: to the host, and recorded.
func (t *tapped) stderr(host io.Writer) io.Writer {
	if t.opts.WrapStderr != nil {
		host = t.opts.WrapStderr(host)
	}
	if t.rec == nil {
		return host
	}
	return t.rec.Stderr(host)
}

// info describes the tap for attach's list.
func (t *tapped) info() Info {
	ppid := os.Getppid()
	in := Info{Name: t.name, Host: processName(ppid), HostPID: ppid, TapPID: os.Getpid(), PID: t.pid,
		Command: t.opts.Command, Args: record.RedactArgs(t.opts.Args, false), Started: t.started,
		LinesSent: t.sent.lines.Load(), LinesReceived: t.received.lines.Load(),
		BytesSent: t.sent.bytes.Load(), BytesReceived: t.received.bytes.Load(),
		SplicedSent: t.sent.spliced.Load(), SplicedReceived: t.received.spliced.Load()}
	if t.hub != nil {
		in.Viewers, in.Holds = t.hub.viewerCount()
	}
	return in
}

// finish records the exit, closes the recording, tells the viewers and
// removes the socket.
func (t *tapped) finish(werr error) {
	t.once.Do(func() {
		if t.ln != nil {
			_ = t.ln.Close() // no new viewers; unix listeners remove their file
		}
		t.feed.close()
		exit := conn.Event{Time: time.Now(), Kind: conn.Exited, Err: werr}
		if t.rec != nil {
			t.rec.Observe(exit)
			_ = t.rec.Close()
		}
		if t.opts.Observer != nil {
			t.opts.Observer(exit)
		}
		if t.file != nil {
			if err := t.file.Close(); err != nil {
				fmt.Fprintf(t.logw, "mcptui tap: recording: %v\n", err)
			}
		}
		if t.hub != nil {
			t.hub.close()
		}
	})
}

// failSoft writes to w until it fails once; then it says so on logw and
// swallows the rest, so that a full disk never stops the feed to viewers.
type failSoft struct {
	w    io.Writer
	logw io.Writer
	what string
	err  error
}

func (f *failSoft) Write(p []byte) (int, error) {
	if f.err != nil {
		return len(p), nil
	}
	if _, err := f.w.Write(p); err != nil {
		f.err = err
		fmt.Fprintf(f.logw, "mcptui tap: %s stopped: %v\n", f.what, err)
	}
	return len(p), nil
}

// reblocking closes a host's file after setting its open file blocking
// again (pollable may have made it non-blocking: a socket).
type reblocking struct{ f *os.File }

func (r reblocking) Close() error {
	restoreBlocking(r.f)
	return r.f.Close()
}
