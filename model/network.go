package model

import (
	"bytes"
	"mime"
	"strings"
	"time"
)

// The network view of an HTTP server (pane 5): every HTTP exchange, with
// its status, timing, headers (redacted before they get here) and the
// JSON-RPC messages it carried — an index into the traffic history, never
// a copy of a body.

// DefaultExchanges is how many exchanges the network book keeps at most.
const DefaultExchanges = 2000

// MaxCarried is how many of the messages one response delivered the book
// indexes (an SSE stream may deliver any number; it counts them all).
const MaxCarried = 16

// lookBack is how many traffic entries are searched, newest first, for the
// line of a message an exchange carried: it crossed the wire just before.
const lookBack = 256

// Header is one HTTP header line.
type Header struct{ Name, Value string }

// Exchange is one HTTP request and its response's headers (or its
// failure), as httpconn reports it, secrets already redacted by whoever
// made the event.
type Exchange struct {
	Stamp
	// ID numbers the connection's exchanges (ExchangeUpdate.ID).
	ID             uint64
	Method, URL    string
	Transport      string // "http" (Streamable HTTP) or "sse" (2024-11-05)
	Status         int    // 0 when no response came
	Duration       time.Duration
	Err            string // why no response came
	RequestHeader  []Header
	ResponseHeader []Header
	RequestBytes   int
	ResponseBytes  int64 // the Content-Length, -1 when unknown
	// Body is the request's body, read for the messages it carried and not
	// kept: the caller may share it.
	Body []byte
}

// ExchangeUpdate is news of an exchange's response body: a message it
// delivered (running totals in Messages and Bytes), or its end.
type ExchangeUpdate struct {
	Stamp
	ID       uint64
	Messages int
	Bytes    int64
	// Message is the message delivered, read and not kept (nil at the
	// end, or when only the totals are told); Size is its size. Over
	// marks a message over the limit (Message nil).
	Message []byte
	Size    int
	Over    bool
	// End marks the body's end: read to its end, Closed by the client
	// before it, or broken (Err).
	End    bool
	Closed bool
	Err    string
}

// MessageRef is a JSON-RPC message an exchange carried: its traffic line
// (Seq, 0 when it was not found) and its envelope.
type MessageRef struct {
	Seq    uint64
	Kind   Kind
	ID     string
	Method string
	// Target is what a request is about: a tool, prompt or resource.
	Target string
	Size   int
}

// NetExchange is one exchange as the network view lists it.
type NetExchange struct {
	Gen            int
	ID             uint64
	Time           time.Time
	Method, URL    string
	Transport      string
	Status         int
	Headers        time.Duration // the time to the response's headers
	Err            string
	RequestHeader  []Header
	ResponseHeader []Header
	RequestBytes   int
	ContentLength  int64
	ContentType    string // the media type alone
	// Resume marks a GET that resumes a broken stream (Last-Event-ID).
	Resume bool
	// Sent are the messages of the request's body; Received the first
	// MaxCarried the response delivered, of Messages in all.
	Sent, Received []MessageRef
	Messages       int
	Bytes          int64
	// Open says the response's body is still being read (an SSE stream).
	Open bool
	// Ended is when the body ended; EndErr why it broke, Closed that the
	// client closed it before its end.
	Ended  time.Time
	EndErr string
	Closed bool
}

// Failed reports whether the exchange failed: no response, an HTTP error
// status, or a body that broke.
func (x *NetExchange) Failed() bool { return x.Err != "" || x.Status >= 400 || x.EndErr != "" }

// Took is the exchange's duration: to the body's end once it ended, else
// to the response's headers.
func (x *NetExchange) Took() time.Duration {
	if !x.Ended.IsZero() {
		return x.Ended.Sub(x.Time)
	}
	return x.Headers
}

// HeaderValue is the first value of the named header (case-insensitive) in
// h, "" when absent.
func HeaderValue(h []Header, name string) string {
	for _, kv := range h {
		if strings.EqualFold(kv.Name, name) {
			return kv.Value
		}
	}
	return ""
}

type netKey struct {
	gen int
	id  uint64
}

// NetBook is the HTTP exchanges, oldest first, at most DefaultExchanges.
type NetBook struct {
	max    int
	list   []*NetExchange
	head   int
	byKey  map[netKey]*NetExchange
	total  int
	failed int
}

func newNetBook(n int) *NetBook {
	if n <= 0 {
		n = DefaultExchanges
	}
	return &NetBook{max: n, byKey: map[netKey]*NetExchange{}}
}

// Len is the number of exchanges kept.
func (b *NetBook) Len() int { return len(b.list) - b.head }

// At is the i-th kept exchange, oldest first (0 <= i < Len). It is shared:
// do not modify it.
func (b *NetBook) At(i int) *NetExchange { return b.list[b.head+i] }

// Total is how many exchanges there were; Dropped how many of them are no
// longer kept; Failed how many failed (see NetExchange.Failed).
func (b *NetBook) Total() int   { return b.total }
func (b *NetBook) Dropped() int { return b.total - b.Len() }
func (b *NetBook) Failed() int  { return b.failed }

// add keeps x, forgetting the oldest exchange past the bound.
func (b *NetBook) add(x *NetExchange) {
	b.total++
	if x.Failed() {
		b.failed++
	}
	b.list = append(b.list, x)
	b.byKey[netKey{x.Gen, x.ID}] = x
	for b.Len() > b.max {
		old := b.list[b.head]
		delete(b.byKey, netKey{old.Gen, old.ID})
		b.list[b.head] = nil
		b.head++
	}
	if b.head > b.max { // compact: the slice holds at most twice the bound
		b.list = append(b.list[:0:0], b.list[b.head:]...)
		b.head = 0
	}
}

// Network is the HTTP exchanges (empty for a stdio server).
func (s *Session) Network() *NetBook {
	if s.net == nil {
		s.net = newNetBook(DefaultExchanges)
	}
	return s.net
}

// exchange folds the start of an exchange.
func (s *Session) exchange(e Exchange) {
	gen := e.Gen
	if gen == 0 {
		gen = s.conn.Gen
	}
	x := &NetExchange{Gen: gen, ID: e.ID, Time: e.Time, Method: e.Method, URL: e.URL, Transport: e.Transport,
		Status: e.Status, Headers: e.Duration, Err: e.Err, RequestHeader: e.RequestHeader, ResponseHeader: e.ResponseHeader,
		RequestBytes: e.RequestBytes, ContentLength: e.ResponseBytes}
	x.ContentType, _, _ = mime.ParseMediaType(HeaderValue(e.ResponseHeader, "Content-Type"))
	x.Resume = HeaderValue(e.RequestHeader, "Last-Event-ID") != ""
	x.Open = e.Err == "" && e.Status != 0
	if len(e.Body) > 0 {
		if kind(e.Body) == '[' {
			eachElement(e.Body, func(el []byte) bool {
				if len(x.Sent) < MaxCarried {
					x.Sent = append(x.Sent, s.carriedRef(Out, el, len(el), true))
				}
				return true
			})
		} else {
			x.Sent = append(x.Sent, s.carriedRef(Out, e.Body, len(e.Body), false))
		}
	}
	s.Network().add(x)
}

// exchangeUpdate folds news of an exchange's body.
func (s *Session) exchangeUpdate(u ExchangeUpdate) {
	gen := u.Gen
	if gen == 0 {
		gen = s.conn.Gen
	}
	b := s.Network()
	x := b.byKey[netKey{gen, u.ID}]
	if x == nil {
		return // forgotten past the bound, or never seen
	}
	x.Messages, x.Bytes = max(x.Messages, u.Messages), max(x.Bytes, u.Bytes)
	if !u.End && len(x.Received) < MaxCarried {
		switch {
		case u.Over:
			x.Received = append(x.Received, s.carriedRef(In, nil, u.Size, false))
		case kind(u.Message) == '[':
			eachElement(u.Message, func(el []byte) bool {
				if len(x.Received) < MaxCarried {
					x.Received = append(x.Received, s.carriedRef(In, el, len(el), true))
				}
				return true
			})
		case u.Message != nil:
			x.Received = append(x.Received, s.carriedRef(In, u.Message, u.Size, false))
		}
	}
	if u.End && x.Open {
		failedBefore := x.Failed()
		x.Open, x.Ended, x.Closed, x.EndErr = false, u.Time, u.Closed, u.Err
		if !failedBefore && x.Failed() {
			b.failed++
		}
	}
}

// carriedRef describes a message an exchange carried, found in the
// traffic history: the newest line of that direction with those bytes
// (or a batch line holding them, when part says msg is a batch's element), else with that envelope
// (a line the inspector kept only the envelope of), else for a message
// over the limit the newest discarded line of that size.
func (s *Session) carriedRef(dir Direction, msg []byte, size int, part bool) MessageRef {
	ref := MessageRef{Size: size}
	if msg == nil {
		ref.Kind = KindDiscarded
		s.findLine(func(e *Entry) bool { return e.Dir == dir && e.Kind == KindDiscarded && e.Size == size }, &ref)
		return ref
	}
	env := parseEnvelope(msg)
	ref.Kind, ref.Method = env.kind, clip(env.method)
	if env.kind == KindRequest {
		ref.Target = clip(target(env.method, env.params))
	}
	if env.id != nil {
		ref.ID = clip(string(env.id))
	}
	exact := func(e *Entry) bool {
		return e.Dir == dir && (bytes.Equal(e.Raw, msg) || part && e.Kind == KindBatch && bytes.Contains(e.Raw, msg))
	}
	if !s.findLine(exact, &ref) {
		s.findLine(func(e *Entry) bool {
			return e.Dir == dir && e.Kind == env.kind && e.Method == env.method && bytes.Equal(e.ID, env.id)
		}, &ref)
	}
	return ref
}

// findLine sets ref.Seq to the newest of the last lookBack traffic entries
// that match, reporting whether one did.
func (s *Session) findLine(match func(*Entry) bool, ref *MessageRef) bool {
	h := s.history
	for i := h.Len() - 1; i >= 0 && i >= h.Len()-lookBack; i-- {
		if e := h.At(i); match(e) {
			ref.Seq = e.Seq
			return true
		}
	}
	return false
}
