package load

import (
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// liveInterval is how often the live view is redrawn: four frames a
// second, each a snapshot of the recorder's counters under its lock and a
// line of text (see BenchmarkLiveFrame for what one costs).
const liveInterval = 250 * time.Millisecond

// sparkWidth is how many intervals the sparkline shows.
const sparkWidth = 16

var sparkRunes = []rune("▁▂▃▄▅▆▇█")

// live is the one-line view a run on a terminal redraws on stderr: a
// progress bar, the throughput so far, and a sparkline of the slowest
// latency of each interval. It is safe for concurrent use; a nil *live
// draws nothing.
type live struct {
	w io.Writer

	mu     sync.Mutex
	drawn  bool
	spark  []float64 // the slowest latency of each interval, ms
	done   chan struct{}
	ended  chan struct{}
	rec    *recorder
	issued *atomic.Int64
	start  time.Time
	from   time.Time
	end    time.Time
}

// liveOutput is where the live view goes: stderr when it is a terminal
// and the report is text (a JSON report is for a program), else nowhere.
func liveOutput(format string, stderr io.Writer, tty func(io.Writer) bool) io.Writer {
	if format == "json" || !tty(stderr) {
		return nil
	}
	return stderr
}

// isTerminal reports whether w is a terminal (a character device that is
// not the null device, with TERM not "dumb").
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok || os.Getenv("TERM") == "dumb" {
		return false
	}
	st, err := f.Stat()
	if err != nil || st.Mode()&os.ModeCharDevice == 0 {
		return false
	}
	if null, err := os.Stat(os.DevNull); err == nil && os.SameFile(st, null) {
		return false
	}
	return true
}

func newLive(w io.Writer) *live {
	if w == nil {
		return nil
	}
	return &live{w: w}
}

// begin starts redrawing rec's figures every liveInterval; issued counts
// the requests sent so far.
func (l *live) begin(rec *recorder, issued *atomic.Int64, start, from, end time.Time) {
	if l == nil {
		return
	}
	l.rec, l.issued, l.start, l.from, l.end = rec, issued, start, from, end
	l.done, l.ended = make(chan struct{}), make(chan struct{})
	go func() {
		defer close(l.ended)
		t := time.NewTicker(liveInterval)
		defer t.Stop()
		for {
			select {
			case <-t.C:
				l.draw(time.Now())
			case <-l.done:
				return
			}
		}
	}()
}

// finish draws the last frame and clears the line, for the report; a
// complete run (not interrupted) is drawn whole, though its last answer
// may have come before the end of its last request's interval.
func (l *live) finish(complete bool) {
	if l == nil || l.done == nil {
		return
	}
	close(l.done)
	<-l.ended
	now := time.Now()
	if complete {
		if now.Before(l.end) {
			now = l.end
		}
	}
	l.draw(now)
	l.clear()
}

// clear erases the view's line (before a note or the report is written).
func (l *live) clear() {
	if l == nil {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.drawn {
		_, _ = io.WriteString(l.w, "\r\x1b[K")
		l.drawn = false
	}
}

// draw redraws the line with the figures at now.
func (l *live) draw(now time.Time) {
	snap := l.rec.snapshot()
	l.mu.Lock()
	defer l.mu.Unlock()
	l.spark = append(l.spark, float64(snap.tickMaxUS)/1000)
	if len(l.spark) > sparkWidth {
		l.spark = l.spark[len(l.spark)-sparkWidth:]
	}
	f := frameFigures{
		elapsed: now.Sub(l.start), total: l.end.Sub(l.start), warmup: now.Before(l.from),
		answered: snap.answered, inFlight: l.issued.Load() - snap.completed, spark: l.spark,
	}
	if d := now.Sub(l.from); d > 0 {
		f.rate = float64(snap.answered) / min(d, l.end.Sub(l.from)).Seconds()
	}
	_, _ = io.WriteString(l.w, "\r"+frame(f)+"\x1b[K")
	l.drawn = true
}

// frameFigures are what one frame shows.
type frameFigures struct {
	elapsed, total time.Duration
	warmup         bool
	answered       int64
	inFlight       int64
	rate           float64 // answers a second over the measured time so far
	spark          []float64
}

// frameWidth bounds a frame, so that it fits an 80-column terminal and
// the carriage return redraws it in place.
const frameWidth = 79

// frame is the view's line: [######------]  50% 5s/10s  300/s  3 in
// flight  max ▁▂▄█ 8.00 ms (the throughput over the measured time so far;
// the sparkline the slowest latency of each interval, the figure the
// last one's).
func frame(f frameFigures) string {
	const width = 12
	frac := 1.0
	if f.total > 0 {
		frac = min(1, max(0, f.elapsed.Seconds()/f.total.Seconds()))
	}
	n := int(frac * width)
	var b strings.Builder
	fmt.Fprintf(&b, "[%s%s] %3.0f%% %s/%s", strings.Repeat("#", n), strings.Repeat("-", width-n), 100*frac,
		f.elapsed.Round(100*time.Millisecond), f.total.Round(100*time.Millisecond))
	if f.warmup {
		b.WriteString("  warm-up")
	} else {
		fmt.Fprintf(&b, "  %.0f/s", f.rate)
	}
	if f.elapsed >= f.total && f.inFlight > 0 {
		fmt.Fprintf(&b, "  draining %d", f.inFlight)
	} else {
		fmt.Fprintf(&b, "  %d in flight", f.inFlight)
	}
	if len(f.spark) > 0 {
		fmt.Fprintf(&b, "  max %s %s ms", sparkline(f.spark), ms(f.spark[len(f.spark)-1]))
	}
	if r := []rune(b.String()); len(r) > frameWidth {
		return string(r[:frameWidth])
	}
	return b.String()
}

// sparkline draws vs, scaled to their largest, one rune each.
func sparkline(vs []float64) string {
	top := 0.0
	for _, v := range vs {
		top = max(top, v)
	}
	out := make([]rune, len(vs))
	for i, v := range vs {
		k := 0
		if top > 0 {
			k = int(v / top * float64(len(sparkRunes)-1))
		}
		out[i] = sparkRunes[max(0, min(k, len(sparkRunes)-1))]
	}
	return string(out)
}
