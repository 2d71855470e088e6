package httpconn_test

import (
	"errors"
	"net/http"
	"testing"

	"github.com/mcptui/mcptui/conn"
	"github.com/mcptui/mcptui/httpconn"
)

// A POST whose answer ends without the JSON-RPC response is the
// transport's failure, and says so by a Cause: a server's own -32000
// answer has none, and callers (check, headless) tell the two apart by it.
func TestAnswerEndedWithoutResponseHasACause(t *testing.T) {
	url := scripted(t, func(w http.ResponseWriter, r *http.Request, body []byte) {
		sse(w) // a stream that ends at once, holding nothing
	})
	c, _ := dial(t, url, httpconn.Options{})
	err := callOrHang(t, c)
	var e *conn.Error
	if !errors.As(err, &e) || e.Code != conn.CodeConnection || e.Cause == nil {
		t.Fatalf("call: %v (%#v), want -32000 with a cause", err, e)
	}
}
