package main

import (
	"bufio"
	"errors"
	"sync"
	"testing"
	"time"
)

// stallingPipe takes writes, except that its first write waits until
// released (a full pipe), and it fails once it has taken limit lines.
type stallingPipe struct {
	release chan struct{}
	once    sync.Once
	lines   int
	limit   int
}

func (p *stallingPipe) Write(b []byte) (int, error) {
	p.once.Do(func() { <-p.release })
	p.lines += len(b) / len(floodLine)
	if p.lines >= p.limit {
		return 0, errors.New("closed")
	}
	return len(b), nil
}

// A flood paced by schedule counts the lines it could not send while its
// pipe stayed full as Blocked (the reader's shortfall), not Late, and
// every line due is accounted for: sent, blocked or late.
func TestFloodCountsAFullPipeAsBlocked(t *testing.T) {
	const rate = 100_000
	pipe := &stallingPipe{release: make(chan struct{}), limit: rate} // about a second of lines
	var mu sync.Mutex
	var last floodStats
	done := make(chan struct{})
	go func() {
		defer close(done)
		flood(bufio.NewWriterSize(pipe, 1<<20), rate, func(s floodStats) {
			mu.Lock()
			last = s
			mu.Unlock()
		})
	}()
	// Hold the pipe full until the server owes more than it may catch up.
	for {
		mu.Lock()
		start := last.Start
		mu.Unlock()
		if start != 0 && time.Since(time.Unix(0, start)) > 3*floodCatchUp {
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
