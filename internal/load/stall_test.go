package load

import (
	"context"
	"strconv"
	"testing"
)

// Coordinated omission, shown corrected. The server serves one call at a
// time and its 50th call stalls for 1 s, once. The open loop sends at
// 100/s whatever the server does, so the requests due in the stall's
// first 100 ms (10 of them, more than 1% of the 300 sent) wait at least
// 900 ms from their due time, and those due in its first half (50, more
// than 10%) at least 500 ms: p99, p90 and max show the stall's queueing.
// A closed-loop tool (one request in flight, timed from its send: what
// the Inspector's --load does) sends nothing while it waits, so the
// stall is one slow request among its 300: its max sees it, its p99 does
// not. Both relations hold however slow the machine: slowness only
// lengthens the open loop's queue.
func TestStallOpenLoopShowsCoordinatedOmission(t *testing.T) {
	t.Parallel() // waits on its rates and durations, not on the CPU
	srv := server("slow", delayEnv+"=1", serialEnv+"=1", stallAtEnv+"=50", stallMSEnv+"=1000")
	open := runLoad(t, context.Background(), append([]string{"call", "work", "--rate", "100", "--duration", "3s"}, srv...)...)
	if open.code != 0 || open.rep.Requests != 300 || len(open.rep.Errors) != 0 {
		t.Fatalf("open loop: exit %d, %d requests, errors %v\n%s", open.code, open.rep.Requests, open.rep.Errors, open.stderr)
	}
	closed := runLoad(t, context.Background(), append([]string{"call", "work", "--concurrency", "1", "--max-requests", "300", "--duration", "10m"}, srv...)...)
	if closed.code != 0 || closed.rep.Requests != 300 || len(closed.rep.Errors) != 0 {
		t.Fatalf("closed loop: exit %d, %d requests, errors %v\n%s", closed.code, closed.rep.Requests, closed.rep.Errors, closed.stderr)
	}
	o, c := open.rep.Latency, closed.rep.Latency
	t.Logf("open loop (from the due time): p50 %s p90 %s p99 %s max %s ms", ms(o.P50), ms(o.P90), ms(o.P99), ms(o.Max))
	t.Logf("closed loop (from the send):   p50 %s p90 %s p99 %s max %s ms", ms(c.P50), ms(c.P90), ms(c.P99), ms(c.Max))
	for _, f := range []struct {
		name      string
		got, over float64
	}{{"max", o.Max, 1000}, {"p99", o.P99, 900}, {"p90", o.P90, 500}} {
		if f.got < f.over {
			t.Errorf("open loop %s %s ms: the stall's queueing is missing (want at least %s ms)", f.name, ms(f.got), strconv.Itoa(int(f.over)))
		}
	}
	if c.Max < 1000 {
		t.Errorf("closed loop max %s ms: the stalled call itself took 1 s", ms(c.Max))
	}
	// The closed loop's p99 is the fourth slowest of its 300: the stall
	// is one request, the other slow ones would be the machine's.
	if c.P99 >= 500 {
		t.Errorf("closed loop p99 %s ms: it should hide the stall (one request in 300)", ms(c.P99))
	}
}
