package load

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"sync"
	"time"

	hdr "github.com/HdrHistogram/hdrhistogram-go"

	"github.com/mcptui/mcptui/internal/inert"
	"github.com/mcptui/mcptui/mcp"
)

// The kinds of error a request can end with, besides "rpc CODE" (a
// JSON-RPC error answer with that code).
const (
	KindIsError    = "isError"    // a tool result with isError: true
	KindTimeout    = "timeout"    // no answer within --timeout
	KindTransport  = "transport"  // the server exited, hung up, or HTTP failed
	KindUnfinished = "unfinished" // still unanswered when the run ended (Ctrl-C, or the end of the drain)
)

// Histogram range and precision: microseconds from 1 µs to one hour, three
// significant digits (every figure within 0.1% of the true value).
const (
	histMin    = 1
	histMax    = int64(time.Hour / time.Microsecond)
	histDigits = 3
)

// classify names the kind of a failed request. ended reports whether the
// run had already cancelled the request.
func classify(err error, ended bool) string {
	var e *mcp.Error
	switch {
	case ended && (errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded)):
		return KindUnfinished
	case errors.As(err, &e) && e.Code == mcp.CodeTimeout:
		return KindTimeout
	case errors.As(err, &e) && e.Code == mcp.CodeConnection && (e.Cause != nil || strings.HasPrefix(e.Message, "The stdio ")):
		return KindTransport
	case errors.As(err, &e):
		return "rpc " + strconv.Itoa(e.Code)
	case ended:
		return KindUnfinished
	}
	return KindTransport
}

// recorder collects the measured requests' figures; it is safe for
// concurrent use.
type recorder struct {
	mu sync.Mutex
	// from is when measuring starts: requests due before it are the
	// warm-up's.
	from time.Time
	// latency is from the time each request was due (open loop) or sent
	// (closed loop); service from the time it was sent.
	latency, service *hdr.Histogram
	sent, answered   int64
	errors           map[string]int64
	sample           map[string]string // the first message of each kind
	last             time.Time         // the last measured request's end
	// warm counts the warm-up's requests.
	warm int64
	// steps are a --ramp's steps, each hold long from from: a request
	// counts in the step it was due in, its answer in the step it came in.
	steps []*stepStats
	hold  time.Duration
	// completed counts every request ended, the warm-up's too; tickMax is
	// the slowest latency (µs) since the live view last read it.
	completed int64
	tickMax   int64
}

// liveSnapshot is what the live view reads of a recorder.
type liveSnapshot struct {
	answered, completed, tickMaxUS int64
}

// snapshot reads the live view's figures and starts a new interval.
func (r *recorder) snapshot() liveSnapshot {
	r.mu.Lock()
	defer r.mu.Unlock()
	s := liveSnapshot{answered: r.answered, completed: r.completed, tickMaxUS: r.tickMax}
	r.tickMax = 0
	return s
}

// stepStats are one ramp step's figures.
type stepStats struct {
	latency         *hdr.Histogram
	sent, answered  int64
	failed          int64
	answersInWindow int64
}

// ramp makes r keep n steps' figures, each hold long.
func (r *recorder) ramp(hold time.Duration, n int) {
	r.hold = hold
	r.steps = make([]*stepStats, n)
	for i := range r.steps {
		r.steps[i] = &stepStats{latency: hdr.New(histMin, histMax, histDigits)}
	}
}

// stepAt is the ramp step t falls in, or nil.
func (r *recorder) stepAt(t time.Time) *stepStats {
	if len(r.steps) == 0 || t.Before(r.from) {
		return nil
	}
	k := int(t.Sub(r.from) / r.hold)
	if k >= len(r.steps) {
		return nil
	}
	return r.steps[k]
}

func newRecorder(from time.Time) *recorder {
	return &recorder{
		from:    from,
		latency: hdr.New(histMin, histMax, histDigits),
		service: hdr.New(histMin, histMax, histDigits),
		errors:  map[string]int64{},
		sample:  map[string]string{},
	}
}

// record adds one request: due when it should have been sent, sent when it
// was, end when its answer (or failure) came.
func (r *recorder) record(due, sent, end time.Time, isError bool, err error, ended bool) {
	kind := ""
	switch {
	case err != nil:
		kind = classify(err, ended)
	case isError:
		kind = KindIsError
	}
	answered := kind == "" || strings.HasPrefix(kind, "rpc ") || kind == KindIsError
	r.mu.Lock()
	defer r.mu.Unlock()
	// An answer counts in the ramp step it came in, the warm-up's too:
	// that is the rate the server answered at then.
	if st := r.stepAt(end); st != nil && answered {
		st.answersInWindow++
	}
	r.completed++
	r.tickMax = max(r.tickMax, clampMicros(end.Sub(due)))
	if due.Before(r.from) {
		r.warm++
		return
	}
	r.sent++
	if end.After(r.last) {
		r.last = end
	}
	_ = r.latency.RecordValue(clampMicros(end.Sub(due))) // clamped: in the histogram's range
	_ = r.service.RecordValue(clampMicros(end.Sub(sent)))
	if answered {
		r.answered++
	}
	if st := r.stepAt(due); st != nil {
		st.sent++
		_ = st.latency.RecordValue(clampMicros(end.Sub(due)))
		if answered {
			st.answered++
		}
		if kind != "" {
			st.failed++
		}
	}
	if kind != "" {
		r.errors[kind]++
		if _, ok := r.sample[kind]; !ok {
			msg := "the tool returned isError: true"
			if err != nil {
				msg = inert.Line(inert.Clip(err.Error(), 300))
			}
			r.sample[kind] = msg
		}
	}
}

// clampMicros is d in microseconds, within the histogram's range.
func clampMicros(d time.Duration) int64 {
	us := d.Microseconds()
	if us < histMin {
		return histMin
	}
	if us > histMax {
		return histMax
	}
	return us
}
