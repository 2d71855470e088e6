package conn

import (
	"bytes"
	"context"
	"errors"
)

// errRawNewline refuses a raw line that would be two lines on the wire.
var errRawNewline = errors.New("conn: a raw line must not contain a newline")

// WriteRawLine writes line and a newline to the server's stdin exactly as
// given: no JSON check, no id, nothing waits for an answer. It is not for
// MCP clients, which use Call and Notify; it is the diagnostic path of
// conformance probes (mcptui check) that must send what a well-behaved
// client never does: a line that is not JSON, a batch, a request whose id
// the probe chose. The Observer sees the line as Sent; an answer to it
// comes back, like any response to an id this connection never sent, as
// a Discarded event. It returns once the line is written to the pipe (or
// ctx ends, or the connection stops).
func (c *Conn) WriteRawLine(ctx context.Context, line []byte) error {
	if bytes.ContainsAny(line, "\r\n") {
		return errRawNewline
	}
	if e := c.stoppedErr(); e != nil {
		return e
	}
	return c.writeLine(ctx, append(bytes.Clone(line), '\n'), "raw line")
}
