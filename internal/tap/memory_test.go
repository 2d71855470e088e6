package tap

import (
	"bytes"
	"io"
	"runtime/metrics"
	"sync/atomic"
	"testing"
	"time"
)

// heapPeak samples the heap the last collection found live until stop is
// closed and returns the highest value seen. Live, not allocated: the
// garbage between two collections depends on when the collector ran,
// which a busy machine moves (objects:bytes read 90 MiB with 34 live).
func heapPeak(stop <-chan struct{}) <-chan uint64 {
	out := make(chan uint64, 1)
	go func() {
		s := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
		var peak uint64
		tick := time.NewTicker(time.Millisecond)
		defer tick.Stop()
		for {
			metrics.Read(s)
			peak = max(peak, s[0].Value.Uint64())
			select {
			case <-stop:
				out <- peak
				return
			case <-tick.C:
			}
		}
	}()
	return out
}

// TestMemoryWhilePublishingIsBounded: 256 MiB through a tap that records
// and publishes to a viewer that never reads: the heap stays within the
// feed's, the recorder's, the history's and the viewer's bounds (and the
// garbage of a cycle), nowhere near the traffic.
func TestMemoryWhilePublishingIsBounded(t *testing.T) {
	if testing.Short() {
		t.Skip("streams 256 MiB")
	}
	h := startTap(t, "echo", Options{Record: tempFile(t, "mem.jsonl")})
	stalled := h.watch()
	defer stalled.Close()
	line := append(bytes.Repeat([]byte("x"), 64<<10-1), '\n')
	const total = 256 << 20
	stop := make(chan struct{})
	peak := heapPeak(stop)
	var read atomic.Int64
	got := make(chan struct{})
	go func() {
		n, _ := io.CopyN(io.Discard, h.out, total)
		read.Store(n)
		close(got)
	}()
	for range total / len(line) {
		if _, err := h.in.Write(line); err != nil {
			t.Fatal(err)
		}
	}
	<-got
	close(stop)
	if n := read.Load(); n != total {
		t.Fatalf("the host read %d bytes, want %d", n, total)
	}
	// 2 feed batches (8 MiB) + recorder queue (8) + history (8) + viewer
	// queue (8) + lines in flight: 32 MiB live, and half again for the
	// lines the collector found in flight.
	const bound = 48 << 20
	p := <-peak
	t.Logf("peak live heap %d MiB while %d MiB went through", p>>20, total>>20)
	if p > bound {
		t.Errorf("the live heap reached %d MiB, over %d MiB", p>>20, bound>>20)
	}
}
