package httpconn

import (
	"github.com/mcptui/mcptui/conn"
	"github.com/mcptui/mcptui/internal/rpccall"
)

// appendResponse appends a JSON-RPC response to a server request (an
// empty result is sent as {}).
func appendResponse(b, id, result []byte, e *conn.Error) []byte {
	if e != nil {
		return rpccall.AppendResponse(b, id, nil, rpccall.EncodeError(e.Code, e.Message, e.Data))
	}
	if len(result) == 0 {
		result = []byte(`{}`)
	}
	return rpccall.AppendResponse(b, id, result, nil)
}
