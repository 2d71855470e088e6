package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
)

// serverPath is the bench server built once for the tests and benchmarks.
var serverPath string

// TestMain turns the test binary into a worker when the benchmark driver
// re-executes it, and otherwise builds the server once.
func TestMain(m *testing.M) {
	maybeWorker()
	dir, err := os.MkdirTemp("", "mcpbench-test-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	serverPath, err = buildServer(context.Background(), dir)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.RemoveAll(dir)
		os.Exit(1)
	}
	code := m.Run()
	stopTestHTTP()
	os.RemoveAll(dir)
	os.Exit(code)
}

// TestQuickRun runs the benchmark program's quick mode on conn and the
// ceiling, as `go run . -quick -clients conn,ceiling` would, and checks that
// every workload produced a number.
func TestQuickRun(t *testing.T) {
	out := filepath.Join(t.TempDir(), "latest.md")
	cfg, path, err := parseFlags([]string{"-quick", "-clients", "conn,ceiling", "-server", serverPath, "-out", out}, testWriter{t})
	if err != nil {
		t.Fatal(err)
	}
	var stdout strings.Builder
	if err := run(context.Background(), cfg, path, &stdout); err != nil {
		t.Fatal(err)
	}
	md, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if string(md) != stdout.String() {
		t.Errorf("the report on stdout and in %s differ", out)
	}
	report := string(md)
	if strings.Contains(report, "### Failures") {
		t.Errorf("some runs failed:\n%s", report)
	}
	for _, want := range []string{"| mcptui conn |", "| hand-written ceiling |", "survived (1/1)", "64 in flight"} {
		if !strings.Contains(report, want) {
			t.Errorf("the report lacks %q:\n%s", want, report)
		}
	}
}

// testWriter sends the driver's progress lines to the test log.
type testWriter struct{ t *testing.T }

// Write implements io.Writer.
func (w testWriter) Write(p []byte) (int, error) {
	w.t.Log(strings.TrimRight(string(p), "\n"))
	return len(p), nil
}

// BenchmarkConnSequential measures one tools/call echo at a time over conn.
func BenchmarkConnSequential(b *testing.B) { benchSequential(b, dialConn) }

// BenchmarkConnParallel measures tools/call echo from 64 goroutines (on two
// cores) sharing one conn.
func BenchmarkConnParallel(b *testing.B) { benchParallel(b, dialConn) }

// BenchmarkCeilingSequential is BenchmarkConnSequential for the ceiling.
func BenchmarkCeilingSequential(b *testing.B) { benchSequential(b, dialCeiling) }

// BenchmarkCeilingParallel is BenchmarkConnParallel for the ceiling.
func BenchmarkCeilingParallel(b *testing.B) { benchParallel(b, dialCeiling) }

// BenchmarkConnBlob15MiB measures one 15 MiB response over conn.
func BenchmarkConnBlob15MiB(b *testing.B) { benchBlob(b, dialConn, 15<<20) }

// BenchmarkCeilingBlob15MiB is BenchmarkConnBlob15MiB for the ceiling.
func BenchmarkCeilingBlob15MiB(b *testing.B) { benchBlob(b, dialCeiling, 15<<20) }

// dialBench connects a client to a fresh stdio server for a benchmark.
func dialBench(b *testing.B, dial dialer) client {
	b.Helper()
	return dialBenchTo(b, dial, serverPath)
}

// dialBenchTo connects a client to target (a stdio server's path or an
// HTTP server's URL).
func dialBenchTo(b *testing.B, dial dialer, target string) client {
	b.Helper()
	c, err := dial(context.Background(), target)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { c.Close() })
	return c
}

// benchSequential makes b.N calls one after the other.
func benchSequential(b *testing.B, dial dialer) { benchSequentialOn(b, dialBench(b, dial)) }

// benchSequentialOn makes b.N calls one after the other on c.
func benchSequentialOn(b *testing.B, c client) {
	ctx := context.Background()
	b.ReportAllocs()
	var seq int64
	for b.Loop() {
		seq++
		if err := c.Echo(ctx, seq); err != nil {
			b.Fatal(err)
		}
	}
}

// benchParallel makes b.N calls from 32 goroutines per GOMAXPROCS.
func benchParallel(b *testing.B, dial dialer) { benchParallelOn(b, dialBench(b, dial)) }

// benchParallelOn makes b.N calls from 32 goroutines per GOMAXPROCS on c.
func benchParallelOn(b *testing.B, c client) {
	ctx := context.Background()
	b.ReportAllocs()
	b.SetParallelism(32)
	b.ResetTimer()
	var seq atomic.Int64
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			if err := c.Echo(ctx, seq.Add(1)); err != nil {
				b.Error(err)
				return
			}
		}
	})
}

// benchBlob fetches one n-byte response per iteration.
func benchBlob(b *testing.B, dial dialer, n int) { benchBlobOn(b, dialBench(b, dial), n) }

// benchBlobOn fetches one n-byte response per iteration on c.
func benchBlobOn(b *testing.B, c client, n int) {
	ctx := context.Background()
	b.ReportAllocs()
	b.SetBytes(int64(n))
	for b.Loop() {
		if err := c.Blob(ctx, n); err != nil {
			b.Fatal(err)
		}
	}
}
