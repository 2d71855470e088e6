package conn

import (
	"context"
	"errors"
	"fmt"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/mcptui/mcptui/internal/rpccall"
)

// serverRequest runs the handler for a request the server sent, in its own
// goroutine, or answers at once when there is no handler or too many run.
func (c *Conn) serverRequest(m message) {
	if c.opts.OnServerRequest == nil {
		c.answer(m.id, nil, &Error{Code: CodeMethodNotFound, Message: "Method not found: " + m.method})
		return
	}
	key := rpccall.MatchKey(m.id)
	c.mu.Lock()
	if c.stopErr != nil {
		c.mu.Unlock()
		return
	}
	if c.runningHandlers >= c.maxServerRequests {
		c.mu.Unlock()
		c.answer(m.id, nil, &Error{Code: CodeInternal,
			Message: fmt.Sprintf("Too many server requests in flight (%d)", c.maxServerRequests)})
		return
	}
	c.runningHandlers++
	ctx, cancel := context.WithCancel(c.handlerCtx)
	sr := &serverRequest{id: m.id, cancel: cancel}
	c.serverRequests[key] = sr
	c.mu.Unlock()

	req := &Request{ID: m.id, Method: m.method, Params: m.params}
	go c.runHandler(ctx, sr, key, req)
}

// serverRequest is a server request whose handler runs.
type serverRequest struct {
	id     []byte
	cancel context.CancelFunc
	// answered is set (under Conn.mu) by whoever writes the one answer:
	// the handler, or Shutdown's farewell.
	answered bool
}

// claim reports whether the caller may write the request's answer, and
// makes sure nobody else does.
func (c *Conn) claim(sr *serverRequest) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if sr.answered {
		return false
	}
	sr.answered = true
	return true
}

// runHandler runs the handler and writes its answer unless the request was
// cancelled or the connection stopped meanwhile. The handler's slot frees once
// the answer is written.
func (c *Conn) runHandler(ctx context.Context, sr *serverRequest, key string, req *Request) {
	defer func() {
		c.mu.Lock()
		c.runningHandlers--
		delete(c.serverRequests, key)
		c.mu.Unlock()
		sr.cancel()
	}()
	result, err := safeHandle(ctx, c.opts.OnServerRequest, req)
	if ctx.Err() != nil || !c.claim(sr) {
		return
	}
	var e *Error
	switch {
	case err == nil && len(result) == 0:
		result = emptyObject
	case err == nil && !jsontext.Value(result).IsValid():
		e = &Error{Code: CodeInternal, Message: "Input handler returned invalid JSON"}
	case err == nil:
		result = rpccall.CompactLine(result)
	case errors.As(err, &e):
	default:
		e = &Error{Code: CodeInternal, Message: "Input handler failed: " + err.Error()}
	}
	done := make(chan error, 1)
	if c.answerWith(req.ID, result, e, done) {
		select {
		case <-done:
		case <-ctx.Done():
		}
	}
}

// safeHandle runs the handler, turning a panic into an error.
func safeHandle(ctx context.Context, h Handler, req *Request) (result []byte, err error) {
	defer func() {
		if r := recover(); r != nil {
			result, err = nil, fmt.Errorf("panic: %v", r)
		}
	}()
	return h(ctx, req)
}

// answer queues a response to a server request without waiting for it.
func (c *Conn) answer(id, result []byte, e *Error) {
	c.answerWith(id, result, e, nil)
}

func (c *Conn) answerWith(id, result []byte, e *Error, done chan error) bool {
	var errObj []byte
	if e != nil {
		errObj = encodeError(e)
	}
	line := appendResponse(make([]byte, 0, len(result)+len(errObj)+len(id)+32), id, result, errObj)
	return c.w.enqueue(&outgoing{line: line, done: done})
}
