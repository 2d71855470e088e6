package ui

import (
	"testing"

	"github.com/mcptui/mcptui/internal/inert/inerttest"
	"github.com/mcptui/mcptui/internal/testkit/uitest"
	"github.com/mcptui/mcptui/mcp"
)

// TestComposerParamsDrawnInert: the params the composer starts from quote
// the server's tool name; JSON keeps C1 controls, bidi overrides and
// invisible characters raw inside a string, and the params field (a
// textarea) draws its text as it is, so they are written as \u escapes,
// which mean the same.
func TestComposerParamsDrawnInert(t *testing.T) {
	for _, name := range inerttest.Names() {
		h := inerttest.Hostile[name]
		m, _ := newTest(t, 100, 30, uitest.Session()...)
		press(m, "n")
		m.Update(composerOfferMsg{gen: m.sess.Conn().Gen, offer: &composerOffer{
			methods: offeredMethods("2025-11-25", mcp.ServerCapabilities{Tools: &mcp.ListChangedCapability{}}),
			tools:   []mcp.Tool{{Name: h}},
		}})
		c := m.composer
		c.method.SetValue("tools/call")
		c.field = fieldTarget
		c.suggestions = nil
		c.target.SetValue(h)
		c.accept()
		if c.args != nil {
			t.Fatalf("%s: a form opened; the test wants the params field", name)
		}
		if err := inerttest.Drawn(m.render()); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
}
