package httpconn

import (
	"fmt"

	"github.com/mcptui/mcptui/internal/rpccall"
)

// headBytes is how much of a message discarded over the limit is kept to
// tell what it was (conn.Event.Head), as conn keeps.
const headBytes = rpccall.HeadBytes

// maxDepth is the JSON parser's nesting limit, as conn's.
const maxDepth = rpccall.MaxDepth

// failLost fails the call a discarded message answered, at once, when its
// id can be read from b (the message or its start): the answer is known
// to be lost, so waiting for the timeout would only hide why.
func (c *Conn) failLost(b []byte, why error) {
	id, ok := rpccall.LostAnswerID(b)
	if !ok || !c.isPending(id) {
		return
	}
	c.fail(id, connError(rpccall.MessageAnswerDiscarded, &rpccall.DiscardedError{Why: why}))
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
