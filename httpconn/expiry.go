package httpconn

import (
	"bytes"
	"errors"
	"net/http"

	"github.com/mcptui/mcptui/conn"
	"github.com/mcptui/mcptui/internal/jsonscan"

	"github.com/mcptui/mcptui/internal/rpccall"
)

// ErrSessionExpired is the Cause (wrapped) of a call the server answered
// with 404 Not Found for the session id it carried, or with 400 Bad Request
// whose body names the session (the TypeScript SDK's examples answer an
// id they do not know, after a restart, with 400 "No valid session ID
// provided"): the server ended the session. The connection forgets the id, so that the next initialize
// starts a fresh session, as the spec asks.
var ErrSessionExpired = errors.New("the server no longer knows the session (404, or 400 naming the session, for its Mcp-Session-Id)")

// SessionExpiredError says which session ended.
type SessionExpiredError struct {
	// ID is the session id the refused request carried.
	ID string
	// Status is the refusal (404 or 400, its body and headers).
	Status *StatusError
}

func (e *SessionExpiredError) Error() string {
	return ErrSessionExpired.Error() + ": " + e.Status.Error()
}

// Is makes errors.Is(err, ErrSessionExpired) hold.
func (e *SessionExpiredError) Is(target error) bool { return target == ErrSessionExpired }

// Unwrap is the 404 (or 400).
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
	return sid, c.forget(sid)
}

// unknownSession reports whether resp, a 400 whose body starts with body,
// refuses the session id its request carried: the body names the session.
// The session is then forgotten as for a 404.
func (c *Conn) unknownSession(resp *http.Response, body []byte) (string, bool) {
	if resp.StatusCode != http.StatusBadRequest || resp.Request == nil {
		return "", false
	}
	sid := resp.Request.Header.Get(HeaderSessionID)
	if sid == "" || !bytes.Contains(bytes.ToLower(body), []byte("session")) {
		return "", false
	}
	return sid, c.forget(sid)
}

// forget drops session sid (and the GET stream's claim) and tells
// OnSessionExpired, once per session; it reports true whatever it did, so
// that every request that met the end is told.
func (c *Conn) forget(sid string) bool {
	c.mu.Lock()
	first := c.sessionID == sid
	if first {
		c.sessionID, c.getOpen = "", false
	}
	c.mu.Unlock()
	if first && c.opts.OnSessionExpired != nil {
		c.opts.OnSessionExpired(sid)
	}
	return true
}

// ErrIDLessErrorBody is the Err of the Discarded event that shows a
// JSON-RPC error without an id (or with a null one) carried by a POST's
// 4xx answer. The transport allows it ("The HTTP response body MAY
// comprise a JSON-RPC error response that has no id"): it answers the
// POST's own message, which the call's failure reports; it is no answer
// to a notification.
var ErrIDLessErrorBody = errors.New(rpccall.ReasonIDLessErrorBody)

// errorBody dispatches b, a JSON-RPC error a POST's 4xx answer carried: one
// with an id as any response, one without as ErrIDLessErrorBody.
func (c *Conn) errorBody(b []byte) {
	if id := jsonscan.Member(b, "id"); id == nil || string(id) == "null" {
		c.observe(conn.Discarded, b, len(b), ErrIDLessErrorBody)
		return
	}
	c.dispatch(b)
}
