package httpconn

import (
	"bytes"
	"runtime"
	"testing"
)

// TestBigEventAllocation: reading one 15 MiB event allocates about twice
// its size (the data doubling up to the limit), not the five times that
// append's 1.25x growth of large slices cost.
func TestBigEventAllocation(t *testing.T) {
	const size = 15 << 20
	stream := append(append([]byte("data: "), bytes.Repeat([]byte("x"), size)...), "\n\n"...)
	// TotalAlloc counts the whole process (goroutines other tests left
	// behind too): the least of three reads is the reader's own.
	least := uint64(1 << 62)
	for range 3 {
		sr := newSSEReader(bytes.NewReader(stream), 16<<20)
		runtime.GC()
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		ev, err := sr.next()
		runtime.ReadMemStats(&after)
		sr.release()
		if err != nil || len(ev.data) != size {
			t.Fatalf("next: %d bytes, %v", len(ev.data), err)
		}
		least = min(least, after.TotalAlloc-before.TotalAlloc)
	}
	if least > 3*size {
		t.Errorf("reading a %d-byte event allocated %d bytes (%.1fx), want at most 3x", size, least, float64(least)/size)
	}
}
