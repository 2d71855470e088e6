package headless

import (
	"github.com/mcptui/mcptui/httpconn/oauth"
	"github.com/mcptui/mcptui/internal/inert"
)

// authSteps prints each step of an OAuth authorization as a note on
// stderr, so that a person running a headless command sees what happens
// and the URL to open. The text may hold server-sent words: it is escaped.
func authSteps(n *noteWriter) func(oauth.Step) {
	return func(st oauth.Step) {
		for _, l := range st.Lines() {
			n.printf("oauth: %s", inert.Line(l))
		}
	}
}
