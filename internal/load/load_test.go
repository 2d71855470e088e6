package load

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	hdr "github.com/HdrHistogram/hdrhistogram-go"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcptui/mcptui/internal/cli"
)

// The open loop measures each request from its due time: against a server
// that serves one call at a time and takes at least 20 ms for each, at
// twice what it can take and with one request in flight (a client that
// waits for each answer, where tools that measure from the send hide the
// queue), request k is sent only when k-1 ends, so its latency is the sum
// of the service times before it less k intervals. The figures must show
// that queue: the median latency is many median service times, and the
// slowest request waited at least what the server's known service time
// adds up to. The relations hold on any machine: a slower one only makes
// the queue longer.
func TestOpenLoopLatencyIncludesQueueing(t *testing.T) {
	t.Parallel()                    // waits on its rates and durations, not on the CPU
	const serviceMS, rate = 20, 100 // the server can take at most 50/s
	stats := filepath.Join(t.TempDir(), "stats")
	r := runLoad(t, context.Background(), append([]string{"call", "work", "--rate", "100", "--duration", "1s", "--max-in-flight", "1"},
		server("slow", delayEnv+"=20", serialEnv+"=1", statsEnv+"="+stats)...)...)
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	rep := r.rep
	if rep.Loop != "open" || rep.OfferedRate != rate || rep.Requests != rate || len(rep.Errors) != 0 {
		t.Fatalf("report: %+v", rep)
	}
	if rep.Throughput >= rep.OfferedRate {
		t.Errorf("throughput %.1f/s, offered %g/s: a server serving one 20 ms call at a time cannot keep up", rep.Throughput, rep.OfferedRate)
	}
	if rep.Service.P50 < serviceMS {
		t.Errorf("service p50 %.2f ms below the server's %d ms", rep.Service.P50, serviceMS)
	}
	// Median latency >= N/2 mean service - N/2 intervals >= N/4 mean
	// service (service >= 2 intervals) >= N/8 p50 service.
	if rep.Latency.P50 < 5*rep.Service.P50 {
		t.Errorf("latency p50 %.1f ms from the due time is not the queue's: service p50 %.1f ms", rep.Latency.P50, rep.Service.P50)
	}
	// The last request is sent after the N-1 before it were served.
	if lower := float64((rep.Requests-1)*serviceMS) - 1000; rep.Latency.Max < lower {
		t.Errorf("max latency %.0f ms, but the last request waited at least %.0f ms", rep.Latency.Max, lower)
	}
	if _, max := readStats(t, stats); max != 1 {
		t.Errorf("--max-in-flight 1: the server saw %d calls at once", max)
	}
}

// The closed loop keeps --concurrency requests in flight, never more:
// the server counts the calls that reached it and not yet answered.
func TestClosedLoopHonoursConcurrency(t *testing.T) {
	t.Parallel() // waits on its rates and durations, not on the CPU
	stats := filepath.Join(t.TempDir(), "stats")
	// The run ends after 40 requests, not after a duration: on a busy
	// machine the four warm-up calls to the serial server could outlast
	// a short window, which then measured none (seen at load 11). The
	// server takes 10 ms a call, one at a time, so the 100 ms warm-up
	// holds at most 14 of the 40.
	r := runLoad(t, context.Background(), append([]string{"call", "work", "--concurrency", "4", "--max-requests", "40", "--duration", "10m", "--warmup", "100ms"},
		server("slow", delayEnv+"=10", serialEnv+"=1", statsEnv+"="+stats)...)...)
	if r.code != 0 || r.rep.Loop != "closed" || r.rep.Concurrency != 4 || r.rep.Requests == 0 || len(r.rep.Errors) != 0 {
		t.Fatalf("exit %d, report %+v\n%s", r.code, r.rep, r.stderr)
	}
	_, max := readStats(t, stats)
	if max > 4 {
		t.Errorf("--concurrency 4: the server saw %d calls in flight at once", max)
	}
	if max < 2 {
		t.Errorf("--concurrency 4: the server never saw two calls at once (%d)", max)
	}
	if r.rep.WarmupRequests == 0 {
		t.Errorf("no request counted in the warm-up: %+v", r.rep)
	}
	if s := r.rep.Server; s == nil || s.NotMeasured != "" || s.Processes < 1 || s.RSSPeakBytes <= 0 {
		t.Errorf("server usage: %+v", s)
	}
}

// Over HTTP the requests are spread over --sessions sessions, each opened
// and closed, and the concurrency bound holds across them.
func TestHTTPSessionsAndConcurrency(t *testing.T) {
	t.Parallel() // waits on its rates and durations, not on the CPU
	st := &slowStats{}
	s := slowServer(slowConfig{delay: 5 * time.Millisecond}, st)
	srv := httptest.NewServer(sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return s }, nil))
	defer srv.Close()
	r := runLoad(t, context.Background(), "call", "work", "--concurrency", "5", "--sessions", "3", "--duration", "500ms", srv.URL+"/mcp")
	if r.code != 0 || r.rep.Transport != "http" || r.rep.Sessions != 3 || r.rep.Requests == 0 || len(r.rep.Errors) != 0 {
		t.Fatalf("exit %d, report %+v\n%s", r.code, r.rep, r.stderr)
	}
	if h := r.rep.HTTP; h == nil || h.Opened != 3 || h.Closed != 3 {
		t.Errorf("sessions: %+v, want 3 opened and 3 closed", h)
	}
	if max := st.maxSeen(); max > 5 || max < 2 {
		t.Errorf("--concurrency 5 over 3 sessions: the server saw %d calls at once", max)
	}
	if r.rep.Server == nil || r.rep.Server.NotMeasured == "" {
		t.Errorf("an HTTP server's process was measured: %+v", r.rep.Server)
	}
}

// Errors are counted by kind: a tool's isError, a JSON-RPC error answer by
// its code, a timeout, the transport (the server exited).
func TestErrorsByKind(t *testing.T) {
	t.Parallel() // waits on its rates and durations, not on the CPU
	dir := t.TempDir()
	script := filepath.Join(dir, "mix.mcpt")
	if err := os.WriteFile(script, []byte("call echo message=hi\ncall fail\ncall rpc_error code:=-32042\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Run("answers", func(t *testing.T) {
		r := runLoad(t, context.Background(), append([]string{"--script", script, "--concurrency", "1", "--max-requests", "30", "--duration", "1m"}, server("demo")...)...)
		want := map[string]int64{"isError": 10, "rpc -32042": 10}
		if r.code != 0 || r.rep.Requests != 30 || r.rep.Answered != 30 || !equalCounts(r.rep.Errors, want) {
			t.Fatalf("exit %d, requests %d answered %d, errors %v, want %v\n%s", r.code, r.rep.Requests, r.rep.Answered, r.rep.Errors, want, r.stderr)
		}
		if r.rep.ErrorRate < 0.66 || r.rep.ErrorRate > 0.67 {
			t.Errorf("error rate %g, want 20/30", r.rep.ErrorRate)
		}
		if len(r.rep.Sends) != 3 {
			t.Errorf("sends %q", r.rep.Sends)
		}
	})
	t.Run("timeout", func(t *testing.T) {
		r := runLoad(t, context.Background(), append([]string{"call", "work", "--timeout", "100ms", "--concurrency", "2", "--max-requests", "4", "--duration", "1m"},
			server("slow", delayEnv+"=60000")...)...)
		if r.code != 0 || !equalCounts(r.rep.Errors, map[string]int64{"timeout": 4}) || r.rep.Answered != 0 {
			t.Fatalf("exit %d, errors %v answered %d\n%s", r.code, r.rep.Errors, r.rep.Answered, r.stderr)
		}
	})
	t.Run("transport", func(t *testing.T) {
		r := runLoad(t, context.Background(), append([]string{"call", "exit", "--concurrency", "1", "--max-requests", "3", "--duration", "1m"}, server("demo")...)...)
		if r.code != 0 || !equalCounts(r.rep.Errors, map[string]int64{"transport": 3}) {
			t.Fatalf("exit %d, errors %v\n%s", r.code, r.rep.Errors, r.stderr)
		}
		if !strings.Contains(strings.Join(r.rep.Notes, "\n"), "stopped during the run") {
			t.Errorf("notes %q do not say the connection stopped", r.rep.Notes)
		}
	})
}

func equalCounts(got, want map[string]int64) bool {
	if len(got) != len(want) {
		return false
	}
	for k, v := range want {
		if got[k] != v {
			return false
		}
	}
	return true
}

// An SLO flag broken exits 11 (kept: 0), so that a CI job can gate on it.
// The latencies compared are bounded below by the server's own service
// time, whatever the machine.
func TestSLOExitCodes(t *testing.T) {
	t.Parallel() // waits on its rates and durations, not on the CPU
	for _, tc := range []struct {
		name string
		args []string
		code int
	}{
		{"error rate kept", append([]string{"call", "echo", "--arg", "message=hi", "--max-error-rate", "0", "--concurrency", "2", "--max-requests", "20", "--duration", "1m"}, server("demo")...), 0},
		{"error rate broken", append([]string{"call", "fail", "--max-error-rate", "1%", "--concurrency", "2", "--max-requests", "20", "--duration", "1m"}, server("demo")...), ExitSLO},
		{"p99 broken", append([]string{"call", "work", "--max-p99", "10ms", "--rate", "20", "--duration", "300ms"}, server("slow", delayEnv+"=50")...), ExitSLO},
		{"p99 and p50 kept", append([]string{"call", "work", "--max-p99", "1h", "--max-p50", "1h", "--rate", "20", "--duration", "300ms"}, server("slow", delayEnv+"=50")...), 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := runLoad(t, context.Background(), tc.args...)
			if r.code != tc.code {
				t.Fatalf("exit %d, want %d: %+v\n%s", r.code, tc.code, r.rep.SLOs, r.stderr)
			}
			if len(r.rep.SLOs) == 0 || r.rep.Broken() != (tc.code == ExitSLO) {
				t.Errorf("SLOs %+v", r.rep.SLOs)
			}
		})
	}
}

// Ctrl-C ends the run: the requests in flight are given up (unfinished),
// the report of what ran is printed, the server process is ended and no
// goroutine is left behind.
func TestInterruptEndsServerAndGoroutines(t *testing.T) {
	before := runtime.NumGoroutine()
	stats := filepath.Join(t.TempDir(), "stats")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan result, 1)
	go func() {
		done <- runLoad(t, ctx, append([]string{"call", "work", "--concurrency", "3", "--duration", "10m"},
			server("slow", delayEnv+"=60000", statsEnv+"="+stats)...)...)
	}()
	// Interrupt once the server holds the three calls.
	waitFor(t, "the server to hold 3 calls", func() bool {
		b, err := os.ReadFile(stats)
		return err == nil && strings.HasSuffix(strings.TrimSpace(string(b)), " 3")
	})
	pid, _ := readStats(t, stats)
	cancel()
	r := <-done
	if r.code != 130 || r.rep.Errors[KindUnfinished] != 3 {
		t.Fatalf("exit %d, errors %v\n%s", r.code, r.rep.Errors, r.stderr)
	}
	if !strings.Contains(strings.Join(r.rep.Notes, "\n"), "interrupted") || r.rep.Throughput > 0 && r.rep.Answered == 0 {
		t.Errorf("the report does not say it was interrupted: %+v", r.rep)
	}
	if r.rep.MeasuredFor == "10m0s" {
		t.Errorf("an interrupted run was measured over its whole --duration")
	}
	if processAlive(pid) {
		t.Errorf("the server (pid %d) is still running", pid)
	}
	waitFor(t, "the goroutines to end", func() bool { return runtime.NumGoroutine() <= before })
}

// waitFor polls cond with a generous deadline.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			buf := make([]byte, 1<<16)
			t.Fatalf("timed out waiting for %s\n%s", what, buf[:runtime.Stack(buf, true)])
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// The server's questions are answered under load by --answer, as every
// headless command answers them: the demo's sample tool asks the client's
// model once a call. Without a rule each call fails, and the note that
// says which flag would answer is written once, not once a call.
func TestAnswerRulesUnderLoad(t *testing.T) {
	t.Parallel() // waits on its rates and durations, not on the CPU
	args := []string{"call", "sample", "--concurrency", "2", "--max-requests", "20", "--duration", "1m"}
	r := runLoad(t, context.Background(), append(append(args, "--answer", "sampling=text:a haiku"), server("demo")...)...)
	if r.code != 0 || r.rep.Requests != 20 || r.rep.Answered != 20 || len(r.rep.Errors) != 0 {
		t.Fatalf("with --answer: exit %d, requests %d answered %d errors %v %v\n%s", r.code, r.rep.Requests, r.rep.Answered, r.rep.Errors, r.rep.ErrorSamples, r.stderr)
	}
	r = runLoad(t, context.Background(), append(args, server("demo")...)...)
	if r.code != 0 || sum(r.rep.Errors) != 20 {
		t.Fatalf("without --answer: exit %d, errors %v, want all 20 failed\n%s", r.code, r.rep.Errors, r.stderr)
	}
	if n := strings.Count(r.stderr, "--answer sampling="); n != 1 {
		t.Errorf("the note naming --answer came %d times, want once:\n%s", n, r.stderr)
	}
}

// --ramp raises the offered rate in steps and names the first step the
// server did not keep up with. The server serves one call at a time and
// each takes at least 10 ms, so it answers at most 100 calls in any
// second, on any machine: the steps at 140/s and 200/s cannot be kept up
// with (90% of 140 is 126), and the knee is at or before 140/s. Each step
// sends exactly its rate's requests, due on time whatever the server does.
func TestRampFindsTheKnee(t *testing.T) {
	t.Parallel() // waits on its rates and durations, not on the CPU
	r := runLoad(t, context.Background(), append([]string{"call", "work", "--ramp", "20..200/1s", "--ramp-steps", "4"},
		server("slow", delayEnv+"=10", serialEnv+"=1")...)...)
	if r.code != 0 || r.rep.Ramp == nil {
		t.Fatalf("exit %d, ramp %+v\n%s", r.code, r.rep.Ramp, r.stderr)
	}
	rp := r.rep.Ramp
	want := []float64{20, 80, 140, 200}
	if len(rp.Steps) != len(want) {
		t.Fatalf("steps %+v, want %v", rp.Steps, want)
	}
	for i, s := range rp.Steps {
		if s.Offered != want[i] || s.Requests != int64(want[i]) {
			t.Errorf("step %d: offered %g, %d requests; want %g and as many requests", i+1, s.Offered, s.Requests, want[i])
		}
		if s.Achieved > 101 {
			t.Errorf("step %d: achieved %.0f/s from a server that can answer 100 a second at most", i+1, s.Achieved)
		}
		if want[i] >= 140 && s.KeptUp {
			t.Errorf("step %d at %g/s: kept up, from a server that can answer 100 a second at most: %+v", i+1, want[i], s)
		}
	}
	if rp.Knee < 1 || rp.Knee > 3 || rp.KneeRate != want[rp.Knee-1] || rp.Sustained >= 140 || rp.KneeWhy == "" {
		t.Errorf("knee step %d at %g/s (%s), sustained %g/s: want the knee at 140/s or before", rp.Knee, rp.KneeRate, rp.KneeWhy, rp.Sustained)
	}
	var text strings.Builder
	if err := r.rep.WriteText(&text); err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{"ramp:", "kept up", fmt.Sprintf("knee:       step %d (%g/s)", rp.Knee, rp.KneeRate), "NO: answered"} {
		if !strings.Contains(text.String(), w) {
			t.Errorf("the text report lacks %q:\n%s", w, text.String())
		}
	}
}

// The knee is where the server stopped keeping up for good: a step missed
// before one kept up with again is a stall that passed, said so, not the
// limit.
func TestRampKneeIsWhereMissesLast(t *testing.T) {
	l := cli.LoadConfig{Ramp: true, RampFrom: 100, RampTo: 500, RampHold: time.Second, RampSteps: 5}
	rates := l.RampRates()
	steps := make([]*stepStats, len(rates))
	for i, r := range rates {
		st := &stepStats{latency: hdr.New(histMin, histMax, histDigits), sent: int64(r), answered: int64(r), answersInWindow: int64(r)}
		if i == 1 || i >= 3 {
			st.answersInWindow = int64(r / 2) // missed
		}
		for range st.sent {
			st.latency.RecordValue(1000)
		}
		steps[i] = st
	}
	r := rampReport(l, rates, steps)
	if r.Knee != 4 || r.KneeRate != 400 || r.Sustained != 300 || len(r.Passing) != 1 || r.Passing[0] != 2 {
		t.Errorf("knee %d at %g/s, sustained %g/s, passing %v: want the knee at step 4 (400/s), 300/s sustained, step 2 passing", r.Knee, r.KneeRate, r.Sustained, r.Passing)
	}
	var b strings.Builder
	writeRamp(func(f string, a ...any) { fmt.Fprintf(&b, f+"\n", a...) }, r)
	if !strings.Contains(b.String(), "step 2 missed, then a higher rate was kept up with again") {
		t.Errorf("the passing step is not named:\n%s", b.String())
	}
	steps[3].answersInWindow, steps[4].answersInWindow = 400, 500
	if r := rampReport(l, rates, steps); r.Knee != 0 || r.Sustained != 500 || len(r.Passing) != 1 {
		t.Errorf("kept up with the last step: knee %d, sustained %g, passing %v", r.Knee, r.Sustained, r.Passing)
	}
}
