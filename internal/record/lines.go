package record

import "github.com/mcptui/mcptui/internal/protocol"

// DefaultMaxLineBytes is the line limit of conn, and so of the lines a
// recording holds and of what replay --serve reads from its client.
const DefaultMaxLineBytes = protocol.MaxLineBytes

// MaxEntryBytes is the longest recording line read for a wire line limit
// of maxLine (0: the default): twice it and 64 KiB, room for a line at the
// limit as "msg", "text" (escaped) or "b64" and the entry around it.
func MaxEntryBytes(maxLine int) int {
	if maxLine <= 0 {
		maxLine = DefaultMaxLineBytes
	}
	return 2*maxLine + 64<<10
}
