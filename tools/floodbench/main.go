// Command floodbench measures the inspector under a flood: it runs the real
// program (ui.Model on a real session, with the catalog, output to a
// counting writer instead of a terminal) against a server that floods
// notifications/message, and reports how many lines per second the UI
// ingested, how long a key takes to reach the screen (p50, p99), the Go
// heap and the peak RSS. With -typing it times typing instead: keystrokes
// in the composer and in a form field of the catalog, and a 1,000-character
// paste, idle (-rate -1) or under the flood. The server is floodbench
// itself, re-executed with -serve.
//
//	go run ./tools/floodbench -rate 100000 -duration 10s
//	go run ./tools/floodbench -typing -rate -1
package main

import (
	"flag"
	"fmt"
	"os"
	"runtime"
	"runtime/pprof"
	"runtime/trace"
	"slices"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/mcptui/mcptui/model"
	"github.com/mcptui/mcptui/ui"
)

func main() {
	serve := flag.Bool("serve", false, "run as the flooding MCP server (internal)")
	stats := flag.String("stats", "", "with -serve, keep the flood's counters in this file (internal)")
	rate := flag.Int("rate", 100_000, "notifications per second the server sends (0: as fast as the pipe takes them; -1: none)")
	duration := flag.Duration("duration", 10*time.Second, "how long to flood and measure")
	samples := flag.Int("keys", 200, "key presses to time")
	history := flag.Int("history-bytes", model.DefaultHistoryBytes, "the inspector's history cap")
	memprofile := flag.String("memprofile", "", "write a heap profile here at the end")
	batch := flag.Int("batch", 0, "the inbox's largest batch (0: its default)")
	old := flag.Bool("old-limits", false, "use the memory budget and inbox limits from before they followed the history cap, to compare")
	cpuprofile := flag.String("cpuprofile", "", "write a CPU profile of the measurement here")
	memLimit := flag.Int64("memory-limit", 0, "the Go memory limit in bytes (0: model.MemoryBudget of the cap, as mcptui sets it)")
	gcPercent := flag.Int("gc-percent", 0, "the collector's GOGC (0: model.GCPercent, as mcptui sets it)")
	typing := flag.Bool("typing", false, "time typing and pasting in the composer and a form field instead")
	keyPasteToo := flag.Bool("key-paste", true, "with -typing, also type the paste as 1,000 key presses")
	frameGap := flag.Duration("frame-gap", ui.DefaultFrameGap, "the UI's view coalescing (ui.Options.FrameGap; 0: a view after every message)")
	budget := flag.Duration("fold-budget", ui.DefaultFoldBudget, "the most time one Update folds events (ui.Options.FoldBudget; 0: a whole batch at once)")
	fps := flag.Int("fps", ui.RendererFPS, "the renderer's frames per second (tea.WithFPS; mcptui's is ui.RendererFPS, Bubble Tea's default 60)")
	traceFile := flag.String("trace", "", "write an execution trace of the whole run here (go tool trace)")
	explainSlow := flag.Duration("explain", 0, "log the program's work, and break the presses slower than this down (0: no log)")
	flag.Parse()
	if *serve {
		os.Exit(floodServer(*rate, *stats))
	}
	if *cpuprofile != "" {
		f, err := os.Create(*cpuprofile)
		if err == nil {
			_ = pprof.StartCPUProfile(f)
			defer pprof.StopCPUProfile()
		}
	}
	if *traceFile != "" {
		f, err := os.Create(*traceFile)
		if err == nil {
			_ = trace.Start(f)
			defer trace.Stop()
		}
	}
	cfg := config{rate: *rate, history: *history, batch: *batch, old: *old, memLimit: *memLimit, gcPercent: *gcPercent, frameGap: *frameGap, budget: *budget, fps: *fps, explain: *explainSlow > 0}
	var err error
	if *typing {
		err = runTyping(cfg, *samples, *keyPasteToo)
	} else {
		err = run(cfg, *duration, *samples, *memprofile, *explainSlow)
	}
	if err != nil {
		pprof.StopCPUProfile()
		trace.Stop()
		fmt.Fprintln(os.Stderr, "floodbench:", err)
		os.Exit(1)
	}
}

// writeHeap writes a heap profile to path.
func writeHeap(path string) {
	f, err := os.Create(path)
	if err != nil {
		fmt.Fprintln(os.Stderr, "floodbench:", err)
		return
	}
	defer f.Close()
	runtime.GC()
	if err := pprof.WriteHeapProfile(f); err != nil {
		fmt.Fprintln(os.Stderr, "floodbench:", err)
	}
}

// peakRSS is the process's resident-set high-water mark (VmHWM), or "?"
// where /proc does not tell it.
func peakRSS() string {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return "?"
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			return strings.TrimSpace(v)
		}
	}
	return "?"
}

// cpuLine is the report's line of the CPU the inspector's process used
// over the window (its own, from getrusage: the server's is not in it).
// The collector line's figures are runtime/metrics' estimates of the time
// goroutines held a P, which a busy machine inflates (a P is held while
// its thread waits for a core): this one is the kernel's count.
func cpuLine(cpu float64, elapsed time.Duration) string {
	return fmt.Sprintf("  CPU       %.2f s, %.2f cores (the inspector process's user+sys, getrusage; the server's apart)", cpu, cpu/elapsed.Seconds())
}

// percentiles reports p50, p99 and the max of lat (sorted in place).
func percentiles(lat []time.Duration) string {
	slices.Sort(lat)
	pct := func(q float64) time.Duration {
		if len(lat) == 0 {
			return 0
		}
		return lat[min(int(q*float64(len(lat))), len(lat)-1)].Round(10 * time.Microsecond)
	}
	return fmt.Sprintf("p50 %v  p99 %v  max %v", pct(0.50), pct(0.99), pct(1))
}

// rateName says what the server sends.
func rateName(rate int) string {
	switch {
	case rate < 0:
		return "no notifications (idle)"
	case rate == 0:
		return "notifications/message as fast as the pipe takes them"
	}
	return fmt.Sprintf("notifications/message at %d/s", rate)
}

// waitFlood waits for the flood to start (nothing, when there is none).
func waitFlood(i *inspector, rate int) error {
	if rate < 0 {
		return nil
	}
	start := time.Now()
	for i.be.lines.Load() < 1000 {
		if time.Since(start) > 30*time.Second {
			return fmt.Errorf("the flood never started (%d lines)", i.be.lines.Load())
		}
		time.Sleep(10 * time.Millisecond)
	}
	return nil
}

// run floods the inspector for duration, pressing keys at a steady pace.
func run(cfg config, duration time.Duration, samples int, memprofile string, explainSlow time.Duration) error {
	i, err := start(cfg)
	if err != nil {
		return err
	}
	defer i.quit()
	if err := waitFlood(i, cfg.rate); err != nil {
		return err
	}
	t0, lines0, lost0, frames0 := time.Now(), i.be.lines.Load(), i.be.lost.Load(), i.out.frames.Load()
	server0, _ := readFloodStats(i.statsPath)
	gc0 := readGC()
	cpu0, cpuOK := selfCPU()
	var lat []time.Duration
	var recs []pressRecord
	stop := time.After(duration)
	stopped := false
	pace := time.NewTicker(duration / time.Duration(max(samples, 1)))
	defer pace.Stop()
loop:
	for len(lat) < samples {
		select {
		case <-stop:
			stopped = true
			break loop
		case <-pace.C:
		}
		// Open the help, then close it: two presses, each timed from
		// the send to the frame that shows it.
		for _, k := range []tea.KeyPressMsg{{Code: '?', Text: "?"}, {Code: tea.KeyEscape}} {
			var gc0 gcSample
			if cfg.explain {
				gc0 = readGC()
			}
			sent := time.Now()
			d, err := i.press(k)
			if err != nil {
				return err
			}
			lat = append(lat, d)
			if cfg.explain {
				recs = append(recs, pressRecord{sent: sent, drawn: sent.Add(d), gc0: gc0, gc1: readGC(), spans: i.out.log.within(sent, sent.Add(d))})
			}
		}
	}
	if !stopped {
		<-stop
	}
	elapsed := time.Since(t0)
	lines, lost, frames := i.be.lines.Load()-lines0, i.be.lost.Load()-lost0, i.out.frames.Load()-frames0
	server1, _ := readFloodStats(i.statsPath)
	gc1 := readGC()
	cpu1, _ := selfCPU()

	if memprofile != "" {
		writeHeap(memprofile)
	}
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	fmt.Printf("floodbench: %s of %s, 160x48, history cap %s, GOMAXPROCS %d, memory limit %s, GOGC %d\n",
		elapsed.Round(time.Millisecond), rateName(cfg.rate), model.FormatSize(cfg.history), runtime.GOMAXPROCS(0), model.FormatSize(int(i.budget)), i.gcPercent)
	if cfg.rate > 0 {
		// Offered is the schedule over the window, less what the server
		// skipped while it was not running itself; what it skipped on a full
		// pipe, or still owes at the end, is the inspector's shortfall.
		late := server1.Late - server0.Late
		offered := int64(float64(cfg.rate)*elapsed.Seconds()) - late
		fmt.Printf("  offered   %10.0f lines/s (%d lines; the server wrote %d, skipped %d on a full pipe, %d while descheduled)\n",
			float64(offered)/elapsed.Seconds(), offered, server1.Sent-server0.Sent, server1.Blocked-server0.Blocked, late)
		fmt.Printf("  ingested  %10.0f lines/s (%d lines, %.1f%% of offered; %d more dropped by the inbox under load)\n",
			float64(lines)/elapsed.Seconds(), lines, 100*float64(lines)/float64(max(offered, 1)), lost)
	} else {
		fmt.Printf("  ingested  %10.0f lines/s (%d lines; %d more dropped by the inbox under load)\n", float64(lines)/elapsed.Seconds(), lines, lost)
	}
	fmt.Printf("  rendered  %10.1f frames/s\n", float64(frames)/elapsed.Seconds())
	fmt.Printf("  key→screen over %d presses: %s\n", len(lat), percentiles(lat))
	fmt.Printf("  collector %10.1f cycles/s, %.0f ms of CPU a second (the program's own: %.0f ms a second)\n",
		float64(gc1.cycles-gc0.cycles)/elapsed.Seconds(), 1000*(gc1.gcCPU-gc0.gcCPU)/elapsed.Seconds(), 1000*(gc1.userCPU-gc0.userCPU)/elapsed.Seconds())
	if cpuOK {
		fmt.Println(cpuLine(cpu1-cpu0, elapsed))
	}
	fmt.Printf("  heap in use %d MiB (Go heap of the inspector process), peak RSS %s\n", ms.HeapInuse>>20, peakRSS())
	if cfg.explain {
		explain(os.Stdout, recs, explainSlow)
	}
	if h := i.quit(); h != nil {
		fmt.Printf("  history   %d lines kept in %s of its %s cap, %d older lines evicted\n",
			h.Len(), model.FormatSize(h.Bytes()), model.FormatSize(cfg.history), h.Evicted())
	}
	return nil
}
