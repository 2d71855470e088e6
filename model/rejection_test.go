package model

import (
	"testing"

	"github.com/mcptui/mcptui/internal/inert"
)

// The default rejection quotes the server's method, and the reject dialog
// shows it in an editor that draws bidi overrides and invisible
// characters raw: the quote is inert.
func TestDefaultRejectionIsInert(t *testing.T) {
	q := &Question{Kind: AskOther, Method: "elicitation/create\u202e\u200bevil\x1b]0;title\x07"}
	if msg := DefaultRejection(q).Message; !inert.Safe(msg) {
		t.Errorf("the default rejection %q is not inert", msg)
	}
}
