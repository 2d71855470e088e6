package e2e

import "testing"

// TestComposerToolFormOnTheDemo composes a tools/call by hand on the
// demo: the method completed, the tool picked, its argument typed into
// the form the tool's inputSchema makes (not a JSON skeleton), sent; the
// echoed text is the result rendered from pane 1.
func TestComposerToolFormOnTheDemo(t *testing.T) {
	x := demo(t, "composer-form", 100, 30)
	x.Keys("n")
	x.WaitFor("New request")
	x.Keys("C-u")
	x.Text("tools/c")
	x.WaitFor("▸ tools/call")
	x.Keys("Enter")
	x.Text("ech")
	x.WaitFor("▸ echo")
	x.Keys("Enter")
	x.WaitFor("arguments the form", "Message *", "the text to send back")
	x.Text("hello from the form")
	x.WaitUntil("the message in its field", func(s string) bool { return rowWith(s, "Message *", "hello from the form") })
	x.Keys("C-s")
	x.WaitFor("tools/call answered")
	x.WaitUntil("the call ok in pane 1", func(s string) bool { return rowWith(s, "tools/call", "echo", " ok") })
	x.Keys("1", "Enter")
	x.WaitFor("tools/call echo · 1 item(s)", "hello from the form")
	x.Keys("q")
	x.WaitExit()
}
