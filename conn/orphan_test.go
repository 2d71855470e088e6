package conn_test

import (
	"context"
	"fmt"
	"os"
	"runtime"

	"github.com/mcptui/mcptui/conn"
)

// runOrphanDialer dials a server that ignores EOF and SIGTERM from a
// goroutine that locks its thread and ends (so the thread ends), churns
// threads the same way, checks the server still answers, says so, and waits
// to be killed.
func runOrphanDialer() int {
	// The main thread is never terminated (Go wedges it instead), so keep
	// the other goroutines off it: their threads are the ones that end.
	runtime.LockOSThread()
	exe, _ := os.Executable()
	dialed := make(chan *conn.Conn)
	go func() {
		runtime.LockOSThread()
		c, err := conn.Dial(context.Background(), exe, []string{"-ignore-eof", "-ignore-sigterm"}, conn.Options{})
		if err != nil {
			fmt.Println("dial:", err)
			os.Exit(1)
		}
		dialed <- c
	}()
	c := <-dialed
	for range 64 {
		done := make(chan struct{})
		go func() {
			runtime.LockOSThread()
			close(done)
		}()
		<-done
	}
	if _, err := c.Call(context.Background(), "echo", nil, conn.WithTimeout(waitTimeout)); err != nil {
		fmt.Println("call:", err)
		return 1
	}
	fmt.Printf("alive %d\n", c.PID())
	select {}
}
