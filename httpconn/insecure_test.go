package httpconn_test

import (
	"crypto/x509"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcptui/mcptui/httpconn"
)

// TLS is verified unless Insecure is set: a self-signed server is refused,
// then spoken to with Insecure.
func TestInsecureSkipsVerification(t *testing.T) {
	s := sdk.NewServer(&sdk.Implementation{Name: "tls", Version: "1"}, nil)
	srv := httptest.NewTLSServer(sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return s }, nil))
	t.Cleanup(srv.Close)
	params := json.RawMessage(`{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}`)

	c, _ := dial(t, srv.URL+"/mcp", httpconn.Options{})
	_, err := c.Call(t.Context(), "initialize", params)
	var unknown x509.UnknownAuthorityError
	if !errors.As(err, &unknown) {
		t.Fatalf("initialize without Insecure: %v, want the certificate refused", err)
	}

	c, _ = dial(t, srv.URL+"/mcp", httpconn.Options{Insecure: true})
	if _, err := c.Call(t.Context(), "initialize", params); err != nil {
		t.Fatalf("initialize with Insecure: %v", err)
	}
}
