package timeline

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/metrics"
	"strings"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/mcptui/mcptui/conn"
	"github.com/mcptui/mcptui/internal/record"
	"github.com/mcptui/mcptui/internal/testkit/e2e"
)

// writeFlood records a session of n log notifications (about 330 bytes
// each) after a handshake, into a file under dir.
func writeFlood(t testing.TB, dir string, n int) string {
	t.Helper()
	path := filepath.Join(dir, "flood.jsonl")
	r, err := record.Create(path, record.Header{Mode: "inspect", Command: "srv"})
	if err != nil {
		t.Fatal(err)
	}
	r.SetMaxQueue(1 << 30)
	at := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	line := func(kind conn.EventKind, s string) {
		at = at.Add(time.Microsecond)
		r.Observe(conn.Event{Kind: kind, Time: at, Line: []byte(s), Size: len(s) + 1})
	}
	line(conn.Sent, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"mcptui","version":"1"}}}`)
	line(conn.Received, `{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-06-18","capabilities":{"logging":{}},"serverInfo":{"name":"flood","version":"1"}}}`)
	line(conn.Sent, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	pad := strings.Repeat("x", 120)
	for i := range n {
		line(conn.Received, fmt.Sprintf(`{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","logger":"flood","data":"line %d %s"}}`, i, pad))
	}
	r.Observe(conn.Event{Kind: conn.Exited, Time: at.Add(time.Millisecond)})
	if err := r.Close(); err != nil {
		t.Fatal(err)
	}
	return path
}

// heapPeak samples the live heap (what the last collection found
// reachable) until stopped, and keeps the highest figure; checkpoint adds
// a figure measured after a forced collection.
type heapPeak struct {
	mu   sync.Mutex
	peak uint64
	stop chan struct{}
	done chan struct{}
}

func watchHeap() *heapPeak {
	h := &heapPeak{stop: make(chan struct{}), done: make(chan struct{})}
	s := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	go func() {
		defer close(h.done)
		tick := time.NewTicker(2 * time.Millisecond)
		defer tick.Stop()
		for {
			metrics.Read(s)
			h.see(s[0].Value.Uint64())
			select {
			case <-h.stop:
				return
			case <-tick.C:
			}
		}
	}()
	return h
}

func (h *heapPeak) see(v uint64) {
	h.mu.Lock()
	h.peak = max(h.peak, v)
	h.mu.Unlock()
}

// checkpoint forces a collection and records the live heap after it.
func (h *heapPeak) checkpoint() uint64 {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	h.see(ms.HeapAlloc)
	return ms.HeapAlloc
}

func (h *heapPeak) end() uint64 {
	close(h.stop)
	<-h.done
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.peak
}

// Replaying a recording holds what the live inspector would: the history
// the cap allows and a bounded overhead, not the recording. Here 400,000
// notifications (131 MB of recording) are loaded, shown to the end and
// stepped back through under an 8 MiB history cap, with the live heap
// sampled throughout.
func TestReplayHeapOfABigRecordingStaysWithinTheHistoryCap(t *testing.T) {
	if testing.Short() {
		t.Skip("writes and replays a 131 MB recording")
	}
	e2e.Require(t)
	testReplayHeap(t, 400_000, 2*history+24<<20)
}

// The same measure on a small recording (6.5 MB) runs everywhere: it held
// 38.9 MiB when the timeline kept the recording and its events.
func TestReplayHeapOfASmallRecording(t *testing.T) {
	testReplayHeap(t, 20_000, history+16<<20)
}

// history is the cap the replays run under.
const history = 8 << 20

// testReplayHeap replays n notifications and fails if the live heap
// passed allowed: the history cap, its bookkeeping (the model counts line
// bytes, the events around them cost more), the inspector's tables and
// screens, a chunk of events, and the index (8 bytes an event).
func testReplayHeap(t *testing.T, n int, allowed uint64) {
	path := writeFlood(t, t.TempDir(), n)
	if fi, err := os.Stat(path); err == nil {
		t.Logf("the recording: %d lines, %.1f MB", n+4, float64(fi.Size())/1e6)
	}
	base := (&heapPeak{}).checkpoint()

	h := watchHeap()
	l := newLoader(path, Options{Theme: "dark", Title: "flood.jsonl", HistoryBytes: history})
	next, _ := l.Update(l.Init()())
	tl, ok := next.(*Timeline)
	if !ok {
		t.Fatalf("no timeline: %v", l.err)
	}
	loaded := h.checkpoint()
	// Without a fold budget the timeline folds the events as it is built
	// and as it steps: nothing waits in a Cmd.
	tl.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	if tl.Cursor() != tl.Len() || tl.Len() < n {
		t.Fatalf("cursor %d of %d events", tl.Cursor(), tl.Len())
	}
	shown := h.checkpoint()
	tl.Seek(tl.Len() / 2)
	if tl.Cursor() != tl.Len()/2 {
		t.Fatalf("cursor %d after a step back to %d", tl.Cursor(), tl.Len()/2)
	}
	back := h.checkpoint()
	if !strings.Contains(tl.StatusLine(200), "notifications/message") {
		t.Errorf("status line %q", tl.StatusLine(200))
	}
	peak := h.end()
	runtime.KeepAlive(tl)
	mib := func(v uint64) float64 { return float64(v-min(v, base)) / (1 << 20) }
	t.Logf("%d notifications: live heap over the test's own %.1f MiB: loaded %.1f MiB, shown %.1f MiB, stepped back %.1f MiB, peak %.1f MiB (allowed %d MiB)",
		n, float64(base)/(1<<20), mib(loaded), mib(shown), mib(back), mib(peak), allowed>>20)
	if peak-min(peak, base) > allowed {
		t.Errorf("peak live heap %.1f MiB over the %d MiB the history cap allows", mib(peak), allowed>>20)
	}
}

// A recording file cut short after it was indexed (another program
// rewrote it) is not shown past where it can be read: the status line
// says why, and the program goes on.
func TestReplayOfAFileCutShortSaysSo(t *testing.T) {
	t.Parallel()
	path := writeFlood(t, t.TempDir(), 100)
	tl, err := load(path, Options{Theme: "dark", Title: "flood.jsonl"})
	if err != nil {
		t.Fatal(err)
	}
	defer tl.Close()
	if tl.Cursor() != tl.Len() || tl.readErr != nil {
		t.Fatalf("cursor %d of %d, %v", tl.Cursor(), tl.Len(), tl.readErr)
	}
	if err := os.Truncate(path, 1000); err != nil {
		t.Fatal(err)
	}
	tl.Seek(tl.Len() / 2)
	if line := tl.StatusLine(200); tl.readErr == nil || !strings.Contains(line, "reading the recording: ") {
		t.Fatalf("the cut is not said: %v, %q", tl.readErr, line)
	}
}
