package httpconn

import (
	"errors"
	"net/http"
)

// ErrSessionExpired is the Cause (wrapped) of a call the server answered
// with 404 Not Found for the session id it carried: the server ended the
// session. The connection forgets the id, so that the next initialize
// starts a fresh session, as the spec asks.
var ErrSessionExpired = errors.New("the server no longer knows the session (404 for its Mcp-Session-Id)")

// SessionExpiredError says which session ended.
type SessionExpiredError struct {
	// ID is the session id the refused request carried.
	ID string
	// Status is the refusal (404, its body and headers).
	Status *StatusError
}

func (e *SessionExpiredError) Error() string {
	return ErrSessionExpired.Error() + ": " + e.Status.Error()
}

// Is makes errors.Is(err, ErrSessionExpired) hold.
func (e *SessionExpiredError) Is(target error) bool { return target == ErrSessionExpired }

// Unwrap is the 404.
func (e *SessionExpiredError) Unwrap() error { return e.Status }

// expired reports whether resp, a Streamable HTTP answer, ends the session
// its request carried: a 404 for a session id. The id is forgotten (and
// the GET stream may be opened again for the next session) and
// OnSessionExpired is told, once per session.
func (c *Conn) expired(resp *http.Response) (string, bool) {
	if resp.StatusCode != http.StatusNotFound || resp.Request == nil {
		return "", false
	}
	sid := resp.Request.Header.Get(HeaderSessionID)
	if sid == "" {
		return "", false
	}
	c.mu.Lock()
	first := c.sessionID == sid
	if first {
		c.sessionID, c.getOpen = "", false
	}
	c.mu.Unlock()
	if first && c.opts.OnSessionExpired != nil {
		c.opts.OnSessionExpired(sid)
	}
	return sid, true
}
