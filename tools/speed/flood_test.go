package main

import (
	"bytes"
	"context"
	"math"
	"strings"
	"testing"
	"time"
)

// floodOutput is a real floodbench report (-rate 100000 -duration 3s),
// with the CPU line of floodbench's cpuLine (its test holds the same).
const floodOutput = `floodbench: 3.027s of notifications/message at 100000/s, 160x48, history cap 64.0 MiB, GOMAXPROCS 2, memory limit 128.0 MiB, GOGC 33
  offered       100000 lines/s (302699 lines; the server wrote 303003, skipped 0 on a full pipe, 0 while descheduled)
  ingested       99462 lines/s (301070 lines, 99.5% of offered; 0 more dropped by the inbox under load)
  rendered        63.1 frames/s
  key→screen over 186 presses: p50 12.34ms  p99 50.76ms  max 1.2s
  collector       11.9 cycles/s, 183 ms of CPU a second (the program's own: 1390 ms a second)
  CPU       1.63 s, 0.54 cores (the inspector process's user+sys, getrusage; the server's apart)
  heap in use 62 MiB (Go heap of the inspector process), peak RSS 90548 kB
  history   103563 lines kept in 64.0 MiB of its 64.0 MiB cap, 201207 older lines evicted
`

func near(a, b float64) bool { return math.Abs(a-b) <= 1e-9*math.Max(1, math.Abs(b)) }

func TestParseFlood(t *testing.T) {
	r, err := parseFlood(floodOutput)
	if err != nil {
		t.Fatal(err)
	}
	want := floodReport{Ingested: 99.5, P50: 0.01234, P99: 0.05076, Max: 1.2, ProgramCPU: 0.54, PeakRSS: 90548 * 1024}
	if !near(r.Ingested, want.Ingested) || !near(r.P50, want.P50) || !near(r.P99, want.P99) || !near(r.Max, want.Max) ||
		!near(r.ProgramCPU, want.ProgramCPU) || !near(r.PeakRSS, want.PeakRSS) {
		t.Errorf("parseFlood = %+v; want %+v", r, want)
	}
	// Each line the case needs is required.
	for _, line := range []string{"  ingested ", "  key→screen "} {
		var kept []string
		for _, l := range strings.Split(floodOutput, "\n") {
			if !strings.HasPrefix(l, line) {
				kept = append(kept, l)
			}
		}
		if _, err := parseFlood(strings.Join(kept, "\n")); err == nil {
			t.Errorf("a report without its %q line parsed", strings.TrimSpace(line))
		}
	}
	// An older floodbench's, without the CPU line: the rest is read.
	older := strings.Replace(floodOutput, "  CPU ", "  something else ", 1)
	if r, err := parseFlood(older); err != nil || r.ProgramCPU != 0 || !near(r.P99, 0.05076) {
		t.Errorf("parseFlood(a report without the CPU line) = %+v, %v; want no CPU, the rest read", r, err)
	}
	// A report whose latency is not a duration.
	if _, err := parseFlood(strings.Replace(floodOutput, "p99 50.76ms", "p99 fast", 1)); err == nil {
		t.Error("a p99 of \"fast\" parsed")
	}
}

func TestFloodTargetRows(t *testing.T) {
	tg := &floodTarget{P99: 0.033, Ingested: 99}
	c := caseResult{Name: "flood", HasOld: true, Target: tg,
		Old: []sample{
			{KeyP99: 0.0312, Ingested: 99.8}, // met
			{KeyP99: 0.0376, Ingested: 99.9}, // p99 over
		},
		New: []sample{
			{KeyP99: 0.0250, Ingested: 99.0},  // met, at the edge
			{KeyP99: 0.0330, Ingested: 99.5},  // met, at the edge
			{KeyP99: 0.0100, Ingested: 98.99}, // too little ingested
		},
	}
	rows := targetRows(c)
	want := [][2]string{{"31.2, 37.6 ms", "25.0, 33.0, 10.0 ms"}, {"1 of 2", "2 of 3"}}
	if len(rows) != 2 || rows[0] != want[0] || rows[1] != want[1] {
		t.Errorf("targetRows = %q; want %q", rows, want)
	}
	c.HasOld, c.Old = false, nil
	if rows := targetRows(c); rows[0][0] != "—" || rows[1][0] != "—" {
		t.Errorf("targetRows without an old build = %q; want — for old", rows)
	}
	if rows := targetRows(caseResult{Name: "startup"}); rows != nil {
		t.Errorf("targetRows of a case without a target = %q", rows)
	}

	var buf bytes.Buffer
	printTable(&buf, &report{Count: 2, Burners: 2, FloodRate: 100000, FloodDuration: "10s", Cases: []caseResult{{
		Name: "flood", HasOld: true, Target: tg, Old: c.New, New: c.New,
		Medians: map[string][3]float64{"key p99": {0.025, 0.025, 1}, "ingested": {99.5, 99.5, 1}, "inspector CPU": {1.5, 1.2, 0.8}},
	}}})
	for _, w := range []string{
		"2 CPU burners (busy loops) ran through the cases",
		"flood: floodbench -rate 100000 -duration 10s",
		"| key p99 | 25.0 ms | 25.0 ms | 1.00x |",
		"| ingested | 99.5% | 99.5% | 1.00x |",
		"| inspector CPU | 1.50 cores | 1.20 cores | 0.80x |",
		"| key p99, each run | 25.0, 33.0, 10.0 ms | 25.0, 33.0, 10.0 ms |  |",
		"| runs with p99 ≤ 33.0 ms and ≥ 99% ingested | 2 of 3 | 2 of 3 |  |",
	} {
		if !strings.Contains(buf.String(), w) {
			t.Errorf("the table lacks %q:\n%s", w, buf.String())
		}
	}
}

func TestFloodCaseListed(t *testing.T) {
	got, err := pick(allCases(), "flood")
	if err != nil || len(got) != 1 {
		t.Fatalf("pick(flood) = %v, %v", got, err)
	}
	c := got[0]
	if c.target == nil || c.target.P99 != floodTargetP99.Seconds() || c.target.Ingested != 99 {
		t.Errorf("the flood case's target = %+v; want p99 ≤ 33 ms and ≥ 99%% ingested", c.target)
	}
	if c.has(&build{}) || !c.has(&build{floodbench: "/x/floodbench"}) {
		t.Error("the flood case must be a build's only when it has a floodbench")
	}
	if !hasCase(got, "flood") || hasCase(got, "startup") || needsRecordings(got) {
		t.Error("hasCase/needsRecordings of the flood case alone")
	}
}

// fakeFloodbench is a floodbench that prints floodOutput once given the
// -rate and -duration the case passes (and fails otherwise).
const fakeFloodbench = `package main

import (
	"flag"
	"fmt"
	"os"
	"time"
)

func main() {
	rate := flag.Int("rate", 0, "")
	duration := flag.Duration("duration", 0, "")
	flag.Parse()
	if *rate != 12345 || *duration != 1500*time.Millisecond {
		fmt.Fprintln(os.Stderr, "wrong flags", *rate, *duration)
		os.Exit(1)
	}
	fmt.Print(report)
}

const report = ` + "`" + floodOutput + "`\n"

// TestBuildFlood: a tree without floodbench, or whose floodbench does
// not print what the case reads, has no flood case (old: listed as new
// only); one that has it is built, run with the case's rate and duration,
// and its report read.
func TestBuildFlood(t *testing.T) {
	t.Setenv("GOWORK", "off")
	t.Setenv("GOFLAGS", "")
	ctx := context.Background()
	mod := "module example.com/m\n\ngo 1.22\n"

	b := &build{side: oldSide, src: writeTree(t, map[string]string{"go.mod": mod})}
	why, err := buildFlood(ctx, b, t.TempDir())
	if err != nil || why == "" || b.floodbench != "" {
		t.Errorf("a tree without floodbench: %q, %v, %q; want a reason and no floodbench", why, err, b.floodbench)
	}
	older := strings.Replace(fakeFloodbench, "% of offered", " of offered", 1)
	b = &build{side: oldSide, src: writeTree(t, map[string]string{"go.mod": mod, "tools/floodbench/main.go": older})}
	why, err = buildFlood(ctx, b, t.TempDir())
	if err != nil || !strings.Contains(why, "% of offered") || b.floodbench != "" {
		t.Errorf("a floodbench without the ingested share: %q, %v, %q; want a reason and no floodbench", why, err, b.floodbench)
	}
	broken := map[string]string{"go.mod": mod, "tools/floodbench/main.go": fakeFloodbench + "\nfunc broken() { undefined() }\n"}
	b = &build{side: oldSide, src: writeTree(t, broken)}
	if why, err = buildFlood(ctx, b, t.TempDir()); err != nil || why == "" || b.floodbench != "" {
		t.Errorf("an old floodbench that does not build: %q, %v; want a reason, no error", why, err)
	}
	b = &build{side: newSide, src: writeTree(t, broken)}
	if _, err = buildFlood(ctx, b, t.TempDir()); err == nil {
		t.Error("the new tree's floodbench does not build, and no error")
	}

	b = &build{side: newSide, src: writeTree(t, map[string]string{"go.mod": mod, "tools/floodbench/main.go": fakeFloodbench})}
	if why, err := buildFlood(ctx, b, t.TempDir()); err != nil || why != "" || b.floodbench == "" {
		t.Fatalf("buildFlood = %q, %v (floodbench %q)", why, err, b.floodbench)
	}
	e := &env{ctx: ctx, tmp: t.TempDir(), floodRate: 12345, floodDuration: 1500 * time.Millisecond}
	s, err := runFlood(e, b)
	if err != nil {
		t.Fatal(err)
	}
	if !near(s.KeyP99, 0.05076) || !near(s.Ingested, 99.5) || !near(s.MaxRSS, 90548*1024) || !near(s.ProgramCPU, 0.54) || s.Wall <= 0 {
		t.Errorf("runFlood = %+v", s)
	}
}
