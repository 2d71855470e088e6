// Package load puts an MCP server under load (mcptui load) and reports
// what it took: throughput achieved against offered, latency percentiles
// from an HDR histogram, errors by kind, the server's memory and CPU, and
// whether the limits given as SLOs were kept.
//
// The open loop (--rate) sends each request at its due time whatever the
// server is doing, and measures its latency from that due time, so the
// queueing a saturated server causes is in the figures (no coordinated
// omission). The closed loop (--concurrency) keeps C requests in flight
// and measures each from its send. The requests go through mcp's client,
// over conn (stdio) or httpconn (HTTP), as every other command's do.
package load

import (
	"context"
	"errors"
	"fmt"
	"io"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	hdr "github.com/HdrHistogram/hdrhistogram-go"

	"github.com/mcptui/mcptui/conn"
	"github.com/mcptui/mcptui/httpconn/oauth"
	"github.com/mcptui/mcptui/internal/cli"
	"github.com/mcptui/mcptui/internal/headless"
	"github.com/mcptui/mcptui/internal/inert"
	"github.com/mcptui/mcptui/mcp"
)

// ExitSLO is the exit status of a run that broke an SLO flag.
const ExitSLO = 11

// sampleInterval is how often the server's processes are read.
const sampleInterval = 200 * time.Millisecond

// Run runs mcptui load and returns its exit status: 0, ExitSLO when a
// limit was broken, or headless's statuses for a command that could not
// run (2 usage, 3 the server did not start, 130 interrupted).
func Run(ctx context.Context, cfg *cli.Config, stdout, stderr io.Writer) int {
	return runCommand(ctx, cfg, stdout, stderr, isTerminal)
}

// runCommand is Run with tty saying whether stderr is a terminal.
func runCommand(ctx context.Context, cfg *cli.Config, stdout, stderr io.Writer, tty func(io.Writer) bool) int {
	say := func(format string, a ...any) { fmt.Fprintf(stderr, "mcptui load: "+format+"\n", a...) }
	send, labels, notes, err := sender(cfg)
	if err != nil {
		say("%s", inert.Line(err.Error()))
		return headless.ExitUsage
	}
	opts := cfg.MCPOptions()
	opts.Conn.Stderr = io.Discard
	// The server's questions (sampling, elicitation, roots) are answered
	// by --answer and --root, as every headless command answers them; a
	// note about them is said once, not once a request.
	// The live view (a terminal and a text report only) is cleared before
	// a note is written, and before the report.
	view := newLive(liveOutput(cfg.Format, stderr, tty))
	notesOut := &onceLines{w: stderr, before: view.clear}
	rules, err := headless.RulesTo(cfg, notesOut)
	if err != nil {
		say("%s", inert.Line(err.Error()))
		return headless.ExitUsage
	}
	rules.Declare(&opts)
	if opts.HTTP.Client, err = cfg.HTTPClient(func(st oauth.Step) {
		for _, l := range st.Lines() {
			say("oauth: %s", inert.Line(l))
		}
	}); err != nil {
		say("%s", inert.Line(err.Error()))
		return headless.ExitUsage
	}
	// The connections are owned by a context of their own: Ctrl-C ends
	// the requests at once, then the servers are shut down in order.
	owner, cancelOwner := context.WithCancel(context.WithoutCancel(ctx))
	defer cancelOwner()
	clients, err := connectAll(ctx, owner, cfg, opts)
	// Every server is shut down on the way out, a panic's included.
	defer func() { shutdownAll(clients, cfg.ShutdownGrace, say) }()
	if err != nil {
		if ctx.Err() != nil {
			say("interrupted while connecting")
			return headless.ExitInterrupted
		}
		say("%s", inert.Line(err.Error()))
		return headless.ExitStart
	}
	if !cfg.IsURL() && cfg.Load.Sessions > 1 {
		notes = append(notes, fmt.Sprintf("%d server processes, each started with the same command", cfg.Load.Sessions))
	}
	rep := run(ctx, cfg, clients, send, view)
	rep.Sends, rep.Notes = labels, append(notes, rep.Notes...)
	if cfg.IsURL() {
		rep.Target, rep.Transport = cfg.Command, "http"
	} else {
		rep.Target, rep.Transport = cfg.Command, "stdio"
	}
	// Shut down before the report, to count the HTTP sessions closed.
	closed := shutdownAll(clients, cfg.ShutdownGrace, say)
	clients = nil
	if rep.HTTP != nil {
		rep.HTTP.Closed = closed
	}
	rep.SLOs = slos(cfg.Load, rep)
	if cfg.Format == "json" {
		err = rep.WriteJSON(stdout)
	} else {
		err = rep.WriteText(stdout)
	}
	if err != nil {
		say("writing the report: %v", err)
		return headless.ExitInternal
	}
	switch {
	case ctx.Err() != nil:
		return headless.ExitInterrupted
	case rep.Broken():
		return ExitSLO
	}
	return headless.ExitOK
}

// connectAll opens --sessions connections (server processes over stdio,
// sessions over HTTP), a few at a time; on failure the ones opened are
// returned too, to be shut down.
func connectAll(ctx, owner context.Context, cfg *cli.Config, opts mcp.Options) ([]*mcp.Client, error) {
	n := cfg.Load.Sessions
	clients := make([]*mcp.Client, n)
	errs := make([]error, n)
	sem := make(chan struct{}, 8)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			select {
			case sem <- struct{}{}:
			case <-ctx.Done():
				errs[i] = ctx.Err()
				return
			}
			defer func() { <-sem }()
			// A signal cancels a connect in progress; once connected the
			// owner keeps the connection for an orderly shutdown.
			cctx, cancel := context.WithCancel(owner)
			stop := context.AfterFunc(ctx, cancel)
			c, err := mcp.Connect(cctx, cfg.Command, cfg.Args, opts)
			if !stop() && err == nil {
				err = ctx.Err()
			}
			clients[i], errs[i] = c, err
			if err != nil {
				errs[i] = fmt.Errorf("connecting (session %d of %d): %w", i+1, n, err)
			}
		}()
	}
	wg.Wait()
	var open []*mcp.Client
	for _, c := range clients {
		if c != nil {
			open = append(open, c)
		}
	}
	return open, errors.Join(errs...)
}

// shutdownAll shuts every client down at once (stdin EOF, SIGTERM, SIGKILL
// for a server process; DELETE for an HTTP session) and returns how many
// shut down cleanly.
func shutdownAll(clients []*mcp.Client, grace time.Duration, say func(string, ...any)) int {
	var wg sync.WaitGroup
	var ok atomic.Int64
	for _, c := range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			err := c.Shutdown(grace)
			var se *conn.ShutdownError
			if errors.As(err, &se) && len(se.Left) > 0 {
				say("%s", inert.Line(err.Error()))
			}
			if err == nil {
				ok.Add(1)
			}
		}()
	}
	wg.Wait()
	return int(ok.Load())
}

// run sends the load and measures it.
func run(ctx context.Context, cfg *cli.Config, clients []*mcp.Client, send sendFunc, view *live) *Report {
	l := cfg.Load
	rep := &Report{Sessions: len(clients), Warmup: durationString(l.Warmup), Duration: durationString(l.Duration), Errors: map[string]int64{}}
	var smp *sampler
	var pids []int
	if !cfg.IsURL() {
		for _, c := range clients {
			if pid := c.PID(); pid > 0 {
				pids = append(pids, pid)
			}
		}
		if procMeasured && len(pids) > 0 {
			smp = newSampler(pids, sampleInterval)
		}
	}
	start := time.Now()
	from := start.Add(l.Warmup)
	end := from.Add(l.Duration)
	rec := newRecorder(from)
	rates := l.RampRates()
	if len(rates) > 0 {
		rec.ramp(l.RampHold, len(rates))
	}
	// The requests end with the run: at the end of the measured time
	// plus a drain of one --timeout (30s without one) for the answers
	// still due, or at Ctrl-C.
	drain := cfg.Timeout
	if drain <= 0 {
		drain = cli.DefaultTimeout
	}
	reqCtx, endRequests := context.WithDeadline(ctx, end.Add(drain))
	defer endRequests()

	// Measuring starts after the warm-up, on the loop's own clock.
	measuring := time.AfterFunc(l.Warmup, func() {
		if smp != nil {
			smp.mark()
		}
	})
	defer measuring.Stop()
	cpu0, cpuAt := selfCPU(), time.Now()

	var issued atomic.Int64
	view.begin(rec, &issued, start, from, end)
	lag := hdr.New(histMin, histMax, histDigits)
	var lagMu sync.Mutex
	one := func(i int64, due time.Time) {
		c := clients[i%int64(len(clients))]
		sent := time.Now()
		if !due.Before(from) {
			lagMu.Lock()
			_ = lag.RecordValue(clampMicros(sent.Sub(due))) // clamped: in the histogram's range
			lagMu.Unlock()
		}
		issued.Add(1)
		isErr, err := send(reqCtx, c, i)
		rec.record(due, sent, time.Now(), isErr, err, reqCtx.Err() != nil)
	}
	var wg sync.WaitGroup
	if l.Rate > 0 {
		rep.Loop, rep.OfferedRate = "open", l.Rate
		openLoop(ctx, l, schedule(l, start, from, end), &wg, one)
	} else {
		rep.Loop, rep.Concurrency = "closed", l.Concurrency
		closedLoop(ctx, l, end, &wg, one)
	}
	wg.Wait()
	view.finish(ctx.Err() == nil)
	cpuUsed, cpuFor := selfCPU()-cpu0, time.Since(cpuAt)

	if smp != nil {
		rep.Server = smp.finish()
	} else if cfg.IsURL() {
		rep.Server = &ServerUsage{NotMeasured: "the server is not a local process mcptui started (HTTP)"}
	} else {
		rep.Server = &ServerUsage{NotMeasured: "the server's processes are read from /proc, on Linux only"}
	}
	rec.mu.Lock()
	defer rec.mu.Unlock()
	rep.Requests, rep.WarmupRequests, rep.Answered = rec.sent, rec.warm, rec.answered
	measured := l.Duration
	if ctx.Err() != nil {
		// Interrupted: the measured time is what ran of it.
		measured = max(0, min(l.Duration, time.Since(from)))
		rep.Notes = append(rep.Notes, fmt.Sprintf("interrupted %s into the measured %s", durationString(measured), durationString(l.Duration)))
	}
	if rec.last.Sub(from) > measured {
		measured = rec.last.Sub(from)
	}
	rep.MeasuredFor = durationString(measured)
	if measured > 0 {
		rep.Throughput = float64(rec.answered) / measured.Seconds()
	}
	rep.Latency, rep.Service = percentiles(rec.latency), percentiles(rec.service)
	rep.Errors, rep.ErrorSamples = rec.errors, rec.sample
	if len(rates) > 0 {
		rep.OfferedRate = 0
		rep.Ramp = rampReport(l, rates, rec.steps)
	}
	if rec.sent > 0 {
		rep.ErrorRate = float64(sum(rec.errors)) / float64(rec.sent)
	}
	if rec.sent == 0 {
		rep.Notes = append(rep.Notes, "no request was measured: the duration ended before the first one was due")
	}
	cores := runtime.GOMAXPROCS(0)
	rep.Generator = Generator{CPUPercent: 100 * cpuUsed.Seconds() / cpuFor.Seconds(), Cores: cores}
	if rep.Loop == "open" {
		rep.Generator.SendLagP99 = percentiles(lag).P99
	}
	// mcptui is the bottleneck when it used nearly every core it has: the
	// figures then say how fast it can send, not how fast the server answers.
	if rep.Generator.CPUPercent >= 90*float64(cores) {
		rep.Generator.Bottleneck = true
		rep.Notes = append(rep.Notes, fmt.Sprintf("mcptui used %.0f%% of %d cores: the load generator, not the server, may be what limited these figures", rep.Generator.CPUPercent, cores))
	}
	if n := rec.errors[KindUnfinished]; n > 0 {
		rep.Notes = append(rep.Notes, fmt.Sprintf("%d requests were still unanswered when the run ended; their latency counts as the time they had waited by then (a lower bound)", n))
	}
	if cfg.IsURL() {
		rep.HTTP = &SessionCounts{Opened: len(clients)}
		for _, c := range clients {
			for _, st := range c.Negotiation().Steps {
				if st.Kind == mcp.StepSessionExpired {
					rep.HTTP.Renewed++
				}
			}
		}
		rep.HTTP.Opened += rep.HTTP.Renewed
	}
	for i, c := range clients {
		select {
		case <-c.Done():
			rep.Notes = append(rep.Notes, fmt.Sprintf("the connection of session %d stopped during the run: %s", i+1, inert.Line(fmt.Sprint(c.Err()))))
		default:
		}
	}
	return rep
}

// segment is a stretch of the open loop at one rate.
type segment struct {
	from, to time.Time
	rate     float64
}

// schedule is the open loop's rates: --rate from start to end, or with
// --ramp the first step's rate through the warm-up, then each step's.
func schedule(l cli.LoadConfig, start, from, end time.Time) []segment {
	rates := l.RampRates()
	if len(rates) == 0 {
		return []segment{{start, end, l.Rate}}
	}
	segs := []segment{{start, from, rates[0]}}
	for i, r := range rates {
		segs = append(segs, segment{from.Add(time.Duration(i) * l.RampHold), from.Add(time.Duration(i+1) * l.RampHold), r})
	}
	return segs
}

// openLoop sends requests at each segment's rate (the j-th of a segment at
// its start + j/rate) until the last ends (or --max-requests, or ctx),
// each in a goroutine of its own, at most --max-in-flight at once. A
// request that waits for a slot keeps its due time.
func openLoop(ctx context.Context, l cli.LoadConfig, segs []segment, wg *sync.WaitGroup, one func(int64, time.Time)) {
	slots := make(chan struct{}, l.MaxInFlight)
	timer := time.NewTimer(time.Hour)
	defer timer.Stop()
	i := int64(0)
	for _, sg := range segs {
		for j := int64(0); ; j, i = j+1, i+1 {
			if l.MaxRequests > 0 && i >= l.MaxRequests {
				return
			}
			due := sg.from.Add(time.Duration(float64(j) * float64(time.Second) / sg.rate))
			if !due.Before(sg.to) {
				break
			}
			if d := time.Until(due); d > 0 {
				timer.Reset(d)
				select {
				case <-timer.C:
				case <-ctx.Done():
					return
				}
			}
			select {
			case slots <- struct{}{}:
			case <-ctx.Done():
				return
			}
			wg.Add(1)
			n := i // i is the loop's across segments, not each request's
			go func() {
				defer wg.Done()
				defer func() { <-slots }()
				one(n, due)
			}()
		}
	}
}

// closedLoop runs --concurrency workers, each sending its next request
// when the last one ends, until end (or --max-requests, or ctx).
func closedLoop(ctx context.Context, l cli.LoadConfig, end time.Time, wg *sync.WaitGroup, one func(int64, time.Time)) {
	var next atomic.Int64
	for range l.Concurrency {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for ctx.Err() == nil {
				now := time.Now()
				if !now.Before(end) {
					return
				}
				i := next.Add(1) - 1
				if l.MaxRequests > 0 && i >= l.MaxRequests {
					return
				}
				one(i, now)
			}
		}()
	}
}

// slos checks the limits the command line set.
func slos(l cli.LoadConfig, r *Report) []SLO {
	var out []SLO
	add := func(name string, limit, value float64) {
		out = append(out, SLO{Name: name, Limit: limit, Value: value, OK: value <= limit})
	}
	toMS := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
	if l.MaxP50 > 0 {
		add("max-p50", toMS(l.MaxP50), r.Latency.P50)
	}
	if l.MaxP99 > 0 {
		add("max-p99", toMS(l.MaxP99), r.Latency.P99)
	}
	if l.MaxErrorRate >= 0 {
		add("max-error-rate", l.MaxErrorRate, r.ErrorRate)
	}
	if len(out) > 0 && r.Requests == 0 {
		// Nothing measured keeps no limit.
		for i := range out {
			out[i].OK = false
		}
	}
	return out
}
