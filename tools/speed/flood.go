package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// The flood target of issue 33 (item 4): key→screen p99 at most 33 ms,
// and at least 99% of the offered lines ingested, in every run.
const (
	floodTargetP99    = 33 * time.Millisecond
	floodTargetIngest = 99.0
)

// floodTarget is what a flood run must meet, kept in the report so that
// -table counts the runs that met it as the measuring run did.
type floodTarget struct {
	P99      float64 `json:"p99Seconds"`      // key→screen p99 at most this
	Ingested float64 `json:"ingestedPercent"` // of offered, at least this
}

// met says whether the run s met t.
func (t floodTarget) met(s sample) bool {
	return s.KeyP99 > 0 && s.KeyP99 <= t.P99 && s.Ingested >= t.Ingested
}

// floodMarkers are the lines of floodbench's report that parseFlood
// reads: a tree whose floodbench does not print them has no flood case.
var floodMarkers = []string{"% of offered", "key→screen over", "peak RSS"}

// buildFlood builds the tree's tools/floodbench into dir and sets
// b.floodbench. A tree without it, or whose report lacks what the case
// reads (floodMarkers), is left without one (b.floodbench ""), and says
// why; so is an old tree's that does not build. The current tree's
// failing to build is an error.
func buildFlood(ctx context.Context, b *build, dir string) (string, error) {
	src, err := os.ReadFile(filepath.Join(b.src, "tools", "floodbench", "main.go"))
	if err != nil {
		return "no tools/floodbench", nil
	}
	for _, m := range floodMarkers {
		if !strings.Contains(string(src), m) {
			return fmt.Sprintf("its floodbench does not report %q", m), nil
		}
	}
	out := filepath.Join(dir, "floodbench"+exe())
	if err := goCmd(ctx, b.src, "build", "-trimpath", "-o", out, "./tools/floodbench"); err != nil {
		if b.side == oldSide {
			return fmt.Sprintf("its floodbench does not build: %v", err), nil
		}
		return "", fmt.Errorf("building floodbench: %w", err)
	}
	b.floodbench = out
	return "", nil
}

// runFlood runs the build's floodbench at the env's rate for its
// duration and reads its report. Wall, CPU (from the rusage: the
// inspector and the flood server it waited for, start-up included) are
// the whole process's; the peak RSS is the inspector's own (VmHWM, as
// floodbench reports it), not the server's.
func runFlood(e *env, b *build) (sample, error) {
	s, out, err := measure(e.ctx, e.tmp, b.floodbench, "-rate", strconv.Itoa(e.floodRate), "-duration", e.floodDuration.String())
	if err != nil {
		return s, err
	}
	f, err := parseFlood(out)
	if err != nil {
		return s, err
	}
	s.Ingested, s.KeyP50, s.KeyP99, s.KeyMax, s.ProgramCPU = f.Ingested, f.P50, f.P99, f.Max, f.ProgramCPU
	if f.PeakRSS > 0 {
		s.MaxRSS = f.PeakRSS
	}
	return s, nil
}

// floodReport is what parseFlood reads of floodbench's report.
type floodReport struct {
	Ingested      float64 // % of offered
	P50, P99, Max float64 // key→screen, seconds
	// ProgramCPU is the inspector process's CPU in cores over the window
	// (user+sys from its getrusage, the server's apart), where its report
	// has it (0: an older floodbench, which does not). The collector
	// line's "program's own" is not read: runtime/metrics' estimate of the
	// time goroutines held a P, which a busy machine inflates.
	ProgramCPU float64
	PeakRSS    float64 // bytes
}

var (
	floodIngested = regexp.MustCompile(`(?m)^\s*ingested\s.*?([0-9.]+)% of offered`)
	floodKeys     = regexp.MustCompile(`(?m)^\s*key→screen over \d+ presses: p50 (\S+)\s+p99 (\S+)\s+max (\S+)`)
	floodCPU      = regexp.MustCompile(`(?m)^\s*CPU\s+[0-9.]+ s, ([0-9.]+) cores \(the inspector process's`)
	floodRSS      = regexp.MustCompile(`(?m)peak RSS ([0-9]+) kB`)
)

// parseFlood reads floodbench's text report (run with a positive -rate).
func parseFlood(out string) (floodReport, error) {
	var r floodReport
	m := floodIngested.FindStringSubmatch(out)
	if m == nil {
		return r, fmt.Errorf("floodbench: no \"ingested … %% of offered\" line in its report:\n%s", out)
	}
	r.Ingested, _ = strconv.ParseFloat(m[1], 64)
	if m = floodKeys.FindStringSubmatch(out); m == nil {
		return r, fmt.Errorf("floodbench: no key→screen line in its report:\n%s", out)
	}
	for i, p := range []*float64{&r.P50, &r.P99, &r.Max} {
		d, err := time.ParseDuration(m[i+1])
		if err != nil {
			return r, fmt.Errorf("floodbench: key→screen: %w", err)
		}
		*p = d.Seconds()
	}
	if m = floodCPU.FindStringSubmatch(out); m != nil {
		r.ProgramCPU, _ = strconv.ParseFloat(m[1], 64)
	}
	if m = floodRSS.FindStringSubmatch(out); m != nil {
		kb, _ := strconv.ParseFloat(m[1], 64)
		r.PeakRSS = kb * 1024
	}
	return r, nil
}

// floodCase is the flood of issue 33's item 4.
func floodCase() benchCase {
	return benchCase{
		name:   "flood",
		what:   "floodbench: the inspector under a flood of notifications/message (-flood-rate a second for -flood-duration): ingested, key→screen, its CPU",
		has:    func(b *build) bool { return b.floodbench != "" },
		target: &floodTarget{P99: floodTargetP99.Seconds(), Ingested: floodTargetIngest},
		run:    runFlood,
	}
}

// targetRows are the rows a case with a target adds to the table: each
// run's p99, and how many runs met the target, for old and new.
func targetRows(c caseResult) [][2]string {
	t := c.Target
	if t == nil {
		return nil
	}
	p99s := func(ss []sample) string {
		var parts []string
		for _, s := range ss {
			parts = append(parts, strconv.FormatFloat(s.KeyP99*1000, 'f', 1, 64))
		}
		if len(parts) == 0 {
			return "—"
		}
		return strings.Join(parts, ", ") + " ms"
	}
	met := func(ss []sample) string {
		if len(ss) == 0 {
			return "—"
		}
		n := 0
		for _, s := range ss {
			if t.met(s) {
				n++
			}
		}
		return fmt.Sprintf("%d of %d", n, len(ss))
	}
	oldP, oldM := p99s(c.Old), met(c.Old)
	if !c.HasOld {
		oldP, oldM = "—", "—"
	}
	return [][2]string{
		{oldP, p99s(c.New)},
		{oldM, met(c.New)},
	}
}

// targetLabels are targetRows' measures.
func targetLabels(t *floodTarget) [2]string {
	return [2]string{
		"key p99, each run",
		fmt.Sprintf("runs with p99 ≤ %s and ≥ %g%% ingested", human(t.P99, "s"), t.Ingested),
	}
}
