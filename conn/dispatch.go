package conn

import (
	"bytes"
	"errors"
	"fmt"
	"time"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/mcptui/mcptui/internal/jsonscan"
	"github.com/mcptui/mcptui/internal/rpccall"

	"github.com/mcptui/mcptui/internal/protocol"
)

// subscriptionIDKey is the _meta key that tags subscription notifications.
const subscriptionIDKey = "io.modelcontextprotocol/subscriptionId"

var utf8BOM = []byte{0xEF, 0xBB, 0xBF}

// handleLine dispatches one line read from the server. First match wins: a
// request from the server, a subscription's terminal response, a response to
// a pending call, a subscription notification, progress for a pending call, a
// cancellation of a running server request, and then OnNotification.
func (c *Conn) handleLine(line []byte, size int) {
	line = bytes.TrimPrefix(line, utf8BOM)
	if len(bytes.TrimSpace(line)) == 0 {
		return
	}
	if c.acceptBatches.Load() && isArray(line) {
		c.handleBatch(line, size)
		return
	}
	m, err := parseMessage(line)
	if err != nil {
		c.observe(Discarded, line, size, err)
		if err == errTooDeep {
			c.failLost(line, err)
		}
		return
	}
	c.dispatch(m, line, size, false)
}

// failLost fails, with Options.FailLostAnswers, the pending call a
// discarded line answered (b is the line, or the start of one over the
// limit), when its id can be read: the answer is known to be lost.
func (c *Conn) failLost(b []byte, why error) {
	if !c.opts.FailLostAnswers {
		return
	}
	id, ok := rpccall.LostAnswerID(b)
	if !ok {
		return
	}
	c.mu.Lock()
	p := c.pending[id]
	if p != nil {
		delete(c.pending, id)
	}
	c.mu.Unlock()
	if p != nil {
		p.Finish(nil, &Error{Code: CodeConnection, Message: rpccall.MessageAnswerDiscarded, Cause: &rpccall.DiscardedError{Why: why}})
	}
}

// dispatch routes one message. inBatch means the Observer has seen the
// batch holding it already: only a discard is reported.
func (c *Conn) dispatch(m message, line []byte, size int, inBatch bool) {
	switch {
	case m.id != nil && m.hasMethod:
		c.received(line, size, inBatch)
		c.serverRequest(m)
	case m.id != nil:
		c.response(m, line, size, inBatch)
	default:
		c.received(line, size, inBatch)
		c.notification(m)
	}
}

// received reports a line that was used, unless its batch was reported.
func (c *Conn) received(line []byte, size int, inBatch bool) {
	if !inBatch {
		c.observe(Received, line, size, nil)
	}
}

// SetAcceptBatches turns the unpacking of JSON-RPC batches on or off (see
// Options.AcceptBatches), for lines read from now on.
func (c *Conn) SetAcceptBatches(on bool) { c.acceptBatches.Store(on) }

// isArray reports whether a line is a valid JSON array.
func isArray(line []byte) bool {
	i := jsonscan.SkipSpace(line, 0)
	return i < len(line) && line[i] == '[' && jsontext.Value(line).IsValid()
}

// handleBatch handles the elements of a JSON-RPC batch in order. The batch
// is reported once as Received; an empty batch, or an element that is not a
// message, is reported as Discarded (JSON-RPC 2.0 calls both invalid).
func (c *Conn) handleBatch(line []byte, size int) {
	var elems [][]byte
	dec := jsontext.NewDecoder(bytes.NewReader(line))
	if _, err := dec.ReadToken(); err == nil { // '['
		for dec.PeekKind() != ']' {
			v, err := dec.ReadValue()
			if err != nil {
				break
			}
			start := int(dec.InputOffset()) - len(v)
			elems = append(elems, line[start:start+len(v)])
		}
	}
	if len(elems) == 0 {
		c.observe(Discarded, line, size, errEmptyBatch)
		return
	}
	c.observe(Received, line, size, nil)
	for i, el := range elems {
		m, err := parseMessage(el)
		if err != nil {
			c.observe(Discarded, el, len(el), fmt.Errorf("element %d of a batch: %w", i+1, err))
			continue
		}
		c.dispatch(m, el, len(el), true)
	}
}

// response delivers a response to the subscription or call it answers.
func (c *Conn) response(m message, line []byte, size int, inBatch bool) {
	id, ok := rpccall.OurID(m.id)
	if !ok {
		c.observe(Discarded, line, size, fmt.Errorf("response to an id this client never sent: %s", m.id))
		return
	}
	c.mu.Lock()
	if s := c.subs[id]; s != nil {
		delete(c.subs, id)
		c.openSubs.Add(-1)
		c.mu.Unlock()
		c.received(line, size, inBatch)
		result, err := outcome(m)
		s.terminal(result, err)
		return
	}
	p := c.pending[id]
	if p != nil {
		delete(c.pending, id)
	}
	c.mu.Unlock()
	if p == nil {
		if m.result != nil && m.errObj != nil {
			c.observe(Discarded, line, size, errors.New("a result and an error together, for no pending request"))
			return
		}
		c.observe(Discarded, line, size, fmt.Errorf("no request is waiting for id %d (late or unknown)", id))
		return
	}
	c.received(line, size, inBatch)
	p.Finish(outcome(m))
}

// outcome turns a response into a result or an *Error.
func outcome(m message) ([]byte, error) {
	switch {
	case m.result != nil && m.errObj != nil:
		return nil, &Error{Code: CodeConnection, Message: msgBothResultAndError}
	case m.errObj != nil:
		e, ok := rpcError(m.errObj)
		if !ok {
			return nil, &Error{Code: CodeConnection, Message: msgInvalidResponse,
				Data: fmt.Appendf(nil, `{"error":%s}`, m.errObj)}
		}
		return nil, e
	case m.result != nil:
		return m.result, nil
	}
	return nil, &Error{Code: CodeConnection, Message: msgInvalidResponse}
}

// notification routes a server notification.
func (c *Conn) notification(m message) {
	if c.openSubs.Load() > 0 && c.subscriptionEvent(m) {
		return
	}
	switch m.method {
	case protocol.NotificationProgress:
		if c.progress(m) {
			return
		}
	case protocol.NotificationCancelled:
		if c.cancelServerRequest(m) {
			return
		}
	}
	if c.opts.OnNotification != nil {
		c.opts.OnNotification(Notification{Method: m.method, Params: m.params})
	}
}

// subscriptionEvent hands a notification tagged with an open subscription's
// id to that subscription.
func (c *Conn) subscriptionEvent(m message) bool {
	raw := jsonscan.Member(jsonscan.Member(m.params, "_meta"), subscriptionIDKey)
	id, ok := rpccall.OurID(raw)
	if !ok {
		return false
	}
	c.mu.Lock()
	s := c.subs[id]
	c.mu.Unlock()
	if s == nil {
		return false
	}
	s.event(Notification{Method: m.method, Params: m.params})
	return true
}

// progress hands a progress notification to the call whose token it names.
func (c *Conn) progress(m message) bool {
	id, ok := rpccall.ProgressCall(m.params)
	if !ok {
		return false
	}
	c.mu.Lock()
	p := c.pending[id]
	c.mu.Unlock()
	if p == nil || !p.WantsProgress() {
		return false
	}
	p.AddProgress(Progress(rpccall.DecodeProgress(m.params)), time.Now())
	return true
}

// cancelServerRequest cancels the handler of a running server request.
func (c *Conn) cancelServerRequest(m message) bool {
	key := rpccall.MatchKey(jsonscan.Member(m.params, "requestId"))
	if key == "" {
		return false
	}
	c.mu.Lock()
	sr := c.serverRequests[key]
	c.mu.Unlock()
	if sr == nil {
		return false
	}
	sr.cancel()
	return true
}
