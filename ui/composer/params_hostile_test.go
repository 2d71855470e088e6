package composer

import (
	"testing"

	"github.com/mcptui/mcptui/internal/inert/inerttest"
	"github.com/mcptui/mcptui/mcp"
)

// TestComposerParamsDrawnInert: the params the composer starts from quote
// the server's tool name; JSON keeps C1 controls, bidi overrides and
// invisible characters raw inside a string, and the params field (a
// textarea) draws its text as it is, so they are written as \u escapes,
// which mean the same.
func TestComposerParamsDrawnInert(t *testing.T) {
	for _, name := range inerttest.Names() {
		hostile := inerttest.Hostile[name]
		h, _ := openTest(t, 100, 30)
		h.update(OfferMsg{gen: h.sess.Conn().Gen, offer: &composerOffer{
			methods: offeredMethods("2025-11-25", mcp.ServerCapabilities{Tools: &mcp.ListChangedCapability{}}),
			tools:   []mcp.Tool{{Name: hostile}},
		}})
		c := h.c
		c.method.SetValue("tools/call")
		c.field = fieldTarget
		c.suggestions = nil
		c.target.SetValue(hostile)
		c.accept()
		if c.args != nil {
			t.Fatalf("%s: a form opened; the test wants the params field", name)
		}
		if err := inerttest.Drawn(h.view()); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
}
