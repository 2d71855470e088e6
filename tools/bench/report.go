package main

import (
	"fmt"
	"math"
	"os"
	"runtime"
	"slices"
	"strings"
)

// stat is the median of one metric over the successful runs of a cell, and
// how many runs failed.
type stat struct {
	value  float64
	ok     bool // at least one run succeeded
	failed int
	runs   int
	reason string // the first failure
}

// median returns the median of get over the successful samples of k.
func (r *results) median(k key, get func(sample) float64) stat {
	var vals []float64
	st := stat{}
	for _, s := range r.samples[k] {
		st.runs++
		if s.failure != "" {
			st.failed++
			if st.reason == "" {
				st.reason = s.failure
			}
			continue
		}
		vals = append(vals, get(s))
	}
	if len(vals) == 0 {
		return st
	}
	slices.Sort(vals)
	n := len(vals)
	if n%2 == 1 {
		st.value = vals[n/2]
	} else {
		st.value = (vals[n/2-1] + vals[n/2]) / 2
	}
	st.ok = true
	return st
}

// Metric getters.
func callsPerSec(s sample) float64 { return float64(s.m.Calls) / s.m.Seconds }
func seconds(s sample) float64     { return s.m.Seconds }
func p50(s sample) float64         { return s.m.P50 }
func p99(s sample) float64         { return s.m.P99 }
func mallocs(s sample) float64     { return s.m.MallocsPerCall }
func allocBytes(s sample) float64  { return s.m.BytesPerCall }
func blobAlloc(s sample) float64   { return s.m.AllocBytes }
func peakHeap(s sample) float64    { return s.m.PeakHeapBytes }
func rssKiB(s sample) float64      { return float64(s.maxRSSKiB) }
func nextSeconds(s sample) float64 { return s.m.NextSeconds }

// writeHeader writes a report's title and the lines every run has: when,
// how long and in which mode, the machine, the revision of what (the code
// measured) and the load.
func (r *results) writeHeader(b *strings.Builder, title, what string) {
	mode := "full"
	if r.cfg.Quick {
		mode = "quick (smoke run; numbers are not meaningful)"
	}
	fmt.Fprintf(b, "# %s\n\n", title)
	fmt.Fprintf(b, "- date: %s; took %s; mode: %s\n", r.started.Format("2006-01-02 15:04 MST"), r.elapsed.Round(1e9), mode)
	fmt.Fprintf(b, "- machine: %s, %d CPUs (GOMAXPROCS %d), %s %s/%s\n", cpuModel(), runtime.NumCPU(),
		runtime.GOMAXPROCS(0), runtime.Version(), runtime.GOOS, runtime.GOARCH)
	if r.connRevision != "" {
		fmt.Fprintf(b, "- %s measured at: %s\n", what, mdEscape(r.connRevision))
	}
	fmt.Fprintf(b, "- load average (1, 5, 15 min) at start: %s; at end: %s (other work on the machine disturbs the numbers)\n",
		r.loadStart, r.loadEnd)
}

// markdown renders the results as a markdown document.
func (r *results) markdown() string {
	if r.cfg.Transport == transportHTTP {
		return r.httpMarkdown()
	}
	var b strings.Builder
	cfg := r.cfg
	r.writeHeader(&b, "MCP stdio client benchmark", "conn")
	fmt.Fprintf(&b, "- medians of %d runs; each client × workload × run is a separate process; "+
		"%d timed sequential calls, %d timed calls per in-flight workload, %d warm-up calls\n",
		cfg.Runs, cfg.SeqCalls, cfg.ParCalls, cfg.Warmup)
	fmt.Fprintf(&b, "- server: one hand-written stdio server (bench/server), no SDK; "+
		"every client does its normal initialize handshake once, untimed, asking for %s\n", protocolVersion)
	fmt.Fprintf(&b, "- × ceiling: the value divided by the hand-written ceiling's "+
		"(throughput: higher is better; time, allocations, RSS: lower is better)\n")
	fmt.Fprintf(&b, "- peak RSS: ru_maxrss of the worker process from wait4 (ProcessState.SysUsage), "+
		"which includes the process baseline (Go runtime, binary, harness)\n\n")

	r.sequentialTable(&b)
	r.parallelTable(&b)
	r.blobTable(&b)
	r.floodTable(&b)

	fmt.Fprintf(&b, "### Clients\n\n")
	for _, c := range r.clients {
		fmt.Fprintf(&b, "- **%s**: %s\n", c.label, c.note)
	}
	if notes := r.failureNotes(); notes != "" {
		fmt.Fprintf(&b, "\n### Failures\n\n%s", notes)
	}
	return b.String()
}

// has reports whether the run included workload name.
func (r *results) has(name string) bool {
	return slices.ContainsFunc(r.workloads, func(w workload) bool { return w.name == name })
}

// sequentialTable renders the sequential workload.
func (r *results) sequentialTable(b *strings.Builder) {
	if !r.has("seq") {
		return
	}
	fmt.Fprintf(b, "### Sequential calls (tools/call echo, one at a time)\n\n")
	fmt.Fprintf(b, "| client | calls/s | × ceiling | p50 | p99 | allocs/call | × ceiling | bytes/call | peak RSS |\n")
	fmt.Fprintf(b, "|---|--:|--:|--:|--:|--:|--:|--:|--:|\n")
	for _, c := range r.clients {
		k := key{c.name, "seq"}
		cps := r.median(k, callsPerSec)
		al := r.median(k, mallocs)
		fmt.Fprintf(b, "| %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", c.label,
			cell(cps, "%.0f"), r.ratio(k, cps, callsPerSec),
			durCell(r.median(k, p50)), durCell(r.median(k, p99)),
			cell(al, "%.1f"), r.ratio(k, al, mallocs),
			cell(r.median(k, allocBytes), "%.0f"), rssCell(r.median(k, rssKiB)))
	}
	b.WriteString("\n")
}

// parallelTable renders the in-flight workloads.
func (r *results) parallelTable(b *strings.Builder) {
	var names []string
	for _, w := range r.workloads {
		if w.kind == kindParallel {
			names = append(names, w.name)
		}
	}
	if len(names) == 0 {
		return
	}
	fmt.Fprintf(b, "### Calls in flight (tools/call echo from N goroutines sharing one client)\n\n| client |")
	sep := "|---|"
	for _, n := range names {
		w, _ := findWorkload(n, r.cfg.Quick)
		fmt.Fprintf(b, " %d in flight calls/s | × ceiling | peak RSS |", w.inFlight)
		sep += "--:|--:|--:|"
	}
	fmt.Fprintf(b, "\n%s\n", sep)
	for _, c := range r.clients {
		fmt.Fprintf(b, "| %s |", c.label)
		for _, n := range names {
			k := key{c.name, n}
			cps := r.median(k, callsPerSec)
			fmt.Fprintf(b, " %s | %s | %s |", cell(cps, "%.0f"), r.ratio(k, cps, callsPerSec), rssCell(r.median(k, rssKiB)))
		}
		b.WriteString("\n")
	}
	b.WriteString("\n")
}

// blobTable renders the large-response workloads.
func (r *results) blobTable(b *strings.Builder) {
	var ws []workload
	for _, w := range r.workloads {
		if w.kind == kindBlob {
			ws = append(ws, w)
		}
	}
	if len(ws) == 0 {
		return
	}
	fmt.Fprintf(b, "### One large response (tools/call returning N bytes of text)\n\n")
	fmt.Fprintf(b, "| response | client | time | × ceiling | peak RSS | × ceiling | RSS ÷ payload |\n")
	fmt.Fprintf(b, "|---|---|--:|--:|--:|--:|--:|\n")
	for _, w := range ws {
		for _, c := range r.clients {
			k := key{c.name, w.name}
			t := r.median(k, seconds)
			rss := r.median(k, rssKiB)
			perPayload := "—"
			if rss.ok {
				perPayload = fmt.Sprintf("%.1f", rss.value*1024/float64(w.bytes))
			}
			fmt.Fprintf(b, "| %s | %s | %s | %s | %s | %s | %s |\n", sizeLabel(w.bytes), c.label,
				durCell(t), r.ratio(k, t, seconds), rssCell(rss), r.ratio(k, rss, rssKiB), perPayload)
		}
	}
	b.WriteString("\n")
}

// floodTable renders the over-limit line workload.
func (r *results) floodTable(b *strings.Builder) {
	var w workload
	found := false
	for _, x := range r.workloads {
		if x.kind == kindFlood {
			w, found = x, true
		}
	}
	if !found {
		return
	}
	fmt.Fprintf(b, "### A %s over-limit line, then a normal call\n\n", sizeLabel(w.bytes))
	fmt.Fprintf(b, "The flood tool writes one notification line of %s, then answers; then the client makes one echo call.\n\n", sizeLabel(w.bytes))
	fmt.Fprintf(b, "| client | outcome | peak RSS | × ceiling | flood call | next call |\n")
	fmt.Fprintf(b, "|---|---|--:|--:|--:|--:|\n")
	for _, c := range r.clients {
		k := key{c.name, w.name}
		rss := r.median(k, rssKiB)
		// A crashed or timed-out worker still has a peak RSS.
		if !rss.ok {
			rss = r.medianAll(k)
		}
		fmt.Fprintf(b, "| %s | %s | %s | %s | %s | %s |\n", c.label, r.floodOutcome(k),
			rssCell(rss), r.ratio(k, rss, rssKiB), durCell(r.median(k, seconds)), r.nextCell(k))
	}
	b.WriteString("\n")
}

// medianAll is the median peak RSS over all runs of k, failed ones too.
func (r *results) medianAll(k key) stat {
	var vals []float64
	for _, s := range r.samples[k] {
		if s.maxRSSKiB > 0 {
			vals = append(vals, float64(s.maxRSSKiB))
		}
	}
	if len(vals) == 0 {
		return stat{}
	}
	slices.Sort(vals)
	return stat{value: vals[len(vals)/2], ok: true, runs: len(vals)}
}

// floodOutcome says how a client lived through the over-limit line.
func (r *results) floodOutcome(k key) string {
	var survived, dead, failed int
	var why string
	for _, s := range r.samples[k] {
		switch {
		case s.failure != "":
			failed++
			if why == "" {
				why = s.failure
			}
		case s.m.Survived:
			survived++
		default:
			dead++
			if why == "" {
				why = "flood call: " + orDash(s.m.FloodErr) + "; next call: " + s.m.NextErr
			}
		}
	}
	n := survived + dead + failed
	switch {
	case survived == n:
		return fmt.Sprintf("survived (%d/%d)", survived, n)
	case failed == n:
		return fmt.Sprintf("**worker failed** (%d/%d): %s", failed, n, mdEscape(shorten(why, 120)))
	}
	return fmt.Sprintf("**session dead** (%d/%d survived): %s", survived, n, mdEscape(shorten(why, 120)))
}

// nextCell is the median time of the call after the flood, when answered.
func (r *results) nextCell(k key) string {
	var vals []float64
	for _, s := range r.samples[k] {
		if s.failure == "" && s.m.Survived {
			vals = append(vals, s.m.NextSeconds)
		}
	}
	if len(vals) == 0 {
		return "not answered"
	}
	slices.Sort(vals)
	return dur(vals[len(vals)/2])
}

// ratio formats a stat of k divided by the ceiling's same stat.
func (r *results) ratio(k key, st stat, get func(sample) float64) string {
	if !st.ok {
		return "—"
	}
	ref := r.median(key{ceilingName, k.workload}, get)
	if k.workload == "flood" && !ref.ok {
		ref = r.medianAll(key{ceilingName, k.workload})
	}
	if !ref.ok || ref.value == 0 {
		return "—"
	}
	return fmt.Sprintf("%.2fx", st.value/ref.value)
}

// failureNotes lists every failed run.
func (r *results) failureNotes() string {
	var b strings.Builder
	for _, w := range r.workloads {
		for _, c := range r.clients {
			for i, s := range r.samples[key{c.name, w.name}] {
				if s.failure != "" {
					fmt.Fprintf(&b, "- %s, %s, run %d: %s\n", c.label, w.label, i+1, mdEscape(shorten(s.failure, 300)))
				}
			}
		}
	}
	return b.String()
}

// cell formats a stat, or says why it has no value.
func cell(st stat, format string) string {
	if !st.ok {
		return failedCell(st)
	}
	s := fmt.Sprintf(format, st.value)
	if st.failed > 0 {
		s += fmt.Sprintf(" (%d/%d failed)", st.failed, st.runs)
	}
	return s
}

// failedCell is the cell of a metric no run produced.
func failedCell(st stat) string {
	if st.runs == 0 {
		return "—"
	}
	return "failed"
}

// durCell formats a duration stat in seconds.
func durCell(st stat) string {
	if !st.ok {
		return failedCell(st)
	}
	return dur(st.value)
}

// rssCell formats an RSS stat in KiB as MiB.
func rssCell(st stat) string {
	if !st.ok {
		return failedCell(st)
	}
	return mib(int64(st.value))
}

// dur formats seconds with a unit that suits them.
func dur(s float64) string {
	switch {
	case s < 1e-3:
		return fmt.Sprintf("%.1f µs", s*1e6)
	case s < 1:
		return fmt.Sprintf("%.1f ms", s*1e3)
	}
	return fmt.Sprintf("%.2f s", s)
}

// mib formats KiB as MiB.
func mib(kib int64) string { return fmt.Sprintf("%.1f MiB", float64(kib)/1024) }

// sizeLabel formats a byte count as MiB or GiB.
func sizeLabel(n int) string {
	if n >= 1<<30 && n%(1<<30) == 0 {
		return fmt.Sprintf("%d GiB", n>>30)
	}
	return fmt.Sprintf("%d MiB", int(math.Round(float64(n)/(1<<20))))
}

// orDash returns s, or "answered" when s is empty.
func orDash(s string) string {
	if s == "" {
		return "answered"
	}
	return s
}

// mdEscape keeps a message from breaking a table row.
func mdEscape(s string) string {
	return strings.NewReplacer("|", "\\|", "\n", " ").Replace(s)
}

// cpuModel reads the CPU's name from /proc/cpuinfo.
func cpuModel() string {
	b, err := os.ReadFile("/proc/cpuinfo")
	if err != nil {
		return "unknown CPU"
	}
	for _, line := range strings.Split(string(b), "\n") {
		if name, ok := strings.CutPrefix(line, "model name"); ok {
			return strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(name), ":"))
		}
	}
	return "unknown CPU"
}
