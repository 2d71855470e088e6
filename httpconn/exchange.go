package httpconn

import (
	"context"
	"errors"
	"io"
	"net/http"
	"sync"
	"time"
)

// ExchangeUpdate is what became of an exchange after its response's
// headers (the Exchange): one more message its body delivered, or the
// body's end. Messages and Bytes are running totals, so that a consumer
// that skips updates under load loses nothing the next one does not say.
type ExchangeUpdate struct {
	// ID is the Exchange's.
	ID   uint64
	Time time.Time
	// Messages is how many messages (a JSON body, or SSE events with
	// data, over-limit ones included) the body delivered so far; Bytes
	// how many body bytes were read.
	Messages int
	Bytes    int64
	// Message is the message just delivered as the Observer saw it (read
	// only; do not keep it), nil at the end and for one over the limit;
	// Size is its size in bytes.
	Message []byte
	Size    int
	// End marks the end of the body: read to its end, broken (Err), or
	// closed by the client before its end (Closed; also a body whose end
	// came after the client's Close began, such as a GET stream the
	// server ended when the session's DELETE arrived).
	End    bool
	Closed bool
	Err    error
}

// exchangeBody is a response body that reports its exchange's progress:
// the bytes read, the messages dispatched from it (carried) and its end.
type exchangeBody struct {
	io.ReadCloser
	c  *Conn
	id uint64

	// empty says the response announced no body (Content-Length: 0).
	empty bool

	mu       sync.Mutex
	bytes    int64
	messages int
	eof      bool
	err      error
	ended    bool
	// afterStop says the end was read once the client's Close had
	// begun: the client's doing, whatever the body saw.
	afterStop bool
}

func (b *exchangeBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	b.mu.Lock()
	b.bytes += int64(n)
	switch {
	case err == io.EOF:
		b.eof, b.afterStop = true, b.c.stopping()
	case err != nil && b.err == nil:
		b.err = err
	}
	b.mu.Unlock()
	return n, err
}

// Close closes the body and reports its end, once.
func (b *exchangeBody) Close() error {
	err := b.ReadCloser.Close()
	b.mu.Lock()
	if b.ended {
		b.mu.Unlock()
		return err
	}
	b.ended = true
	u := ExchangeUpdate{ID: b.id, Time: time.Now(), Messages: b.messages, Bytes: b.bytes, End: true}
	switch {
	case b.afterStop:
		u.Closed = true // the client's Close came first (it cancels, then DELETEs the session)
	case b.eof, b.empty:
	case b.err != nil && !errors.Is(b.err, context.Canceled):
		u.Err = b.err
	default:
		u.Closed = true // the client stopped reading (a call ended, Close)
	}
	b.mu.Unlock()
	b.c.opts.OnExchangeUpdate(u)
	return err
}

// watchBody makes resp's body report exchange id's progress, when someone
// listens.
func (c *Conn) watchBody(resp *http.Response, id uint64) {
	if c.opts.OnExchangeUpdate != nil && resp.Body != nil {
		resp.Body = &exchangeBody{ReadCloser: resp.Body, c: c, id: id, empty: resp.ContentLength == 0}
	}
}

// carried reports a message (msg, or nil for one of size bytes over the
// limit) that resp's body delivered, after it was dispatched.
func (c *Conn) carried(resp *http.Response, msg []byte, size int) {
	b, ok := resp.Body.(*exchangeBody)
	if !ok {
		return
	}
	b.mu.Lock()
	b.messages++
	u := ExchangeUpdate{ID: b.id, Time: time.Now(), Messages: b.messages, Bytes: b.bytes, Message: msg, Size: size}
	b.mu.Unlock()
	c.opts.OnExchangeUpdate(u)
}
