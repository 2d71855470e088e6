// Command floodbench measures the inspector under a flood: it runs the real
// program (ui.Model on a real session, output to a counting writer instead
// of a terminal) against a server that floods notifications/message, and
// reports how many lines per second the UI ingested and how long a key
// takes to reach the screen (p50, p99). The server is floodbench itself,
// re-executed with -serve.
//
//	go run ./tools/floodbench -rate 100000 -duration 10s
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"runtime"
	"runtime/debug"
	"runtime/pprof"
	"slices"
	"strings"
	"sync/atomic"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"

	"github.com/mcptui/mcptui/internal/backend"
	"github.com/mcptui/mcptui/internal/session"
	"github.com/mcptui/mcptui/internal/session/inbox"
	"github.com/mcptui/mcptui/mcp"
	"github.com/mcptui/mcptui/model"
	"github.com/mcptui/mcptui/ui"
)

func main() {
	serve := flag.Bool("serve", false, "run as the flooding MCP server (internal)")
	rate := flag.Int("rate", 100_000, "notifications per second the server sends (0: as fast as the pipe takes them)")
	duration := flag.Duration("duration", 10*time.Second, "how long to flood and measure")
	samples := flag.Int("keys", 200, "key presses to time")
	history := flag.Int("history-bytes", model.DefaultHistoryBytes, "the inspector's history cap")
	memprofile := flag.String("memprofile", "", "write a heap profile here at the end")
	batch := flag.Int("batch", 0, "the inbox's largest batch (0: its default)")
	old := flag.Bool("old-limits", false, "use the memory budget and inbox limits from before they followed the history cap, to compare")
	cpuprofile := flag.String("cpuprofile", "", "write a CPU profile of the measurement here")
	flag.Parse()
	if *cpuprofile != "" && !*serve {
		f, err := os.Create(*cpuprofile)
		if err == nil {
			_ = pprof.StartCPUProfile(f)
			defer pprof.StopCPUProfile()
		}
	}
	if *serve {
		os.Exit(floodServer(*rate))
	}
	if err := run(*rate, *duration, *samples, *history, *batch, *memprofile, *old); err != nil {
		pprof.StopCPUProfile()
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

// counting is a Backend that counts the lines it hands to the UI.
type counting struct {
	*session.Session
	lines, lost atomic.Int64
}

func (c *counting) Next(ctx context.Context) ([]model.Event, error) {
	evs, err := c.Session.Next(ctx)
	for _, ev := range evs {
		switch e := ev.(type) {
		case model.Wire:
			if e.Lost {
				c.lost.Add(1)
			} else {
				c.lines.Add(1)
			}
		case model.Lost:
			c.lost.Add(int64(e.N))
		}
	}
	return evs, err
}

var _ backend.Backend = (*counting)(nil)

// screen is the program's output: it counts frames, and stamps the first
// frame written after a key press was handled and drawn into a view.
type screen struct {
	frames atomic.Int64
	viewed atomic.Bool // a view with the key's effect waits to be written
	drawn  chan time.Time
}

func (s *screen) Write(p []byte) (int, error) {
	s.frames.Add(1)
	if s.viewed.CompareAndSwap(true, false) {
		s.drawn <- time.Now()
	}
	return len(p), nil
}

// timed wraps the program's model: once a key press is handled, the next
// view holds its effect, and the next frame written shows it.
type timed struct {
	tea.Model
	out     *screen
	pending bool // touched only by the program's goroutine
}

func (t *timed) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	m, cmd := t.Model.Update(msg)
	t.Model = m
	if _, ok := msg.(tea.KeyPressMsg); ok {
		t.pending = true
	}
	return t, cmd
}

func (t *timed) View() tea.View {
	v := t.Model.View()
	if t.pending {
		t.pending = false
		t.out.viewed.Store(true)
	}
	return v
}

func run(rate int, duration time.Duration, samples, history, batch int, memprofile string, old bool) error {
	exe, err := os.Executable()
	if err != nil {
		return err
	}
	// As mcptui does.
	budget := model.MemoryBudget(history)
	if old {
		budget = 3*int64(history) + 256<<20
	}
	debug.SetMemoryLimit(budget)
	lim := inbox.LimitsFor(history)
	lim.MaxBatch = batch
	if old {
		// The limits before they followed the history cap.
		lim = inbox.Limits{MaxEvents: 1 << 16, MaxBytes: 64 << 20, MaxBatch: batch}
	}
	in := inbox.New(lim)
	sess, err := session.Start(context.Background(), session.Config{
		Command: exe,
		Args:    []string{"-serve", "-rate", fmt.Sprint(rate)},
		MCP:     mcp.Options{Versions: []string{mcp.Version20251125}},
		Inbox:   in,
	})
	if err != nil {
		return err
	}
	be := &counting{Session: sess}
	out := &screen{drawn: make(chan time.Time, 1)}
	m := &timed{Model: ui.New(ui.Options{Backend: be, Session: model.New(model.Config{HistoryBytes: history}), Theme: "dark", NoBell: true}), out: out}
	p := tea.NewProgram(m, tea.WithInput(nil), tea.WithOutput(out), tea.WithoutSignals(),
		tea.WithWindowSize(160, 48), tea.WithColorProfile(colorprofile.TrueColor), tea.WithEnvironment([]string{"TERM=xterm-256color"}))
	done := make(chan struct{})
	var final tea.Model
	go func() {
		final, _ = p.Run()
		close(done)
	}()
	p.Send(tea.WindowSizeMsg{Width: 160, Height: 48})
	quit := func() *model.History {
		p.Send(tea.KeyPressMsg{Code: 'q', Text: "q"})
		<-done
		_ = sess.Shutdown(context.Background())
		in.Close()
		if t, ok := final.(*timed); ok {
			return t.Model.(*ui.Model).Session().History()
		}
		return nil
	}
	quitted := false
	defer func() {
		if !quitted {
			quit()
		}
	}()

	// Wait for the flood to start.
	start := time.Now()
	for be.lines.Load() < 1000 {
		if time.Since(start) > 30*time.Second {
			return fmt.Errorf("the flood never started (%d lines)", be.lines.Load())
		}
		time.Sleep(10 * time.Millisecond)
	}

	t0, lines0, lost0, frames0 := time.Now(), be.lines.Load(), be.lost.Load(), out.frames.Load()
	var lat []time.Duration
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
			sent := time.Now()
			p.Send(k)
			select {
			case at := <-out.drawn:
				lat = append(lat, at.Sub(sent))
			case <-time.After(10 * time.Second):
				return fmt.Errorf("no frame within 10 s of a key press")
			}
		}
	}
	if !stopped {
		<-stop
	}
	elapsed := time.Since(t0)
	lines, lost, frames := be.lines.Load()-lines0, be.lost.Load()-lost0, out.frames.Load()-frames0

	if memprofile != "" {
		writeHeap(memprofile)
	}
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	slices.Sort(lat)
	pct := func(q float64) time.Duration {
		if len(lat) == 0 {
			return 0
		}
		return lat[min(int(q*float64(len(lat))), len(lat)-1)]
	}
	target := "as fast as the pipe takes them"
	if rate > 0 {
		target = fmt.Sprintf("%d/s", rate)
	}
	fmt.Printf("floodbench: %s of notifications/message at %s, 160x48, history cap %s, GOMAXPROCS %d, memory limit %s\n",
		elapsed.Round(time.Millisecond), target, model.FormatSize(history), runtime.GOMAXPROCS(0), model.FormatSize(int(budget)))
	fmt.Printf("  ingested  %10.0f lines/s (%d lines; %d more dropped by the inbox under load)\n", float64(lines)/elapsed.Seconds(), lines, lost)
	fmt.Printf("  rendered  %10.1f frames/s\n", float64(frames)/elapsed.Seconds())
	fmt.Printf("  key→screen over %d presses: p50 %v  p99 %v  max %v\n", len(lat), pct(0.50).Round(10*time.Microsecond),
		pct(0.99).Round(10*time.Microsecond), pct(1).Round(10*time.Microsecond))
	fmt.Printf("  heap in use %d MiB (Go heap of the inspector process), peak RSS %s\n", ms.HeapInuse>>20, peakRSS())
	quitted = true
	if h := quit(); h != nil {
		fmt.Printf("  history   %d lines kept in %s of its %s cap, %d older lines evicted\n",
			h.Len(), model.FormatSize(h.Bytes()), model.FormatSize(history), h.Evicted())
	}
	return nil
}
