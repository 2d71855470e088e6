package main

import (
	"bufio"
	"errors"
	"sync"
	"testing"
	"time"
)

// stallingPipe takes writes, except that its first write waits until
// released (a full pipe), and it fails once failing is set.
type stallingPipe struct {
	release chan struct{}
	once    sync.Once
	failing bool // set by the flood's own goroutine, through publish
}

func (p *stallingPipe) Write(b []byte) (int, error) {
	p.once.Do(func() { <-p.release })
	if p.failing {
		return 0, errors.New("closed")
	}
	return len(b), nil
}

// A flood paced by schedule counts the lines it could not send while its
// pipe stayed full as Blocked (the reader's shortfall), not Late, and
// every line due is accounted for: sent, blocked or late.
func TestFloodCountsAFullPipeAsBlocked(t *testing.T) {
	const rate = 100_000
	pipe := &stallingPipe{release: make(chan struct{})}
	var mu sync.Mutex
	var last floodStats
	done := make(chan struct{})
	go func() {
		defer close(done)
		flood(bufio.NewWriterSize(pipe, 1<<20), rate, func(s floodStats) {
			mu.Lock()
			last = s
			mu.Unlock()
			// The pipe fails once the catch-up after the full pipe was
			// counted: the flood then ends at its next write. (Failing
			// after a second of lines let a flood descheduled for over
			// floodCatchUp on a busy machine count lines as Late.)
			if s.Blocked > 0 {
				pipe.failing = true
			}
		})
	}()
	// Hold the pipe full until the server owes far more than it may catch
	// up: the write that waited is then much longer than any pause of a
	// busy machine between it and the next look at the clock.
	for {
		mu.Lock()
		start := last.Start
		mu.Unlock()
		if start != 0 && time.Since(time.Unix(0, start)) > 20*floodCatchUp {
			break
		}
		time.Sleep(time.Millisecond)
	}
	close(pipe.release)
	select {
	case <-done:
	case <-time.After(time.Minute):
		t.Fatal("the flood did not end when its pipe failed")
	}
	mu.Lock()
	defer mu.Unlock()
	if last.Blocked == 0 {
		t.Errorf("nothing counted as skipped on a full pipe: %+v", last)
	}
	if last.Late != 0 {
		t.Errorf("lines skipped on a full pipe counted as the server's lateness: %+v", last)
	}
	if last.Sent == 0 {
		t.Errorf("nothing sent: %+v", last)
	}
}
