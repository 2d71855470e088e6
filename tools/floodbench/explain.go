package main

import (
	"fmt"
	"io"
	"runtime/metrics"
	"slices"
	"strings"
	"sync"
	"time"
)

// With -explain, the harness logs what the program's goroutine did (each
// Update and View, by message type) and what the renderer wrote, and
// breaks the slowest key presses down: how long the key waited before its
// Update, what ran meanwhile, how long its view took, how long the frame
// took to be written, and what the collector did over the press.

// span is one piece of the program's work.
type span struct {
	what       string // "update ui.foldMsg", "view", "write"
	start, end time.Time
}

// spanLog keeps the most recent spans.
type spanLog struct {
	mu    sync.Mutex
	spans []span
}

func (l *spanLog) add(what string, start, end time.Time) {
	if l == nil {
		return
	}
	l.mu.Lock()
	l.spans = append(l.spans, span{what, start, end})
	if len(l.spans) > 1<<16 {
		l.spans = slices.Delete(l.spans, 0, 1<<15)
	}
	l.mu.Unlock()
}

// within is the spans that overlap [from, to].
func (l *spanLog) within(from, to time.Time) []span {
	l.mu.Lock()
	defer l.mu.Unlock()
	var out []span
	for _, s := range l.spans {
		if s.end.After(from) && s.start.Before(to) {
			out = append(out, s)
		}
	}
	return out
}

// gcSample is what the runtime says about the collector at one moment.
type gcSample struct {
	cycles  uint64
	gcCPU   float64 // seconds of CPU the collector used (all classes)
	userCPU float64
	pauses  float64 // seconds stopped for the collector (histogram sum)
}

var gcMetrics = []string{"/gc/cycles/total:gc-cycles", "/cpu/classes/gc/total:cpu-seconds", "/cpu/classes/user:cpu-seconds", "/sched/pauses/total/gc:seconds"}

func readGC() gcSample {
	s := make([]metrics.Sample, len(gcMetrics))
	for i, n := range gcMetrics {
		s[i].Name = n
	}
	metrics.Read(s)
	var g gcSample
	g.cycles = s[0].Value.Uint64()
	g.gcCPU = s[1].Value.Float64()
	g.userCPU = s[2].Value.Float64()
	h := s[3].Value.Float64Histogram()
	for i, c := range h.Counts {
		lo, hi := h.Buckets[i], h.Buckets[i+1]
		if lo < 0 || hi > 1e9 { // the open-ended buckets
			continue
		}
		g.pauses += float64(c) * (lo + hi) / 2
	}
	return g
}

// pressRecord is one timed press and what happened during it.
type pressRecord struct {
	sent, drawn time.Time
	gc0, gc1    gcSample
	spans       []span
}

// explain writes the breakdown of the presses slower than over, and a
// summary of where the time of every press went.
func explain(w io.Writer, recs []pressRecord, over time.Duration) {
	type phases struct{ wait, busyBefore, key, between, view, toWrite, write time.Duration }
	var slow []pressRecord
	var all []phases
	for _, r := range recs {
		var p phases
		var keyStart, keyEnd, viewEnd time.Time
		for _, s := range r.spans {
			if strings.HasPrefix(s.what, "update tea.KeyPressMsg") && keyStart.IsZero() && !s.start.Before(r.sent) {
				keyStart, keyEnd = s.start, s.end
			}
		}
		if keyStart.IsZero() {
			continue
		}
		for _, s := range r.spans {
			switch {
			case s.end.Before(keyStart) || s.end.Equal(keyStart):
				p.busyBefore += s.end.Sub(maxTime(s.start, r.sent))
			case s.what == "view" && !s.start.Before(keyEnd) && viewEnd.IsZero():
				p.view, viewEnd = s.end.Sub(s.start), s.end
			case s.what == "write" && !viewEnd.IsZero() && !s.start.Before(viewEnd):
				p.write = s.end.Sub(s.start)
			}
		}
		p.wait = keyStart.Sub(r.sent)
		p.key = keyEnd.Sub(keyStart)
		if !viewEnd.IsZero() {
			p.between = viewEnd.Add(-p.view).Sub(keyEnd)
			p.toWrite = r.drawn.Sub(viewEnd)
		}
		all = append(all, p)
		if r.drawn.Sub(r.sent) > over {
			slow = append(slow, r)
		}
	}
	ms := func(d time.Duration) string { return fmt.Sprintf("%.1f", float64(d)/1e6) }
	med := func(f func(phases) time.Duration) string {
		v := make([]time.Duration, len(all))
		for i, p := range all {
			v[i] = f(p)
		}
		slices.Sort(v)
		if len(v) == 0 {
			return "-"
		}
		return ms(v[len(v)/2]) + "/" + ms(v[min(len(v)*99/100, len(v)-1)])
	}
	fmt.Fprintf(w, "  explain: phases of %d presses, p50/p99 ms: wait for the loop %s (its own work meanwhile %s), key's update %s, to its view %s, view %s, view→frame written %s, write %s\n",
		len(all), med(func(p phases) time.Duration { return p.wait }), med(func(p phases) time.Duration { return p.busyBefore }),
		med(func(p phases) time.Duration { return p.key }), med(func(p phases) time.Duration { return p.between }),
		med(func(p phases) time.Duration { return p.view }), med(func(p phases) time.Duration { return p.toWrite }), med(func(p phases) time.Duration { return p.write }))
	slices.SortFunc(slow, func(a, b pressRecord) int { return int(b.drawn.Sub(b.sent) - a.drawn.Sub(a.sent)) })
	for _, r := range slow[:min(len(slow), 8)] {
		fmt.Fprintf(w, "  slow press %s ms: GC %d cycles, GC CPU %s ms of %s ms of the program's own CPU, GC pauses %s ms\n", ms(r.drawn.Sub(r.sent)),
			r.gc1.cycles-r.gc0.cycles, ms(time.Duration((r.gc1.gcCPU-r.gc0.gcCPU)*1e9)), ms(time.Duration((r.gc1.userCPU-r.gc0.userCPU)*1e9)), ms(time.Duration((r.gc1.pauses-r.gc0.pauses)*1e9)))
		for _, s := range r.spans {
			fmt.Fprintf(w, "    %+7s %6s ms  %s\n", ms(s.start.Sub(r.sent)), ms(s.end.Sub(s.start)), s.what)
		}
		fmt.Fprintf(w, "    %+7s         drawn\n", ms(r.drawn.Sub(r.sent)))
	}
}

func maxTime(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
}
