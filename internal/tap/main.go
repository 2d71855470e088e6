package tap

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"time"
)

// Main is mcptui tap: it runs the tap on the process's own standard
// streams, forwarding signals, and returns the exit status the server
// ended with. When a signal ended the server, the tap ends by the same
// signal (so that the host sees what it would have seen); Main returns
// only if that did not kill it.
func Main(o Options) int {
	sigs := make(chan os.Signal, 8)
	signal.Notify(sigs, forwarded...)
	defer signal.Stop(sigs)
	o.Signals = sigs
	if o.Stdin == nil {
		o.Stdin = os.Stdin
	}
	if o.Stdout == nil {
		o.Stdout = os.Stdout
	}
	if o.Stderr == nil {
		o.Stderr = os.Stderr
	}
	exit, err := Run(context.Background(), o)
	if err != nil {
		fmt.Fprintf(o.Stderr, "mcptui tap: %v\n", err)
		return exit.Code
	}
	if exit.Signal != 0 {
		signal.Stop(sigs)
		reraise(exit.Signal)
		<-time.After(2 * time.Second) // the signal ends the process first
		return 128 + int(exit.Signal)
	}
	return exit.Code
}
