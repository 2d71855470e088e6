package app

import (
	"context"
	"os"
	"os/signal"
	"syscall"
)

// endingSignals end mcptui the way a quit does: the server is shut down
// (EOF, SIGTERM, SIGKILL to its process group), then mcptui exits with
// 128+N. SIGHUP is a closed terminal.
var endingSignals = []os.Signal{syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP}

// caughtSignal is the cause of the context a signal ended.
type caughtSignal struct{ sig syscall.Signal }

func (c caughtSignal) Error() string { return "mcptui: received " + c.sig.String() }

// withSignals is ctx, cancelled with a caughtSignal cause at the first
// ending signal. The signals stay caught until stop is called, so that a
// second ctrl+c during the (bounded) shutdown cannot kill mcptui before the
// server is stopped.
func withSignals(ctx context.Context) (_ context.Context, stop func()) {
	ctx, cancel := context.WithCancelCause(ctx)
	ch := make(chan os.Signal, 1)
	signal.Notify(ch, endingSignals...)
	done := make(chan struct{})
	go func() {
		select {
		case sig := <-ch:
			s, _ := sig.(syscall.Signal)
			cancel(caughtSignal{s})
		case <-done:
		}
	}()
	return ctx, func() {
		signal.Stop(ch)
		close(done)
		cancel(nil)
	}
}

// signalStatus is the conventional exit status after the signal that ended
// ctx (128+N), if one did.
func signalStatus(ctx context.Context) (int, bool) {
	if c, ok := context.Cause(ctx).(caughtSignal); ok {
		return 128 + int(c.sig), true
	}
	return 0, false
}
