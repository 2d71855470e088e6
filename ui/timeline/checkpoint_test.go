package timeline

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/mcptui/mcptui/internal/record"
	"github.com/mcptui/mcptui/internal/replay"
	"github.com/mcptui/mcptui/internal/testkit/uitest"
	"github.com/mcptui/mcptui/model"
)

// countingFile counts the bytes read from the recording file.
type countingFile struct {
	f *os.File
	n *atomic.Int64
}

func (c countingFile) Read(p []byte) (int, error) {
	n, err := c.f.Read(p)
	c.n.Add(int64(n))
	return n, err
}
func (c countingFile) Seek(off int64, whence int) (int64, error) { return c.f.Seek(off, whence) }
func (c countingFile) Close() error                              { return c.f.Close() }

// countedTimeline is the timeline of the recording at path, both its
// readers counting into n.
func countedTimeline(t *testing.T, path string, opts Options, n *atomic.Int64) *Timeline {
	t.Helper()
	x, err := replay.IndexFile(path, 0)
	if err != nil {
		t.Fatal(err)
	}
	open := func() *fileSource {
		f, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		return &fileSource{x: x, r: x.OpenFrom(countingFile{f: f, n: n})}
	}
	tl := newTimeline(open(), open(), x.Header, x.Config(opts.HistoryBytes), x.Sends, opts)
	t.Cleanup(func() { tl.Close() })
	tl.Update(tea.WindowSizeMsg{Width: 140, Height: 40})
	return tl
}

// A step back in a large recording resumes from the checkpoint before
// its cursor: it reads the history's window before that checkpoint (to
// rebuild its entries) and at most the bytes between two checkpoints
// more on each side, not the file up to the cursor, and ends with the
// session that folding the recording from its start reaches.
func TestStepBackReadsOneCheckpointInterval(t *testing.T) {
	t.Parallel()
	// Checkpoints every 2,500 events of 12,000, rather than the default
	// 16,384 of a flood several times that: the same reads, a fifth of
	// the folding (this test folds from the start once per seek too).
	const notes = 12_000
	path := writeFlood(t, t.TempDir(), notes)
	opts := Options{Theme: "dark", Title: "flood.jsonl", HistoryBytes: 1 << 20, CheckpointBytes: 8 << 20, every: 2500, chunk: 500}
	stepsBackReadBounded(t, path, opts, 3, 3)
}

// With the default budget (the history cap), a recording many times the
// cap keeps checkpoints all along it, not one near its end: each costs
// the tables beside the history, not a copy of it. A step back to its
// first part reads the history's window and a checkpoint interval or
// two, not the file from its start.
func TestCheckpointsSpreadUnderTheDefaultBudget(t *testing.T) {
	t.Parallel()
	const notes = 12_000
	path := writeFlood(t, t.TempDir(), notes)
	// A 256 KiB cap: the 3.9 MB recording is 15 caps; its history holds
	// some 360 lines of the 12,000.
	opts := Options{Theme: "dark", Title: "flood.jsonl", HistoryBytes: 256 << 10, every: 1000, chunk: 500}
	stepsBackReadBounded(t, path, opts, 8, 8)
}

// stepsBackReadBounded loads the recording at path with opts, wants at
// least want checkpoints at most 1/spread of the file apart, and steps
// back to points all along it: each step reads at most the history cap
// and two of those gaps (the history's window of small lines takes fewer
// bytes of the file than of the cap), and ends with the session a fold
// from the start reaches.
func stepsBackReadBounded(t *testing.T, path string, opts Options, want int, spread int64) {
	t.Helper()
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	var read atomic.Int64
	tl := countedTimeline(t, path, opts, &read)
	if tl.Cursor() != tl.Len() || read.Load() < fi.Size()/2 {
		t.Fatalf("the load left cursor %d of %d, read %d bytes of %d", tl.Cursor(), tl.Len(), read.Load(), fi.Size())
	}
	cps := tl.cps.list
	if len(cps) < want {
		t.Fatalf("%d checkpoints in a %d-byte recording (%d bytes), want %d", len(cps), fi.Size(), tl.cps.total(), want)
	}
	// The widest gap between two checkpoints (the start and the end
	// count), in bytes of the file.
	var gap int64
	prev := tl.src.Offset(0)
	for _, cp := range cps {
		gap = max(gap, cp.off-prev)
		prev = cp.off
	}
	gap = max(gap, fi.Size()-prev)
	if gap > fi.Size()/spread {
		t.Fatalf("checkpoints %d bytes apart in a %d-byte file", gap, fi.Size())
	}
	bound := int64(opts.HistoryBytes) + 2*gap + 64<<10
	t.Logf("%d checkpoints of %d bytes, at most %d bytes apart, in a %d-byte recording; a step back may read %d", len(cps), tl.cps.total(), gap, fi.Size(), bound)
	fresh := countedTimeline(t, path, Options{Theme: "dark", Title: "flood.jsonl", HistoryBytes: opts.HistoryBytes, CheckpointBytes: -1}, new(atomic.Int64))
	most := int64(0)
	for _, n := range []int{tl.Len() * 3 / 4, tl.Len() / 2, tl.Len()/2 + 1, tl.Len() / 4, tl.Len() / 8, 10, cps[1].at, cps[1].at - 1} {
		read.Store(0)
		tl.Seek(n)
		if tl.Cursor() != n || tl.Inspector().Backlog() != 0 || tl.readErr != nil {
			t.Fatalf("the step back to %d left cursor %d, %d to fold, %v", n, tl.Cursor(), tl.Inspector().Backlog(), tl.readErr)
		}
		// The chunk read ends at the cursor; the status line reads the
		// event before it once more.
		got := read.Load()
		most = max(most, got)
		if got > bound {
			t.Errorf("the step back to %d (byte %d of the file) read %d bytes, more than the cap and two gaps, %d", n, tl.src.Offset(n), got, bound)
		}
		fresh.Seek(0)
		fresh.Seek(n)
		if !reflect.DeepEqual(tl.Inspector().Session(), fresh.Inspector().Session()) {
			t.Fatalf("at %d the session resumed from a checkpoint differs from the one folded from the start", n)
		}
		if g, w := tl.View().Content, fresh.View().Content; g != w {
			t.Fatalf("at %d the screen differs from a fresh timeline's:\n%s\nwant:\n%s", n, g, w)
		}
		tl.Seek(tl.Len())
	}
	t.Logf("a step back read at most %d bytes", most)
}

// Resuming from a checkpoint, at any event of a session with calls,
// progress, questions, subscriptions, logs, stderr and an exit, gives
// the session that folding from the start gives. (Not always the same
// screen: the inspector's notices, "the server is asking something",
// are about the events it folded itself, and a resumed one folded fewer.)
func TestCheckpointsResumeEveryKindOfState(t *testing.T) {
	t.Parallel()
	rec, err := record.Open(filepath.Join("testdata", "demo.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	tl := NewTimeline(rec, Options{Theme: "dark", Title: "demo.jsonl", chunk: 5, every: 5})
	tl.Update(tea.WindowSizeMsg{Width: 140, Height: 40})
	if len(tl.cps.list) < 10 {
		t.Fatalf("%d checkpoints for %d events", len(tl.cps.list), tl.Len())
	}
	fresh := NewTimeline(rec, Options{Theme: "dark", Title: "demo.jsonl", CheckpointBytes: -1})
	fresh.Update(tea.WindowSizeMsg{Width: 140, Height: 40})
	for n := tl.Len() - 1; n >= 0; n-- {
		tl.Seek(n)
		fresh.Seek(0)
		fresh.Seek(n)
		if cp := tl.cps.before(n); n >= 5 && (cp == nil || n-cp.at >= 5) {
			t.Fatalf("the step back to %d did not resume from the checkpoint before it", n)
		}
		if !reflect.DeepEqual(tl.Inspector().Session(), fresh.Inspector().Session()) {
			t.Fatalf("at %d the session resumed from a checkpoint differs from the one folded from the start", n)
		}
	}
}

// The checkpoints stay within their budget: every other one goes, and
// the interval doubles.
func TestCheckpointsStayWithinTheirBudget(t *testing.T) {
	t.Parallel()
	for _, budget := range []int{1 << 20, 160 << 10} {
		for _, n := range []int{3000, 3100, 3200, 3300, 3400} {
			checkpointsWithinBudget(t, n, budget)
		}
	}
}

func checkpointsWithinBudget(t *testing.T, n, budget int) {
	rec := bigRecording(t, n)
	tl := NewTimeline(rec, Options{Theme: "dark", Title: "big.jsonl", HistoryBytes: 64 << 10, CheckpointBytes: budget, chunk: 16, every: 16})
	c := tl.cps
	if len(c.list) == 0 || c.total() > budget || len(c.list) > maxCheckpoints || c.everyEvents <= 16 {
		t.Fatalf("%d checkpoints of %d bytes (budget %d), every %d events", len(c.list), c.total(), budget, c.everyEvents)
	}
	for i := 1; i < len(c.list); i++ {
		if d := c.list[i].at - c.list[i-1].at; d > c.everyEvents {
			t.Fatalf("checkpoints %d and %d are %d events apart, more than the interval %d", i-1, i, d, c.everyEvents)
		}
	}
	// The newest is kept through the thinning: a step back from the end
	// resumes near it.
	if last := c.list[len(c.list)-1].at; tl.Len()-last > c.everyEvents {
		t.Fatalf("the newest checkpoint is at %d of %d events, more than the interval %d from the end", last, tl.Len(), c.everyEvents)
	}
}

// Thinning keeps the newest checkpoint, whatever their number: the
// commonest step back is from where the cursor is, near the newest.
func TestThinningKeepsTheNewestCheckpoint(t *testing.T) {
	t.Parallel()
	for n := 2; n <= 7; n++ {
		c := checkpoints{everyEvents: 10, everyBytes: 10}
		k, _ := model.New(model.Config{}).Checkpoint()
		for i := 1; i <= n; i++ {
			c.list = append(c.list, &checkpoint{at: 10 * i, sess: k})
		}
		c.thin()
		if last := c.list[len(c.list)-1].at; last != 10*n || c.everyEvents != 20 || len(c.list) > n/2+1 {
			t.Fatalf("thinning %d checkpoints kept %d, the newest at %d, every %d events", n, len(c.list), last, c.everyEvents)
		}
	}
}

// With a fold budget a step back restores its checkpoint in a Cmd, off
// the UI goroutine: the inspector it replaces stays on screen meanwhile,
// the status line says it is rebuilding, keys are handled; a step back
// during the restore drops it (its result is not shown), and the screen
// ends as a fresh timeline's at the cursor.
func TestStepBackRestoresOffTheUIGoroutine(t *testing.T) {
	t.Parallel()
	rec := bigRecording(t, 5000)
	tl := NewTimeline(rec, Options{Theme: "dark", Title: "big.jsonl", FoldBudget: time.Nanosecond, HistoryBytes: 64 << 10, CheckpointBytes: 8 << 20, every: 500, chunk: 250})
	p := &uitest.Pump{Model: tl}
	tl.backend.Close()
	p.Run(tl.Init())
	p.Send(tea.WindowSizeMsg{Width: 140, Height: 40})
	p.Drain(t)
	if len(tl.cps.list) < 4 || tl.Cursor() != tl.Len() {
		t.Fatalf("%d checkpoints, cursor %d of %d", len(tl.cps.list), tl.Cursor(), tl.Len())
	}
	old := tl.Inspector()
	n := tl.Len()/2 + 7
	if cp := tl.cps.before(n - 300); cp == nil || tl.cps.base(cp) == nil {
		t.Fatal("no checkpoint to restore the history from: the step back would fold from the start")
	}
	cmd := tl.Seek(n)
	if tl.restoring == nil || tl.Inspector() != old || tl.Cursor() != n {
		t.Fatalf("the step back did not restore in a Cmd: restoring %v, cursor %d", tl.restoring != nil, tl.Cursor())
	}
	if st := tl.StatusLine(140); !strings.Contains(st, "rebuilding") {
		t.Fatalf("the status line during the restore: %q", st)
	}
	// The restore runs on a goroutine of its own, as a Cmd does, while
	// the UI goroutine handles keys.
	done := make(chan tea.Msg, 1)
	go func() { done <- cmd() }()
	// A key meanwhile: the step forward moves the cursor, folds nothing.
	p.Send(key(keyNext))
	if tl.Cursor() != n+1 || tl.restoring == nil {
		t.Fatalf("the step forward during the restore: cursor %d, restoring %v", tl.Cursor(), tl.restoring != nil)
	}
	tl.View()
	// A step back to the checkpoint being restored moves the cursor and
	// lets the restore go on (a key held down does not restart it).
	if c := tl.Seek(n); c != nil || tl.restoring == nil || tl.Cursor() != n {
		t.Fatalf("a step back during the restore of its checkpoint: cmd %v, restoring %v, cursor %d", c != nil, tl.restoring != nil, tl.Cursor())
	}
	// A step back elsewhere during the restore: the first gives up, or finishes,
	// and its result is dropped.
	second := tl.Seek(n - 300)
	p.Send(<-done)
	p.Drain(t)
	if tl.Inspector() != old {
		t.Fatal("the restore given up replaced the inspector")
	}
	p.Run(second)
	p.Drain(t)
	if tl.restoring != nil || tl.Inspector() == old || tl.Inspector().Backlog() != 0 {
		t.Fatalf("the second restore did not finish: restoring %v, %d to fold", tl.restoring != nil, tl.Inspector().Backlog())
	}
	fresh := NewTimeline(rec, Options{Theme: "dark", Title: "big.jsonl", HistoryBytes: 64 << 10, CheckpointBytes: -1})
	fresh.Update(tea.WindowSizeMsg{Width: 140, Height: 40})
	fresh.Seek(n - 300)
	sameState(t, tl, fresh)
	if !reflect.DeepEqual(tl.Inspector().Session(), fresh.Inspector().Session()) {
		t.Fatal("the session restored off the UI goroutine differs from the one folded from the start")
	}
}

// Stepping back key by key resumes from the same checkpoint: the first
// step rebuilds its history from the file, the next ones copy what the
// first restored (kept within the budget) and read only the events from
// the checkpoint to the cursor.
func TestNextStepBackCopiesTheCheckpointRestored(t *testing.T) {
	t.Parallel()
	path := writeFlood(t, t.TempDir(), 12_000)
	// A budget with room for the copy beside the checkpoints (the
	// default, the cap, has it at 64 MiB, not at a cap this small).
	opts := Options{Theme: "dark", Title: "flood.jsonl", HistoryBytes: 256 << 10, CheckpointBytes: 1 << 20, every: 1000, chunk: 500}
	var read atomic.Int64
	tl := countedTimeline(t, path, opts, &read)
	n := tl.Len()
	cp := tl.cps.before(n - 1)
	if cp == nil || tl.cps.base(cp) == nil {
		t.Fatal("no checkpoint to restore the history from")
	}
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	tail := fi.Size() - cp.off
	read.Store(0)
	tl.Seek(n - 1)
	first := read.Load()
	if first <= tail+int64(opts.HistoryBytes)/2 || tl.cps.hot != cp {
		t.Fatalf("the first step back read %d bytes (the checkpoint's tail: %d), kept hot %v", first, tail, tl.cps.hot == cp)
	}
	if tl.cps.total() > tl.cps.budget {
		t.Fatalf("with the copy the checkpoints take %d bytes, over their budget %d", tl.cps.total(), tl.cps.budget)
	}
	fresh := countedTimeline(t, path, Options{Theme: "dark", Title: "flood.jsonl", HistoryBytes: opts.HistoryBytes, CheckpointBytes: -1}, new(atomic.Int64))
	for k := 2; k <= 4; k++ {
		read.Store(0)
		tl.Seek(n - k)
		if got := read.Load(); got > tail+64<<10 {
			t.Fatalf("step back %d read %d bytes, more than the checkpoint's tail %d", k, got, tail)
		}
		fresh.Seek(n - k)
		if !reflect.DeepEqual(tl.Inspector().Session(), fresh.Inspector().Session()) {
			t.Fatalf("at %d the session copied from the restored one differs from the one folded from the start", n-k)
		}
	}
	// A step back elsewhere restores another checkpoint, which takes the
	// copy's place.
	tl.Seek(n / 3)
	if other := tl.cps.before(n / 3); tl.cps.hot != other || cp.full != nil {
		t.Fatal("the copy of the first checkpoint was kept beside the second's")
	}
}
