package telemetry

import (
	"strings"

	"go.opentelemetry.io/otel/trace"

	"github.com/mcptui/mcptui/httpconn"
	"github.com/mcptui/mcptui/internal/record"
	"github.com/mcptui/mcptui/internal/wiremsg"
)

// TraceRecording traces a whole recording on tp, with its own timings: the
// session span from the header to the last entry, a span per request.
// parent, when valid, is the caller's span (--traceparent). A recording
// whose requests carried a traceparent (it was made with tracing on) is
// traced in that trace, each request with the span id it carried. It
// returns the trace id.
func TraceRecording(tp trace.TracerProvider, rec *record.Recording, parent trace.SpanContext) trace.TraceID {
	s := Session{Command: rec.Header.Command, Args: rec.Header.Args, Mode: rec.Header.Mode, Parent: parent,
		HTTP:               strings.Contains(rec.Header.Command, "://"),
		ForeignTraceParent: rec.Header.Mode == "tap"}
	if !parent.IsValid() && !s.ForeignTraceParent {
		s.TraceID = recordedTrace(rec)
	}
	t := NewTracer(tp, rec.Header.Time, s)
	end := rec.Header.Time
	for i := range rec.Entries {
		e := &rec.Entries[i]
		if e.Time.After(end) {
			end = e.Time
		}
		switch e.Type {
		case record.TypeSent, record.TypeReceived:
			if e.Withheld {
				continue // a tap's breakpoint kept it from going on
			}
			t.Message(e.Time, e.Type == record.TypeReceived, e.Content())
		case record.TypeDiscarded:
			t.Discarded(e.Time, e.Reason)
		case record.TypeStderr:
			t.Stderr(e.Time, string(e.Content()))
		case record.TypeReady:
			name, version := "", ""
			if e.Server != nil {
				name, version = e.Server.Name, e.Server.Version
			}
			t.Ready(e.Time, e.Protocol, name, version, e.PID)
		case record.TypeExit:
			status := ""
			if e.Status != nil {
				status = *e.Status
			}
			t.Exit(e.Time, status)
		case record.TypeFailed:
			t.Failed(e.Time, e.Error)
		case record.TypeHTTP:
			t.SessionID(recordedSessionID(e))
		}
	}
	t.End(end)
	return t.SpanContext().TraceID()
}

// recordedTrace is the trace id of the first client request of rec that
// carried a traceparent, or the zero id.
func recordedTrace(rec *record.Recording) trace.TraceID {
	for i := range rec.Entries {
		e := &rec.Entries[i]
		if e.Type != record.TypeSent {
			continue
		}
		m, ok := wiremsg.Parse(e.Content())
		if !ok || m.Kind != wiremsg.Request || m.TraceParent == "" {
			continue
		}
		if sc, err := ParseTraceParent(m.TraceParent); err == nil {
			return sc.TraceID()
		}
	}
	return trace.TraceID{}
}

// recordedSessionID is the Mcp-Session-Id an HTTP exchange of the
// recording carried (its answer's, else its request's), redacted as the
// recorder redacts it; "" without one.
func recordedSessionID(e *record.Entry) string {
	for _, hs := range [][]record.HeaderPair{e.ResponseHeaders, e.RequestHeaders} {
		for _, h := range hs {
			if strings.EqualFold(h.Name, httpconn.HeaderSessionID) {
				return record.RedactRecordedHeader(h.Name, h.Value)
			}
		}
	}
	return ""
}
