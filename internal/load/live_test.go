package load

import (
	"bytes"
	"context"
	"io"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mcptui/mcptui/internal/cli"
)

// On a terminal a text run redraws one line on stderr while it runs: a
// progress bar, the throughput so far and a sparkline of each interval's
// slowest latency, at most once a liveInterval, and clears it before the
// report. A JSON report, or a stderr that is no terminal, gets no view.
func TestLiveView(t *testing.T) {
	t.Parallel() // waits on its rates and durations, not on the CPU
	always := func(io.Writer) bool { return true }
	run := func(format string, tty func(io.Writer) bool) (stdout, stderr string, took time.Duration) {
		cfg, err := cli.Parse(append([]string{"load", "call", "work", "--rate", "50", "--duration", "1s", "--warmup", "200ms", "--format", format},
			server("slow", delayEnv+"=5")...))
		if err != nil {
			t.Fatal(err)
		}
		var out, errb bytes.Buffer
		began := time.Now()
		if code := runCommand(context.Background(), cfg, &out, &errb, tty); code != 0 {
			t.Fatalf("exit %d\n%s\n%s", code, out.String(), errb.String())
		}
		return out.String(), errb.String(), time.Since(began)
	}

	stdout, stderr, took := run("text", always)
	frames := strings.Count(stderr, "\r[")
	if frames < 1 {
		t.Fatalf("no live view on a terminal: %q", stderr)
	}
	if most := int(took/liveInterval) + 2; frames > most {
		t.Errorf("%d frames in %s: more than one a %s", frames, took, liveInterval)
	}
	last := stderr[strings.LastIndex(stderr, "\r["):]
	for _, w := range []string{"] 100% ", "/s  0 in flight  max ", " ms\x1b[K"} {
		if !strings.Contains(last, w) {
			t.Errorf("the last frame %q lacks %q", last, w)
		}
	}
	if !strings.ContainsAny(last, string(sparkRunes)) {
		t.Errorf("the last frame %q has no sparkline", last)
	}
	if !strings.HasSuffix(stderr, "\r\x1b[K") {
		t.Errorf("the view is not cleared before the report: %q", stderr[max(0, len(stderr)-80):])
	}
	if !strings.Contains(stdout, "throughput:") || strings.Contains(stdout, "\r") {
		t.Errorf("the report on stdout: %q", stdout)
	}

	if _, stderr, _ := run("json", always); strings.Contains(stderr, "\r") {
		t.Errorf("a JSON run drew the live view: %q", stderr)
	}
	if _, stderr, _ := run("text", isTerminal); strings.Contains(stderr, "\r") {
		t.Errorf("a run whose stderr is no terminal drew the live view: %q", stderr)
	}
}

// A frame is one line: the bar, the share of the run done, the
// throughput, and the sparkline scaled to its slowest interval.
func TestLiveFrame(t *testing.T) {
	got := frame(frameFigures{elapsed: 5 * time.Second, total: 10 * time.Second, answered: 1500, inFlight: 3, rate: 300, spark: []float64{1, 2, 4, 8}})
	want := "[######------]  50% 5s/10s  300/s  3 in flight  max ▁▂▄█ 8.00 ms"
	if got != want {
		t.Errorf("frame\n got %q\nwant %q", got, want)
	}
	long := frame(frameFigures{elapsed: time.Hour, total: time.Hour, rate: 123456, inFlight: 99999, spark: make([]float64, sparkWidth)})
	if n := len([]rune(long)); n > frameWidth {
		t.Errorf("a frame of %d columns: %q", n, long)
	}
	if got := frame(frameFigures{elapsed: time.Second, total: 10 * time.Second, warmup: true}); !strings.Contains(got, "warm-up") {
		t.Errorf("a warm-up frame: %q", got)
	}
	if got := frame(frameFigures{elapsed: 11 * time.Second, total: 10 * time.Second, inFlight: 7}); !strings.Contains(got, "100%") || !strings.Contains(got, "draining 7") {
		t.Errorf("a draining frame: %q", got)
	}
}

// BenchmarkLiveFrame is what one redraw costs: the recorder's snapshot
// (under its lock, which the requests' recording also takes) and the line.
func BenchmarkLiveFrame(b *testing.B) {
	rec := newRecorder(time.Now())
	var issued atomicInt
	l := &live{w: io.Discard, rec: rec, issued: &issued.v, start: time.Now(), from: time.Now(), end: time.Now().Add(time.Minute)}
	for i := range sparkWidth {
		l.spark = append(l.spark, float64(i))
	}
	b.ReportAllocs()
	for b.Loop() {
		l.draw(time.Now())
	}
}

type atomicInt struct{ v atomic.Int64 }
