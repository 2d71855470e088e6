package httpconn

import (
	"fmt"

	"github.com/mcptui/mcptui/internal/jsonscan"
	"github.com/mcptui/mcptui/internal/rpccall"
)

// headBytes is how much of a message discarded over the limit is kept to
// tell what it was (conn.Event.Head).
const headBytes = 1 << 10

// maxDepth is the JSON parser's nesting limit (jsontext's, as conn's).
const maxDepth = 10000

// lostAnswerID reads, from a message that was discarded (b whole, or only
// its start when it was over the limit), the id of the call it answers:
// a top-level object with one of our ids, a result or error member and no
// method. It takes any bytes, cut anywhere; false when it cannot tell.
func lostAnswerID(b []byte) (int64, bool) {
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
	return rpccall.OurID(id)
}

// failLost fails the call a discarded message answered, at once, when its
// id can be read from b (the message or its start): the answer is known
// to be lost, so waiting for the timeout would only hide why.
func (c *Conn) failLost(b []byte, why error) {
	id, ok := lostAnswerID(b)
	if !ok || !c.isPending(id) {
		return
	}
	c.fail(id, connError("The server's answer was discarded", why))
}

// overLimitError says a message of size bytes was over MaxMessageBytes;
// atLeast marks a size that is only a lower bound (the rest was not read).
func (c *Conn) overLimitError(size int64, atLeast bool) error {
	s := fmt.Sprintf("%d bytes", size)
	if atLeast {
		s = "at least " + s
	}
	return fmt.Errorf("a message of %s, over the limit of %d bytes (MaxMessageBytes; mcptui's --max-line-bytes)", s, c.opts.MaxMessageBytes)
}
