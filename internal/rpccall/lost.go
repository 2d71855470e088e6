package rpccall

import (
	"errors"
	"fmt"

	"github.com/mcptui/mcptui/internal/jsonscan"
)

// MaxDepth is the JSON parser's nesting limit (jsontext's): a message
// nested deeper cannot be read, and is discarded by either transport.
const MaxDepth = 10000

// ErrTooDeep is why a message nested deeper than MaxDepth was discarded.
var ErrTooDeep = fmt.Errorf("JSON nested deeper than %d levels, the parser's limit", MaxDepth)

// HeadBytes is how much of a message discarded over the size limit a
// transport keeps to tell what it was (conn.Event.Head), and to read the id
// of the call it answered (LostAnswerID).
const HeadBytes = 1 << 10

// MessageAnswerDiscarded is the message of the -32000 error a call fails
// with at once when its answer was discarded (over the size limit, nested
// too deep) and its id could still be read: the answer is known to be
// lost, so waiting for the timeout would only hide why.
const MessageAnswerDiscarded = "The server's answer was discarded"

// DiscardedError is the cause of that error: why the answer was
// discarded. It tells the error apart from the -32000 errors whose cause
// says the connection itself failed: only the one call ended, the server
// is still there.
type DiscardedError struct{ Why error }

func (e *DiscardedError) Error() string { return e.Why.Error() }

func (e *DiscardedError) Unwrap() error { return e.Why }

// AnswerDiscarded reports whether err (through any wrapping, a conn.Error's
// Cause included) is a call's failure because its answer was discarded.
func AnswerDiscarded(err error) bool {
	var d *DiscardedError
	return errors.As(err, &d)
}

// LostAnswerID reads, from a message that was discarded (b whole, or only
// its start when it was over the limit), the id of the call it answers:
// a top-level object with one of our ids, a result or error member and no
// method. It takes any bytes, cut anywhere; false when it cannot tell.
func LostAnswerID(b []byte) (int64, bool) {
	i := jsonscan.SkipSpace(b, 0)
	if i >= len(b) || b[i] != '{' {
		return 0, false
	}
	var id []byte
	answer := false
	for i++; ; {
		i = jsonscan.SkipSpace(b, i)
		if i >= len(b) || b[i] != '"' {
			break
		}
		end := jsonscan.SkipString(b, i)
		if end >= len(b) {
			break
		}
		name := string(b[i:end])
		i = jsonscan.SkipSpace(b, end)
		if i >= len(b) || b[i] != ':' {
			break
		}
		if i = jsonscan.SkipSpace(b, i+1); i >= len(b) {
			break
		}
		switch name {
		case `"method"`:
			return 0, false
		case `"result"`, `"error"`:
			answer = true
		}
		vend := jsonscan.SkipValue(b, i)
		if vend >= len(b) {
			break // cut inside the value (an id cut short is no id)
		}
		if name == `"id"` {
			id = b[i:vend]
		}
		if i = jsonscan.SkipSpace(b, vend); i >= len(b) || b[i] != ',' {
			break
		}
		i++
	}
	if !answer || id == nil {
		return 0, false
	}
	return OurID(id)
}
