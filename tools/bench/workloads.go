package main

import (
	"context"
	"fmt"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"time"
)

// floodTimeout bounds the call that carries the over-limit line.
const floodTimeout = 3 * time.Minute

// nextCallTimeout bounds the normal call made after the over-limit line.
const nextCallTimeout = 10 * time.Second

// workload is one thing the benchmark measures.
type workload struct {
	name  string // short name used on the command line
	label string // name in the table
	// inFlight is the number of concurrent callers (0: not a call workload).
	inFlight int
	// bytes is the size of the blob response or of the over-limit line.
	bytes int
	kind  workloadKind
}

// workloadKind says how a workload is run.
type workloadKind int

const (
	kindSequential workloadKind = iota + 1
	kindParallel
	kindBlob
	kindFlood
)

// workloads returns the workloads of a full or quick run.
func workloads(quick bool) []workload {
	const mib = 1 << 20
	if quick {
		return []workload{
			{name: "seq", label: "sequential", inFlight: 1, kind: kindSequential},
			{name: "par8", label: "8 in flight", inFlight: 8, kind: kindParallel},
			{name: "par64", label: "64 in flight", inFlight: 64, kind: kindParallel},
			{name: "blob1", label: "1 MiB response", bytes: mib, kind: kindBlob},
			{name: "flood", label: "64 MiB over-limit line", bytes: 64 * mib, kind: kindFlood},
		}
	}
	return []workload{
		{name: "seq", label: "sequential", inFlight: 1, kind: kindSequential},
		{name: "par8", label: "8 in flight", inFlight: 8, kind: kindParallel},
		{name: "par64", label: "64 in flight", inFlight: 64, kind: kindParallel},
		{name: "blob1", label: "1 MiB response", bytes: mib, kind: kindBlob},
		{name: "blob10", label: "10 MiB response", bytes: 10 * mib, kind: kindBlob},
		{name: "blob15", label: "15 MiB response", bytes: 15 * mib, kind: kindBlob},
		{name: "flood", label: "1 GiB over-limit line", bytes: 1 << 30, kind: kindFlood},
	}
}

// findWorkload returns the workload called name.
func findWorkload(name string, quick bool) (workload, error) {
	for _, w := range workloads(quick) {
		if w.name == name {
			return w, nil
		}
	}
	return workload{}, fmt.Errorf("unknown workload %q", name)
}

// measurement is what one worker process measured.
type measurement struct {
	Calls   int     `json:"calls,omitempty"`
	Seconds float64 `json:"seconds"`
	// P50 and P99 are latencies in seconds (sequential only).
	P50 float64 `json:"p50,omitempty"`
	P99 float64 `json:"p99,omitempty"`
	// MallocsPerCall and BytesPerCall are runtime.MemStats deltas divided
	// by the number of calls (sequential only).
	MallocsPerCall float64 `json:"mallocsPerCall,omitempty"`
	BytesPerCall   float64 `json:"bytesPerCall,omitempty"`
	// FloodErr is how the call carrying the over-limit line ended.
	FloodErr string `json:"floodErr,omitempty"`
	// Survived says the normal call after the over-limit line was answered;
	// NextSeconds is how long it took, NextErr why it failed.
	Survived    bool    `json:"survived,omitempty"`
	NextSeconds float64 `json:"nextSeconds,omitempty"`
	NextErr     string  `json:"nextErr,omitempty"`
	// SelfMaxRSSKiB is the worker's own peak RSS (getrusage RUSAGE_SELF),
	// a cross-check of the parent's wait4 figure.
	SelfMaxRSSKiB int64 `json:"selfMaxRSSKiB"`
}

// runWorkload runs w on a connected client.
func runWorkload(ctx context.Context, c client, w workload, calls, warmup int) (measurement, error) {
	switch w.kind {
	case kindSequential:
		return runSequential(ctx, c, calls, warmup)
	case kindParallel:
		return runParallel(ctx, c, w.inFlight, calls, warmup)
	case kindBlob:
		start := time.Now()
		err := c.Blob(ctx, w.bytes)
		return measurement{Calls: 1, Seconds: time.Since(start).Seconds()}, err
	case kindFlood:
		return runFlood(ctx, c, w.bytes), nil
	}
	return measurement{}, fmt.Errorf("workload %q has no kind", w.name)
}

// runSequential makes calls one after the other, timing each, and counts
// the allocations of the whole process over the timed part.
func runSequential(ctx context.Context, c client, calls, warmup int) (measurement, error) {
	for range warmup {
		if err := c.Echo(ctx); err != nil {
			return measurement{}, fmt.Errorf("warmup: %w", err)
		}
	}
	lat := make([]time.Duration, calls)
	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	start := time.Now()
	prev := start
	for i := range calls {
		if err := c.Echo(ctx); err != nil {
			return measurement{}, fmt.Errorf("call %d: %w", i, err)
		}
		now := time.Now()
		lat[i] = now.Sub(prev)
		prev = now
	}
	elapsed := time.Since(start)
	runtime.ReadMemStats(&after)
	slices.Sort(lat)
	return measurement{
		Calls:          calls,
		Seconds:        elapsed.Seconds(),
		P50:            percentile(lat, 0.50).Seconds(),
		P99:            percentile(lat, 0.99).Seconds(),
		MallocsPerCall: float64(after.Mallocs-before.Mallocs) / float64(calls),
		BytesPerCall:   float64(after.TotalAlloc-before.TotalAlloc) / float64(calls),
	}, nil
}

// runParallel makes calls from inFlight goroutines until calls are done.
func runParallel(ctx context.Context, c client, inFlight, calls, warmup int) (measurement, error) {
	run := func(n int) (time.Duration, error) {
		var next atomic.Int64
		var wg sync.WaitGroup
		var once sync.Once
		var first error
		start := time.Now()
		for range inFlight {
			wg.Go(func() {
				for next.Add(1) <= int64(n) {
					if err := c.Echo(ctx); err != nil {
						once.Do(func() { first = err })
						return
					}
				}
			})
		}
		wg.Wait()
		return time.Since(start), first
	}
	if _, err := run(warmup); err != nil {
		return measurement{}, fmt.Errorf("warmup: %w", err)
	}
	runtime.GC()
	elapsed, err := run(calls)
	if err != nil {
		return measurement{}, err
	}
	return measurement{Calls: calls, Seconds: elapsed.Seconds()}, nil
}

// runFlood calls the flood tool, then makes one normal call. A client that
// fails is reported, not treated as an error of the benchmark.
func runFlood(ctx context.Context, c client, n int) measurement {
	var m measurement
	start := time.Now()
	if err := c.Flood(ctx, n); err != nil {
		m.FloodErr = err.Error()
	}
	m.Seconds = time.Since(start).Seconds()
	nctx, cancel := context.WithTimeout(ctx, nextCallTimeout)
	defer cancel()
	start = time.Now()
	err := c.Echo(nctx)
	m.NextSeconds = time.Since(start).Seconds()
	if err != nil {
		m.NextErr = err.Error()
	} else {
		m.Survived = true
	}
	return m
}

// percentile returns the nearest-rank percentile p of sorted durations.
func percentile(sorted []time.Duration, p float64) time.Duration {
	if len(sorted) == 0 {
		return 0
	}
	i := int(p*float64(len(sorted))+0.5) - 1
	i = max(0, min(i, len(sorted)-1))
	return sorted[i]
}
