package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"runtime"
	"sync"
	"syscall"
)

// signalContext is cancelled by an interrupt, SIGTERM or SIGHUP: the run
// stops, and what it started (the old worktree, the burners) is cleaned
// up before the program exits. Until stop, further signals are caught too,
// so a second ^C does not cut the clean-up short.
func signalContext() (context.Context, context.CancelFunc) {
	return signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
}

// burnerScript is one CPU burner, as tools/busy/run.sh runs them: a shell
// loop of builtins, one process and no children.
const burnerScript = "while :; do :; done"

// burners are CPU burner processes, running until stop. On Linux each
// is also killed when this program dies without stopping them (SIGKILL):
// its parent-death signal, set by a thread that stays alive (locked to
// the goroutine that started them) until they are reaped, as the signal
// fires when the thread that forked the child exits.
type burners struct {
	cmds     []*exec.Cmd
	stopOnce sync.Once
	stopc    chan struct{}
	done     chan struct{}
}

// startBurners starts n burners.
func startBurners(n int) (*burners, error) {
	b := &burners{stopc: make(chan struct{}), done: make(chan struct{})}
	started := make(chan error, 1)
	go func() {
		// Never unlocked: the thread ends with this goroutine, after the
		// burners are reaped.
		runtime.LockOSThread()
		defer close(b.done)
		var err error
		for range n {
			cmd := exec.Command("sh", "-c", burnerScript)
			cmd.SysProcAttr = burnerAttr()
			if err = cmd.Start(); err != nil {
				err = fmt.Errorf("starting a CPU burner: %w", err)
				break
			}
			b.cmds = append(b.cmds, cmd)
		}
		started <- err
		if err == nil {
			<-b.stopc
		}
		for _, cmd := range b.cmds {
			if err := cmd.Process.Kill(); err != nil && !errors.Is(err, os.ErrProcessDone) {
				fmt.Fprintln(os.Stderr, "speed: killing a CPU burner:", err)
			}
			_ = cmd.Wait()
		}
	}()
	if err := <-started; err != nil {
		<-b.done
		return nil, err
	}
	return b, nil
}

// pids are the burners' process ids.
func (b *burners) pids() []int {
	var out []int
	for _, cmd := range b.cmds {
		out = append(out, cmd.Process.Pid)
	}
	return out
}

// stop kills the burners and waits until they are reaped; later calls
// do nothing.
func (b *burners) stop() {
	b.stopOnce.Do(func() { close(b.stopc) })
	<-b.done
}
