//go:build unix

package marks

import (
	"encoding/json"
	"fmt"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/mcptui/mcptui/internal/hostprofile"
)

// manyTools are n tools as tools/manytools lists them: a name, a title, a
// description and a small input schema.
func manyTools(n int) []json.RawMessage {
	out := make([]json.RawMessage, n)
	for i := range out {
		out[i], _ = json.Marshal(map[string]any{"name": fmt.Sprintf("tool_%05d", i), "title": "Tool " + strconv.Itoa(i),
			"description": fmt.Sprintf("Does thing number %d to the widget it is given, and says how it went.", i),
			"inputSchema": map[string]any{"type": "object", "properties": map[string]any{"target": map[string]any{"type": "string", "description": "what to work on"}}}})
	}
	return out
}

// cpuTime is the CPU time the process used so far, every thread's: on a
// shared machine the wall time says more of the neighbours than of the
// work.
func cpuTime(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// measure runs f b.N times and reports its CPU time per run.
func measure(b *testing.B, f func()) {
	b.ReportAllocs()
	b.ResetTimer()
	start := cpuTime(b)
	for range b.N {
		f()
	}
	b.ReportMetric(float64((cpuTime(b)-start).Milliseconds())/float64(b.N), "cpu-ms/op")
}

// BenchmarkListMarks is the catalog's marks of a tool list with every
// host and model chosen (mcptui --host all --model all): Rules is what
// the rows' H marks wait for, List adds the context cost of every tool
// (counted afresh), Relisted is List of a list whose tools were counted
// before (a refresh).
func BenchmarkListMarks(b *testing.B) {
	hs, err := hostprofile.ParseHosts("all")
	if err != nil {
		b.Fatal(err)
	}
	ms, err := hostprofile.ParseModels("all")
	if err != nil {
		b.Fatal(err)
	}
	for _, n := range []int{1_000, 50_000} {
		raws := manyTools(n)
		b.Run("Rules/"+strconv.Itoa(n), func(b *testing.B) {
			measure(b, func() {
				cfg := &Config{Hosts: hs, Models: ms}
				if s := cfg.Rules("tools", "2025-11-25", "manytools", raws); len(s.Targets) == 0 {
					b.Fatalf("marks: %+v", s)
				}
			})
		})
		b.Run("List/"+strconv.Itoa(n), func(b *testing.B) {
			measure(b, func() {
				cfg := &Config{Hosts: hs, Models: ms}
				if s := cfg.List("tools", "2025-11-25", "manytools", raws); s.Cost == nil || len(s.Cost.Tools) != n {
					b.Fatalf("marks: %+v", s)
				}
			})
		})
		b.Run("Relisted/"+strconv.Itoa(n), func(b *testing.B) {
			cfg := &Config{Hosts: hs, Models: ms}
			cfg.List("tools", "2025-11-25", "manytools", raws)
			measure(b, func() {
				if s := cfg.List("tools", "2025-11-25", "manytools", raws); s.Cost == nil || len(s.Cost.Tools) != n {
					b.Fatalf("marks: %+v", s)
				}
			})
		})
	}
}
