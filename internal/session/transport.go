package session

import "github.com/mcptui/mcptui/httpconn"

// transportName is what the header calls an HTTP transport: "HTTP" for
// Streamable HTTP, "HTTP+SSE" for 2024-11-05's, "" for a process.
func transportName(m httpconn.Mode) string {
	switch m {
	case httpconn.Streamable:
		return "HTTP"
	case httpconn.SSE:
		return "HTTP+SSE"
	}
	return ""
}
