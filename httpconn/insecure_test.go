package httpconn_test

import (
	"crypto/x509"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcptui/mcptui/conn"
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

// A request that gets no JSON-RPC answer (an HTTP failure) still ends for
// the observer: it is shown an error response for the id, marked as
// mcptui's, so a view of requests in flight does not wait forever.
func TestFailureEndsTheRequestForTheObserver(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "boom", http.StatusInternalServerError)
	}))
	t.Cleanup(srv.Close)
	c, x := dial(t, srv.URL+"/mcp", httpconn.Options{})
	if _, err := c.Call(t.Context(), "tools/list", nil); err == nil {
		t.Fatal("tools/list succeeded")
	}
	var got []string
	for _, e := range x.events() {
		if e.Kind == conn.Received {
			got = append(got, string(e.Line))
		}
	}
	if len(got) != 1 || !strings.Contains(got[0], `"id":1,"error":{"code":-32000`) || !strings.Contains(got[0], "shown by mcptui") || !strings.Contains(got[0], "500") {
		t.Errorf("received %q, want one marked error response for id 1", got)
	}
}
