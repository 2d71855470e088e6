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
	r.mu.Lock()
	defer r.mu.Unlock()
	if due.Before(r.from) {
		r.warm++
		return
	}
	r.sent++
	if end.After(r.last) {
		r.last = end
	}
	r.latency.RecordValue(clampMicros(end.Sub(due)))
	r.service.RecordValue(clampMicros(end.Sub(sent)))
	kind := ""
	switch {
	case err != nil:
		kind = classify(err, ended)
	case isError:
		kind = KindIsError
	}
	if kind == "" || strings.HasPrefix(kind, "rpc ") || kind == KindIsError {
		r.answered++
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
