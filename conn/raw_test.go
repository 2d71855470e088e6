package conn_test

import (
	"context"
	"testing"

	"github.com/mcptui/mcptui/conn"
)

// WriteRawLine puts the bytes on the wire as given, one line, seen by the
// Observer as Sent; a line holding a newline is refused, and the
// connection goes on.
func TestWriteRawLine(t *testing.T) {
	t.Parallel()
	h := start(t, conn.Options{}, "-report")
	ctx := context.Background()
	answer := `{"jsonrpc":"2.0","id":"raw-1","result":{}}`
	if err := h.c.WriteRawLine(ctx, []byte(answer)); err != nil {
		t.Fatal(err)
	}
	h.waitGot(answer)
	if err := h.c.WriteRawLine(ctx, []byte("not JSON {")); err != nil {
		t.Fatal(err)
	}
	if err := h.c.WriteRawLine(ctx, []byte("two\nlines")); err == nil {
		t.Error("a line with a newline was written")
	}
	h.ping()
	var sent []string
	for _, e := range h.eventsOf(conn.Sent) {
		sent = append(sent, string(e.Line))
	}
	if len(sent) < 2 || sent[0] != answer || sent[1] != "not JSON {" {
		t.Errorf("sent lines %q", sent)
	}
}
