package e2e

import (
	"os/exec"
	"runtime"
)

// Start starts cmd with ChildAttr and reaps it; exited is closed once it
// was reaped. It forks from a goroutine locked to its OS thread that lives
// until then: on Linux the parent-death signal fires when the thread that
// forked the child exits, and Go ends a thread when a goroutine locked to
// it returns. A child forked from an unlocked goroutine could be killed
// mid-test once another goroutine (conn's process starter) locked that
// thread and returned: the everything server "exited before listening",
// with no output, in the end-to-end tier.
func Start(cmd *exec.Cmd) (exited <-chan struct{}, err error) {
	cmd.SysProcAttr = ChildAttr()
	done := make(chan struct{})
	started := make(chan error, 1)
	go func() {
		runtime.LockOSThread() // never unlocked: the thread ends after the child
		if err := cmd.Start(); err != nil {
			started <- err
			return
		}
		started <- nil
		_ = cmd.Wait()
		close(done)
	}()
	if err := <-started; err != nil {
		return nil, err
	}
	return done, nil
}
