package main

import (
	"fmt"
	"strings"
)

// httpMarkdown renders an HTTP run: every ratio is to the best client in
// its column (1.00x is the best; throughput below 1 is slower, time and
// memory above 1 are worse).
func (r *results) httpMarkdown() string {
	var b strings.Builder
	cfg := r.cfg
	r.writeHeader(&b, "MCP Streamable HTTP client benchmark", "httpconn and mcp")
	fmt.Fprintf(&b, "- medians of %d runs; each client × workload × run is a separate process; "+
		"%d timed sequential calls, %d timed calls with 64 in flight, %d warm-up calls\n",
		cfg.Runs, cfg.SeqCalls, cfg.ParCalls, cfg.Warmup)
	fmt.Fprintf(&b, "- server: one process for the whole run, go-sdk v1.8.0's StreamableHTTPHandler in its default mode "+
		"(sessions, POSTs answered as SSE streams) on %s (tools/bench/httpserver); every client does its normal "+
		"initialize handshake once, untimed, asking for %s\n", r.serverURL, protocolVersion)
	fmt.Fprintf(&b, "- every answer is checked: an echo must return its own call's text, the blob exactly N bytes of \"x\"; "+
		"a wrong or missing answer fails the run\n")
	fmt.Fprintf(&b, "- × best: the value divided by the best client's in the column "+
		"(calls/s: below 1.00x is slower; latency, time, bytes: above 1.00x is worse)\n")
	fmt.Fprintf(&b, "- peak RSS: ru_maxrss of the worker process from wait4, which includes the process baseline; "+
		"peak heap: the largest of the heap's object bytes sampled every millisecond during the call\n\n")

	r.httpCallTable(&b, "seq", "Sequential calls (tools/call echo, one at a time)", true)
	r.httpCallTable(&b, "par64", "64 calls in flight (tools/call echo from 64 goroutines sharing one client)", false)
	r.httpBlobTable(&b)

	fmt.Fprintf(&b, "### Clients\n\n")
	for _, c := range r.clients {
		fmt.Fprintf(&b, "- **%s**: %s\n", c.label, c.note)
	}
	if notes := r.failureNotes(); notes != "" {
		fmt.Fprintf(&b, "\n### Failures\n\n%s", notes)
	}
	return b.String()
}

// httpCallTable renders a call workload; allocations are counted only for
// the sequential one.
func (r *results) httpCallTable(b *strings.Builder, name, title string, allocs bool) {
	if !r.has(name) {
		return
	}
	fmt.Fprintf(b, "### %s\n\n", title)
	head := "| client | calls/s | × best | p50 | × best | p99 | × best |"
	sep := "|---|--:|--:|--:|--:|--:|--:|"
	if allocs {
		head += " allocs/call | × best | bytes/call | × best |"
		sep += "--:|--:|--:|--:|"
	}
	fmt.Fprintf(b, "%s peak RSS |\n%s--:|\n", head, sep)
	for _, c := range r.clients {
		k := key{c.name, name}
		cps, lo, hi := r.median(k, callsPerSec), r.median(k, p50), r.median(k, p99)
		fmt.Fprintf(b, "| %s | %s | %s | %s | %s | %s | %s |", c.label,
			cell(cps, "%.0f"), r.bestRatio(k, cps, callsPerSec, true),
			durCell(lo), r.bestRatio(k, lo, p50, false), durCell(hi), r.bestRatio(k, hi, p99, false))
		if allocs {
			al, by := r.median(k, mallocs), r.median(k, allocBytes)
			fmt.Fprintf(b, " %s | %s | %s | %s |", cell(al, "%.1f"), r.bestRatio(k, al, mallocs, false),
				cell(by, "%.0f"), r.bestRatio(k, by, allocBytes, false))
		}
		fmt.Fprintf(b, " %s |\n", rssCell(r.median(k, rssKiB)))
	}
	b.WriteString("\n")
}

// httpBlobTable renders the large-response workloads.
func (r *results) httpBlobTable(b *strings.Builder) {
	for _, w := range r.workloads {
		if w.kind != kindBlob {
			continue
		}
		fmt.Fprintf(b, "### One %s response (tools/call returning %d bytes of text)\n\n", sizeLabel(w.bytes), w.bytes)
		fmt.Fprintf(b, "| client | time | × best | allocated | × best | peak heap | × best | peak RSS | × best |\n")
		fmt.Fprintf(b, "|---|--:|--:|--:|--:|--:|--:|--:|--:|\n")
		for _, c := range r.clients {
			k := key{c.name, w.name}
			t, al, hp, rss := r.median(k, seconds), r.median(k, blobAlloc), r.median(k, peakHeap), r.median(k, rssKiB)
			fmt.Fprintf(b, "| %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", c.label,
				durCell(t), r.bestRatio(k, t, seconds, false),
				bytesCell(al), r.bestRatio(k, al, blobAlloc, false),
				bytesCell(hp), r.bestRatio(k, hp, peakHeap, false),
				rssCell(rss), r.bestRatio(k, rss, rssKiB, false))
		}
		b.WriteString("\n")
	}
}

// bestRatio formats a stat of k divided by the best client's same stat on
// the same workload: the highest when higher is better, else the lowest.
func (r *results) bestRatio(k key, st stat, get func(sample) float64, higherIsBetter bool) string {
	if !st.ok {
		return "—"
	}
	best, found := 0.0, false
	for _, c := range r.clients {
		o := r.median(key{c.name, k.workload}, get)
		if !o.ok {
			continue
		}
		if !found || (higherIsBetter && o.value > best) || (!higherIsBetter && o.value < best) {
			best, found = o.value, true
		}
	}
	if !found || best == 0 {
		return "—"
	}
	return fmt.Sprintf("%.2fx", st.value/best)
}

// bytesCell formats a byte count stat as MiB.
func bytesCell(st stat) string {
	if !st.ok {
		return failedCell(st)
	}
	return fmt.Sprintf("%.1f MiB", st.value/(1<<20))
}
