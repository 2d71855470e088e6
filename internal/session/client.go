package session

import "github.com/mcptui/mcptui/mcp"

// Client is the running generation's client, for the explorer (which sends
// its own requests and reads the lists); an error when the server is not
// connected (starting, restarting, exited).
func (s *Session) Client() (*mcp.Client, error) {
	_, c, err := s.current()
	return c, err
}
