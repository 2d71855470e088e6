package conn

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
)

// exitGrace is how long a failed write waits for the process's exit status,
// so that a server that exited is reported as exited, not as a broken pipe.
const exitGrace = 250 * time.Millisecond

// errExitedCleanly is the Cause when the server exited with status 0.
var errExitedCleanly = errors.New("exit status 0")

// Conn is a connection to a stdio server: the child process and the JSON-RPC
// session over its stdin and stdout. All methods are safe for concurrent use.
type Conn struct {
	opts              Options
	maxServerRequests int
	proc              *process
	stdin             *os.File
	rawStdin          syscall.RawConn
	nextID            atomic.Int64
	openSubs          atomic.Int32
	acceptBatches     atomic.Bool
	stopOwner         func() bool

	mu              sync.Mutex
	pending         map[int64]*pendingCall
	subs            map[int64]*Subscription
	serverRequests  map[string]*serverRequest
	runningHandlers int
	stopErr         *Error

	handlerCtx    context.Context
	cancelHandler context.CancelFunc
	done          chan struct{}
	exited        chan struct{}
	exitErr       error // set before exited is closed

	shutdownOnce sync.Once
	shutdownDone chan struct{}
	shutdownErr  error // set before shutdownDone is closed

	w writer
}

// Dial starts command with args and connects to it. The command is run
// directly, without a shell; a relative path such as ./server resolves
// against the current directory. ctx owns the connection: when it is done the
// connection closes, as Close does.
func Dial(ctx context.Context, command string, args []string, opts Options) (*Conn, error) {
	if opts.MaxLineBytes < 0 {
		return nil, fmt.Errorf("conn: Options.MaxLineBytes must not be negative (got %d)", opts.MaxLineBytes)
	}
	if opts.MaxServerRequests < 0 {
		return nil, fmt.Errorf("conn: Options.MaxServerRequests must not be negative (got %d)", opts.MaxServerRequests)
	}
	if opts.MaxLineBytes == 0 {
		opts.MaxLineBytes = DefaultMaxLineBytes
	}
	if opts.MaxServerRequests == 0 {
		opts.MaxServerRequests = DefaultMaxServerRequests
	}
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("conn: dial %s: %w", command, err)
	}
	marker := newMarker()
	env := append(environment(os.Environ(), opts.Env), MarkerEnv+"="+marker)
	path, argv, cmdLine, err := lookPath(command, args, env)
	if err != nil {
		return nil, &Error{Code: CodeConnection, Message: msgExecutableNotFound + command, Cause: err}
	}
	// exec.Cmd resolves a relative Path against Dir; the lookup was made
	// against the current directory, so pin what it found.
	if abs, err := filepath.Abs(path); err == nil {
		path = abs
	}
	cmd := &exec.Cmd{
		Path:        path,
		Args:        argv,
		Dir:         opts.Dir,
		Env:         env,
		SysProcAttr: processAttr(),
	}
	setCmdLine(cmd, cmdLine)
	proc, childFiles, err := openPipes(cmd, opts.Stderr)
	if err != nil {
		return nil, &Error{Code: CodeConnection, Message: msgCouldNotStart, Cause: err}
	}
	proc.marker = marker
	stdin := childFiles.parentStdin
	rawStdin, err := stdin.SyscallConn()
	if err == nil {
		err = startProcess(cmd, proc)
	}
	childFiles.closeChildEnds()
	if err != nil {
		childFiles.closeParentEnds()
		return nil, &Error{Code: CodeConnection, Message: msgCouldNotStart, Cause: err}
	}
	proc.pgid = groupID(proc.os.Pid)
	c := &Conn{
		opts:              opts,
		maxServerRequests: opts.MaxServerRequests,
		proc:              proc,
		stdin:             stdin,
		rawStdin:          rawStdin,
		pending:           make(map[int64]*pendingCall),
		subs:              make(map[int64]*Subscription),
		serverRequests:    make(map[string]*serverRequest),
		done:              make(chan struct{}),
		exited:            make(chan struct{}),
		shutdownDone:      make(chan struct{}),
	}
	c.acceptBatches.Store(opts.AcceptBatches)
	c.handlerCtx, c.cancelHandler = context.WithCancel(context.Background())
	c.w.init(c)
	c.mu.Lock()
	c.stopOwner = context.AfterFunc(ctx, func() { c.Close() })
	c.mu.Unlock()
	if opts.OnStart != nil {
		opts.OnStart(proc.os.Pid)
	}
	go c.w.loop()
	go c.readLoop()
	if proc.stderrR != nil {
		go proc.copyStderr(opts.Stderr)
	}
	go c.awaitExit()
	return c, nil
}

// environment applies changes to base: each EnvVar replaces or removes its
// variable.
func environment(base []string, changes []EnvVar) []string {
	if len(changes) == 0 {
		return base
	}
	env := make([]string, 0, len(base)+len(changes))
	for _, kv := range base {
		name, _, _ := strings.Cut(kv, "=")
		if !changed(changes, name) {
			env = append(env, kv)
		}
	}
	for _, ch := range changes {
		if ch.Value != nil {
			env = append(env, ch.Name+"="+*ch.Value)
		}
	}
	return env
}

func changed(changes []EnvVar, name string) bool {
	for _, ch := range changes {
		if ch.Name == name {
			return true
		}
	}
	return false
}

// PID is the server process's id.
func (c *Conn) PID() int { return c.proc.os.Pid }

// Done is closed once the connection has stopped: closed, or the server
// exited, or a write to it failed.
func (c *Conn) Done() <-chan struct{} { return c.done }

// Err is the -32000 error the connection stopped with, or nil while it runs.
func (c *Conn) Err() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.stopErr == nil {
		return nil
	}
	return c.stopErr
}

// stoppedErr returns the sticky error, or nil while the connection runs.
func (c *Conn) stoppedErr() *Error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.stopErr
}

// Close closes the server's stdin, and nothing else: an MCP server exits at
// EOF. Pending and later calls fail with -32000 "The stdio connection is
// closed", open subscriptions end at once, and handlers still running for
// server requests are cancelled, their answers never sent. It is idempotent.
func (c *Conn) Close() error {
	return c.CloseWithError(nil)
}

// CloseWithError is Close, with reason as the Cause of the error that pending
// and later calls get.
func (c *Conn) CloseWithError(reason error) error {
	c.stop(&Error{Code: CodeConnection, Message: msgClosed, Cause: reason}, true)
	return nil
}

func (c *Conn) waitExit(d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-c.exited:
		return true
	case <-t.C:
		return false
	}
}

func exitCause(err error) error {
	if err == nil {
		return errExitedCleanly
	}
	return err
}

// stop ends the connection with err, once: pending calls fail with it, open
// subscriptions end (at once if immediate, else after their queued events),
// running handlers are cancelled, and stdin is closed.
func (c *Conn) stop(err *Error, immediate bool) {
	c.mu.Lock()
	if c.stopErr != nil {
		c.mu.Unlock()
		return
	}
	c.stopErr = err
	stopOwner := c.stopOwner
	pending, subs := c.pending, c.subs
	c.pending, c.subs = nil, nil
	c.mu.Unlock()

	c.cancelHandler()
	for _, p := range pending {
		p.Finish(nil, err)
	}
	for _, s := range subs {
		s.end(err, immediate)
	}
	c.openSubs.Store(0)
	c.w.stop()
	close(c.done)
	stopOwner()
	_ = c.stdin.Close()
}

// readLoop reads and dispatches every line of stdout until its end (or until
// a shutdown closes our end of the pipe). It keeps reading after Close so
// the server is never blocked writing.
func (c *Conn) readLoop() {
	defer close(c.proc.outDone)
	lr := newLineReader(countingReader{c.proc.stdoutR, &c.proc.outRead, &c.proc.waiting}, c.opts.MaxLineBytes)
	for {
		line, size, err := lr.Next()
		if err == errLineTooLong {
			why := fmt.Errorf("%w: %d bytes > %d", errLineTooLong, size, c.opts.MaxLineBytes)
			if c.opts.Observer != nil {
				c.opts.Observer(Event{Time: time.Now(), Kind: Discarded, Size: size, Head: lr.Head(), Err: why})
			}
			c.failLost(lr.Head(), why)
			c.proc.handled.Add(1)
			continue
		}
		if err != nil {
			return
		}
		c.handleLine(line, size)
		c.proc.handled.Add(1) // progress, for the drain after an exit
	}
}

// awaitExit stops the connection once the server process has exited, with
// its exit status: after the lines it wrote are dispatched (see drained: all
// of them up to the end of stdout, or, when a child of it still holds stdout
// or stderr open and says nothing, all it wrote before it exited).
func (c *Conn) awaitExit() {
	<-c.proc.reaped
	c.proc.drained()
	waitErr := c.proc.waitErr
	c.exitErr = waitErr
	c.observe(Exited, nil, 0, exitCause(waitErr))
	close(c.exited)
	c.stop(&Error{Code: CodeConnection, Message: msgServerExited, Cause: exitCause(waitErr)}, false)
}

// writeFailed stops the connection after a failed write, preferring the exit
// status when the server has exited (a broken pipe usually means that).
func (c *Conn) writeFailed(err error) {
	go func() {
		if c.waitExit(exitGrace) {
			c.stop(&Error{Code: CodeConnection, Message: msgServerExited, Cause: exitCause(c.exitErr)}, false)
			return
		}
		c.stop(&Error{Code: CodeConnection, Message: msgNotAcceptingInput, Cause: err}, false)
	}()
}

// observe reports one event to the Observer, if there is one.
func (c *Conn) observe(kind EventKind, line []byte, size int, err error) {
	if c.opts.Observer != nil {
		c.opts.Observer(Event{Time: time.Now(), Kind: kind, Line: line, Size: size, Err: err})
	}
}
