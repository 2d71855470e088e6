package model

import (
	"fmt"
	"runtime"
	"testing"
)

// heapAfterGC is the live Go heap.
func heapAfterGC() uint64 {
	var ms runtime.MemStats
	runtime.GC()
	runtime.GC()
	runtime.ReadMemStats(&ms)
	return ms.HeapAlloc
}

// floodLine is a notifications/message line as a flooding server sends
// it (tools/floodbench's), numbered so that no two share memory.
func floodLine(i int) string {
	return fmt.Sprintf(`{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","logger":"flood","data":"line %d of the flood, a little padding to look like a log line"}}`, i)
}

// The history's accounting covers its real memory: holding a full history
// grows the live heap by no more than History.Bytes (and a quarter of a
// MiB for the session's other tables), wherever the history stands in its
// cycle of growing and evicting, and by no less than half of it, so that
// MemoryBudget, built on the cap, holds.
func TestHistoryAccountingCoversItsMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("fills a 4 MiB history")
	}
	const capBytes = 4 << 20
	before := heapAfterGC()
	s := started(t, Config{HistoryBytes: capBytes})
	h := s.History()
	i := 0
	for ; h.Evicted() == 0; i++ {
		s.Apply(in(float64(i)/1000, floodLine(i)))
	}
	// Sample across two more histories' worth of lines: the storage
	// holding the entries may be at any point of its cycle.
	full := h.Len()
	var worst, accounted int64
	for lap := range 8 {
		for range full / 4 {
			s.Apply(in(float64(i)/1000, floodLine(i)))
			i++
		}
		grown := int64(heapAfterGC()) - int64(before)
		runtime.KeepAlive(s)
		if grown > worst || lap == 0 {
			worst, accounted = grown, int64(h.Bytes())
		}
	}
	t.Logf("%d entries accounted %s, live heap grew at most %s", h.Len(), FormatSize(int(accounted)), FormatSize(int(worst)))
	if accounted > capBytes {
		t.Errorf("accounted %d bytes, over the %d cap", accounted, capBytes)
	}
	if worst > accounted+1<<18 {
		t.Errorf("holding the history grew the heap by %d bytes, more than the %d accounted to it", worst, accounted)
	}
	if worst < accounted/2 {
		t.Errorf("holding the history grew the heap by only %d bytes of the %d accounted to it: the accounting overcharges", worst, accounted)
	}
}

// The budget is one and a half history caps and a small fixed overhead,
// never the three caps and 256 MiB it once was.
func TestMemoryBudgetIsOneAndAHalfCaps(t *testing.T) {
	if MemoryOverhead > 32<<20 {
		t.Errorf("MemoryOverhead = %d, want at most 32 MiB", MemoryOverhead)
	}
	for _, capBytes := range []int{1 << 20, 8 << 20, DefaultHistoryBytes, 1 << 30} {
		if got, want := MemoryBudget(capBytes), int64(capBytes)*3/2+MemoryOverhead; got > want {
			t.Errorf("MemoryBudget(%d) = %d, over 1.5 caps and the overhead (%d)", capBytes, got, want)
		}
	}
	if MemoryBudget(0) != MemoryBudget(DefaultHistoryBytes) {
		t.Error("MemoryBudget(0) is not the default cap's")
	}
}
