package inbox

import (
	"fmt"
	"runtime"
	"testing"

	"github.com/mcptui/mcptui/conn"
	"github.com/mcptui/mcptui/model"
)

// liveHeap is the live Go heap.
func liveHeap() int64 {
	var ms runtime.MemStats
	runtime.GC()
	runtime.GC()
	runtime.ReadMemStats(&ms)
	return int64(ms.HeapAlloc)
}

// A flood nobody drains queues at most a quarter of the history cap:
// measured as the live heap the full inbox holds, with every line a fresh
// allocation as conn's Observer hands them over. (8 MiB is the smallest cap
// above the inbox's 1 MiB floors; a larger one is only slower to fill.)
func TestLimitsForBoundsTheQueuedMemory(t *testing.T) {
	for _, capBytes := range []int{8 << 20} {
		before := liveHeap()
		in := New(LimitsFor(capBytes))
		obs := in.Observer()
		for i := range 20_000 {
			line := fmt.Appendf(nil, `{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"flood line %d"}}`, i)
			obs(conn.Event{Kind: conn.Received, Line: line, Size: len(line)})
		}
		grown := liveHeap() - before
		queued := in.Len()
		runtime.KeepAlive(in)
		t.Logf("cap %s: %d events queued in %s", model.FormatSize(capBytes), queued, model.FormatSize(int(grown)))
		if limit := int64(capBytes)/4 + 1<<18; grown > limit {
			t.Errorf("cap %s: the full inbox holds %d bytes, over a quarter of the cap (%d)", model.FormatSize(capBytes), grown, limit)
		}
		if queued == 0 {
			t.Errorf("cap %s: nothing queued", model.FormatSize(capBytes))
		}
	}
}

// A flood's line costs the observer's goroutine its copy, its summary and
// one Wire on the heap: the Wire (some 200 bytes) is converted to an Event
// once, not once by FromConn, again by FromConnGen and again by the queue.
func TestObserverBoxesALineOnce(t *testing.T) {
	in := New(Limits{MaxEvents: 1 << 20, MaxBytes: 1 << 30})
	obs := in.ObserverGen(1)
	line := []byte(`{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","logger":"flood","data":"tick tock"}}`)
	ev := conn.Event{Kind: conn.Received, Line: line, Size: len(line)}
	for range 1000 { // grow the queue's array first
		obs(ev)
	}
	in.take()
	allocs := testing.AllocsPerRun(500, func() { obs(ev) })
	// The line's copy, its summary, the Wire.
	if allocs > 3 {
		t.Errorf("a line costs %.1f allocations, want at most 3 (its copy, its summary, one Wire)", allocs)
	}
}
