package main

import (
	"context"
	"fmt"
	"runtime"
	"runtime/metrics"
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

// httpWorkloads returns the workloads of an HTTP run: sequential calls, 64
// in flight and one 15 MiB response (1 MiB in a quick run).
func httpWorkloads(quick bool) []workload {
	var out []workload
	for _, w := range workloads(quick) {
		switch w.name {
		case "seq", "par64", "blob1":
			if w.name != "blob1" || quick {
				out = append(out, w)
			}
		case "blob15":
			out = append(out, w)
		}
	}
	return out
}

// workloadsOf returns the default workloads of a transport.
func workloadsOf(transport string, quick bool) []workload {
	if transport == transportHTTP {
		return httpWorkloads(quick)
	}
	return workloads(quick)
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
	// P50 and P99 are latencies in seconds (call workloads only).
	P50 float64 `json:"p50,omitempty"`
	P99 float64 `json:"p99,omitempty"`
	// MallocsPerCall and BytesPerCall are runtime.MemStats deltas divided
	// by the number of calls (sequential only).
	MallocsPerCall float64 `json:"mallocsPerCall,omitempty"`
	BytesPerCall   float64 `json:"bytesPerCall,omitempty"`
	// AllocBytes is the bytes the process allocated during a blob call
	// (runtime.MemStats TotalAlloc delta), PeakHeapBytes the largest heap
	// (live and unswept objects) sampled every millisecond during it.
	AllocBytes    float64 `json:"allocBytes,omitempty"`
	PeakHeapBytes float64 `json:"peakHeapBytes,omitempty"`
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
		return runBlob(ctx, c, w.bytes)
	case kindFlood:
		return runFlood(ctx, c, w.bytes), nil
	}
	return measurement{}, fmt.Errorf("workload %q has no kind", w.name)
}

// runSequential makes calls one after the other, timing each, and counts
// the allocations of the whole process over the timed part.
func runSequential(ctx context.Context, c client, calls, warmup int) (measurement, error) {
	for i := range warmup {
		if err := c.Echo(ctx, int64(i)); err != nil {
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
		if err := c.Echo(ctx, int64(warmup+i)); err != nil {
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

// runParallel makes calls from inFlight goroutines until calls are done,
// timing each call.
func runParallel(ctx context.Context, c client, inFlight, calls, warmup int) (measurement, error) {
	run := func(n int) (time.Duration, []time.Duration, error) {
		var next atomic.Int64
		var wg sync.WaitGroup
		var once sync.Once
		var first error
		lats := make([][]time.Duration, inFlight)
		start := time.Now()
		for g := range inFlight {
			lat := make([]time.Duration, 0, n/inFlight+1)
			wg.Go(func() {
				defer func() { lats[g] = lat }()
				for {
					seq := next.Add(1)
					if seq > int64(n) {
						return
					}
					t := time.Now()
					if err := c.Echo(ctx, seq); err != nil {
						once.Do(func() { first = fmt.Errorf("call %d: %w", seq, err) })
						return
					}
					lat = append(lat, time.Since(t))
				}
			})
		}
		wg.Wait()
		elapsed := time.Since(start)
		var all []time.Duration
		for _, l := range lats {
			all = append(all, l...)
		}
		if first == nil && len(all) != n {
			first = fmt.Errorf("%d of %d calls answered", len(all), n)
		}
		return elapsed, all, first
	}
	if _, _, err := run(warmup); err != nil {
		return measurement{}, fmt.Errorf("warmup: %w", err)
	}
	runtime.GC()
	elapsed, lat, err := run(calls)
	if err != nil {
		return measurement{}, err
	}
	slices.Sort(lat)
	return measurement{Calls: calls, Seconds: elapsed.Seconds(),
		P50: percentile(lat, 0.50).Seconds(), P99: percentile(lat, 0.99).Seconds()}, nil
}

// runBlob makes one blob call, measuring the bytes the process allocated
// during it and the peak of its live heap.
func runBlob(ctx context.Context, c client, n int) (measurement, error) {
	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	peak := watchHeap()
	start := time.Now()
	err := c.Blob(ctx, n)
	elapsed := time.Since(start)
	heap := peak()
	runtime.ReadMemStats(&after)
	return measurement{Calls: 1, Seconds: elapsed.Seconds(),
		AllocBytes: float64(after.TotalAlloc - before.TotalAlloc), PeakHeapBytes: float64(heap)}, err
}

// heapMetric is the runtime metric of the bytes held by heap objects, live
// or not yet swept: what the heap weighs at the moment it is read.
const heapMetric = "/memory/classes/heap/objects:bytes"

// watchHeap samples the heap every millisecond until the returned function
// is called, which reports the largest sample (and the heap at that moment).
func watchHeap() func() uint64 {
	sample := []metrics.Sample{{Name: heapMetric}}
	read := func() uint64 {
		metrics.Read(sample)
		if sample[0].Value.Kind() != metrics.KindUint64 {
			return 0
		}
		return sample[0].Value.Uint64()
	}
	var peak atomic.Uint64
	peak.Store(read())
	stop := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		local := []metrics.Sample{{Name: heapMetric}}
		t := time.NewTicker(time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-stop:
				return
			case <-t.C:
				metrics.Read(local)
				if v := local[0].Value.Uint64(); v > peak.Load() {
					peak.Store(v)
				}
			}
		}
	}()
	return func() uint64 {
		close(stop)
		<-done
		if v := read(); v > peak.Load() {
			peak.Store(v)
		}
		return peak.Load()
	}
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
	err := c.Echo(nctx, 1)
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
