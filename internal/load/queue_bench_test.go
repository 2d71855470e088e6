package load

import (
	"context"
	"fmt"
	"math"
	"testing"
	"time"
)

// Queueing theory as a benchmark assertion (go test -run X -bench
// QueueingTheory ./internal/load): it measures time, so it is not a
// test, but it fails when the figures leave the tolerance below.
//
// The scripted server serves c = 4 calls at once, each S = 50 ms (a
// timer), the rest waiting first come first served: an M/D/c-like queue
// whose ceiling is mu = c/S = 80 calls a second, whatever the arrival
// process.
//
//  1. Ceiling: a closed loop keeping 4c calls in flight keeps every worker
//     busy, so it measures mu. It must come within ceilingTolerance below
//     c/S (a timer fires late, never early, and the hand-off between calls
//     costs a little) and not above it by more than the 2% a measuring
//     window's edges can add.
//  2. Overload: an open loop at lambda = 1.5 c/S for T = 3 s. The server
//     answers at its ceiling mu (the rate it answered at in this run,
//     which must be within ceilingTolerance of c/S too), so the backlog
//     grows at lambda - mu and a request due at t waits t*(lambda/mu - 1)
//     before its S: latencies spread evenly from S to S + T*(lambda/mu - 1).
//     The median is predicted at S + T/2*(lambda/mu - 1) and the max at
//     S + T*(lambda/mu - 1); each must be within latencyTolerance.
//
// The machine must be quiet enough to wake the server's timers on time: a
// load average far above the cores makes the server answer late and the
// ceiling check fail, which is the check doing its work.
const (
	queueWorkers     = 4
	queueService     = 50 * time.Millisecond
	queueOverload    = 1.5
	queueOverloadFor = 3 * time.Second
	ceilingTolerance = 0.15
	latencyTolerance = 0.25
)

func BenchmarkQueueingTheory(b *testing.B) {
	srv := server("slow", fmt.Sprintf("%s=%d", delayEnv, queueService.Milliseconds()), fmt.Sprintf("%s=%d", workersEnv, queueWorkers))
	theory := float64(queueWorkers) / queueService.Seconds()
	lambda := queueOverload * theory
	for range b.N {
		closed := runLoad(b, context.Background(), append([]string{"call", "work", "--concurrency", fmt.Sprint(4 * queueWorkers),
			"--warmup", "500ms", "--duration", "3s"}, srv...)...)
		if closed.code != 0 || len(closed.rep.Errors) != 0 {
			b.Fatalf("closed loop: exit %d, errors %v\n%s", closed.code, closed.rep.Errors, closed.stderr)
		}
		mu := closed.rep.Throughput
		b.ReportMetric(mu, "ceiling/s")
		b.ReportMetric(theory, "c/S/s")
		if mu < (1-ceilingTolerance)*theory || mu > 1.02*theory {
			b.Errorf("ceiling %.1f/s, queueing theory gives c/S = %.0f/s (tolerance -%.0f%%, +2%%)", mu, theory, 100*ceilingTolerance)
		}

		open := runLoad(b, context.Background(), append([]string{"call", "work", "--rate", fmt.Sprint(lambda),
			"--duration", queueOverloadFor.String()}, srv...)...)
		if open.code != 0 || len(open.rep.Errors) != 0 {
			b.Fatalf("open loop: exit %d, errors %v\n%s", open.code, open.rep.Errors, open.stderr)
		}
		mu = open.rep.Throughput
		b.ReportMetric(mu, "overload-ceiling/s")
		if mu < (1-ceilingTolerance)*theory || mu > 1.02*theory {
			b.Errorf("under overload the server answered %.1f/s, queueing theory gives c/S = %.0f/s (tolerance -%.0f%%, +2%%)", mu, theory, 100*ceilingTolerance)
		}
		growth := queueOverloadFor.Seconds() * (lambda/mu - 1) * 1000 // ms
		s := float64(queueService.Milliseconds())
		wantP50, wantMax := s+growth/2, s+growth
		b.ReportMetric(open.rep.Latency.P50, "p50-ms")
		b.ReportMetric(wantP50, "p50-theory-ms")
		b.ReportMetric(open.rep.Latency.Max, "max-ms")
		b.ReportMetric(wantMax, "max-theory-ms")
		for _, c := range []struct {
			name      string
			got, want float64
		}{{"p50", open.rep.Latency.P50, wantP50}, {"max", open.rep.Latency.Max, wantMax}} {
			if math.Abs(c.got-c.want) > latencyTolerance*c.want {
				b.Errorf("overload at %.0f/s against a %.1f/s ceiling: latency %s %.0f ms, the queue predicts %.0f ms (tolerance %.0f%%)",
					lambda, mu, c.name, c.got, c.want, 100*latencyTolerance)
			}
		}
	}
}
