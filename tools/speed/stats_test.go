package main

import (
	"slices"
	"testing"
)

func TestScheduleInterleaves(t *testing.T) {
	got := schedule(3, true)
	want := []side{oldSide, newSide, oldSide, newSide, oldSide, newSide}
	if !slices.Equal(got, want) {
		t.Errorf("schedule(3, true) = %v; want %v", got, want)
	}
	if got := schedule(2, false); !slices.Equal(got, []side{newSide, newSide}) {
		t.Errorf("schedule(2, false) = %v; want new, new", got)
	}
	if got := schedule(0, true); len(got) != 0 {
		t.Errorf("schedule(0, true) = %v; want nothing", got)
	}
}

func TestMedian(t *testing.T) {
	for _, c := range []struct {
		in   []float64
		want float64
	}{
		{nil, 0},
		{[]float64{5}, 5},
		{[]float64{3, 1, 2}, 2},
		{[]float64{4, 1, 3, 2}, 2.5},
		{[]float64{10, 1, 1, 1, 10}, 1},
	} {
		in := slices.Clone(c.in)
		if got := median(c.in); got != c.want {
			t.Errorf("median(%v) = %v; want %v", c.in, got, c.want)
		}
		if !slices.Equal(in, c.in) {
			t.Errorf("median reordered its input: %v", c.in)
		}
	}
}

func TestRatio(t *testing.T) {
	if got := ratio(2, 3); got != 1.5 {
		t.Errorf("ratio(2, 3) = %v; want 1.5", got)
	}
	if got := ratio(0, 3); got != 0 {
		t.Errorf("ratio(0, 3) = %v; want 0 (nothing to compare)", got)
	}
	if got := fmtRatio(0); got != "new" {
		t.Errorf("fmtRatio(0) = %q; want new", got)
	}
	if got := fmtRatio(0.5); got != "0.50x" {
		t.Errorf("fmtRatio(0.5) = %q; want 0.50x", got)
	}
	if got := fmtRatio(2.7 / 342); got != "0.008x" {
		t.Errorf("fmtRatio(2.7/342) = %q; want 0.008x (not a rounded 0.01x)", got)
	}
}

const benchOut = `goos: linux
goarch: amd64
pkg: github.com/mcptui/mcptui/ui/explorer
cpu: Intel(R) Xeon(R) CPU @ 2.20GHz
BenchmarkCatalogDown/1000-2         	     100	     95000 ns/op	   12000 B/op	     150 allocs/op
BenchmarkCatalogDown/50000-2        	      10	   3123456 ns/op	   45678 B/op	     321 allocs/op
BenchmarkCatalogFilter/50000        	       5	 290000000 ns/op
PASS
`

func TestParseBench(t *testing.T) {
	got, err := parseBench(benchOut, "BenchmarkCatalogDown/50000")
	if err != nil {
		t.Fatal(err)
	}
	want := benchLine{Name: "BenchmarkCatalogDown/50000", N: 10, NsPerOp: 3123456, BytesPerOp: 45678, AllocsPerOp: 321}
	if got != want {
		t.Errorf("got %+v; want %+v", got, want)
	}
	// No -GOMAXPROCS suffix (GOMAXPROCS=1), no -benchmem columns.
	got, err = parseBench(benchOut, "BenchmarkCatalogFilter/50000")
	if err != nil || got.NsPerOp != 290000000 || got.N != 5 || got.AllocsPerOp != 0 {
		t.Errorf("filter: %+v, %v", got, err)
	}
	// A prefix of another benchmark's name is not that benchmark.
	if _, err := parseBench(benchOut, "BenchmarkCatalogDown/500"); err == nil {
		t.Error("BenchmarkCatalogDown/500 matched a line of another benchmark")
	}
	if _, err := parseBench("--- FAIL: BenchmarkCatalogDown\nFAIL\n", "BenchmarkCatalogDown/50000"); err == nil {
		t.Error("a failed run parsed as a result")
	}
}

func TestHuman(t *testing.T) {
	for _, c := range []struct {
		v    float64
		unit string
		want string
	}{
		{1.5, "s", "1.50 s"},
		{0.0123, "s", "12.3 ms"},
		{0.000045, "s", "45 µs"},
		{25 << 20, "B", "25.0 MiB"},
	} {
		if got := human(c.v, c.unit); got != c.want {
			t.Errorf("human(%v, %s) = %q; want %q", c.v, c.unit, got, c.want)
		}
	}
}

func TestReplayDone(t *testing.T) {
	for screen, want := range map[string]bool{
		"": false,
		"REPLAY rec.jsonl reading the recording…   q quit":              false,
		"…\nREPLAY rec.jsonl 100011/100011 +4.182s 07:35:31.846 exited": true,
		// read to the end, not yet folded: the screen is not the end's
		"REPLAY rec.jsonl 100011/100011 +4.182s 07:35:31.846 loading… 40%   ^n next line": false,
		"REPLAY rec.jsonl 4096/100011 +0.101s 07:35:30.846 ← note 146 B":                  false,
		"REPLAY rec.jsonl 100011/100011 +4.182s 07:35:31.846 rebuilding… 0%":              false,
	} {
		if got := replayDone(screen); got != want {
			t.Errorf("replayDone(%q) = %v; want %v", screen, got, want)
		}
	}
}

func TestPick(t *testing.T) {
	cases := []benchCase{{name: "a"}, {name: "b"}, {name: "c"}}
	got, err := pick(cases, "c, a")
	if err != nil || len(got) != 2 || got[0].name != "c" || got[1].name != "a" {
		t.Errorf("pick(c, a) = %v, %v", got, err)
	}
	if _, err := pick(cases, "d"); err == nil {
		t.Error("pick(d) found a case that does not exist")
	}
	if got, _ := pick(cases, ""); len(got) != 3 {
		t.Errorf("pick(\"\") = %d cases; want all 3", len(got))
	}
}

func TestSchedulePeerFollowsNew(t *testing.T) {
	got := schedulePeer(2, true, true)
	want := []side{oldSide, newSide, peerSide, oldSide, newSide, peerSide}
	if !slices.Equal(got, want) {
		t.Errorf("schedulePeer(2, true, true) = %v; want %v", got, want)
	}
	if got := schedulePeer(1, false, true); !slices.Equal(got, []side{newSide, peerSide}) {
		t.Errorf("schedulePeer(1, false, true) = %v; want new, peer", got)
	}
}

func TestSumInitTrace(t *testing.T) {
	trace := "init runtime @0.043 ms, 0.040 ms clock, 0 bytes, 0 allocs\n" +
		"protocols: 2026-07-28\n" +
		"init github.com/x/y @6.9 ms, 6.4 ms clock, 1701144 bytes, 21286 allocs\n" +
		"init unicode @0.91 ms, 0.054 ms clock, 13280 bytes, 20 allocs\n"
	b, a, err := sumInitTrace(trace)
	if err != nil || b != 1701144+13280 || a != 21286+20 {
		t.Errorf("sumInitTrace = %d, %d, %v; want %d, %d", b, a, err, 1701144+13280, 21286+20)
	}
	if _, _, err := sumInitTrace("no trace here"); err == nil {
		t.Error("sumInitTrace of no trace: no error")
	}
}
