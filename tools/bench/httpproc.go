package main

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"time"
)

// httpServer is the running HTTP benchmark server every worker talks to.
type httpServer struct {
	cmd   *exec.Cmd
	stdin io.WriteCloser
	url   string
}

// startHTTPServer starts the server binary at path and waits for the URL
// it announces.
func startHTTPServer(path string) (*httpServer, error) {
	cmd := exec.Command(path)
	cmd.Stderr = os.Stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("starting the HTTP server: %w", err)
	}
	s := &httpServer{cmd: cmd, stdin: stdin}
	lines := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stdout)
		if sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
		_, _ = io.Copy(io.Discard, stdout)
	}()
	select {
	case line, ok := <-lines:
		url, found := strings.CutPrefix(line, "listening ")
		if !ok || !found {
			s.stop()
			return nil, fmt.Errorf("the HTTP server did not announce its URL (said %q)", line)
		}
		s.url = url
	case <-time.After(30 * time.Second):
		s.stop()
		return nil, fmt.Errorf("the HTTP server did not announce its URL within 30 s")
	}
	return s, nil
}

// stop ends the server: its stdin closes, and it is killed if it has not
// exited 5 s later.
func (s *httpServer) stop() {
	_ = s.stdin.Close()
	done := make(chan struct{})
	go func() {
		_ = s.cmd.Wait()
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		_ = s.cmd.Process.Kill()
		<-done
	}
}
