package telemetry

import (
	"context"
	crand "crypto/rand"
	"encoding/binary"
	"math/rand/v2"
	"sync"

	"go.opentelemetry.io/otel/trace"
)

// idGenerator makes random ids, except where the context asks for given
// ones: the span id a request's _meta.traceparent already named (so the
// server's span, parented on it, finds its parent), the trace id a
// recording's requests carried.
type idGenerator struct {
	mu  sync.Mutex
	rng *rand.Rand
}

func newIDGenerator() *idGenerator {
	var seed [32]byte
	_, _ = crand.Read(seed[:])
	return &idGenerator{rng: rand.New(rand.NewChaCha8(seed))}
}

type wantSpanID struct{}
type wantTraceID struct{}

func withSpanID(ctx context.Context, id trace.SpanID) context.Context {
	return context.WithValue(ctx, wantSpanID{}, id)
}

func withTraceID(ctx context.Context, id trace.TraceID) context.Context {
	return context.WithValue(ctx, wantTraceID{}, id)
}

func (g *idGenerator) NewIDs(ctx context.Context) (trace.TraceID, trace.SpanID) {
	tid, ok := ctx.Value(wantTraceID{}).(trace.TraceID)
	if !ok || !tid.IsValid() {
		tid = g.traceID()
	}
	return tid, g.NewSpanID(ctx, tid)
}

func (g *idGenerator) NewSpanID(ctx context.Context, _ trace.TraceID) trace.SpanID {
	if sid, ok := ctx.Value(wantSpanID{}).(trace.SpanID); ok && sid.IsValid() {
		return sid
	}
	return g.spanID()
}

func (g *idGenerator) traceID() trace.TraceID {
	g.mu.Lock()
	defer g.mu.Unlock()
	var id trace.TraceID
	for !id.IsValid() {
		binary.NativeEndian.PutUint64(id[:8], g.rng.Uint64())
		binary.NativeEndian.PutUint64(id[8:], g.rng.Uint64())
	}
	return id
}

func (g *idGenerator) spanID() trace.SpanID {
	g.mu.Lock()
	defer g.mu.Unlock()
	var id trace.SpanID
	for !id.IsValid() {
		binary.NativeEndian.PutUint64(id[:], g.rng.Uint64())
	}
	return id
}

// NewSpanID returns a fresh random span id, for a request's traceparent
// minted before its span starts.
func (g *idGenerator) newSpanID() trace.SpanID { return g.spanID() }
