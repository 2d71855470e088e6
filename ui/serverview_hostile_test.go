package ui

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/mcptui/mcptui/internal/inert/inerttest"
	"github.com/mcptui/mcptui/internal/testkit/uitest"
	"github.com/mcptui/mcptui/model"
)

// TestServerViewDrawsServerTextInert: what the server view shows of the
// server (a capability's name, a negotiation step quoting the versions the
// server listed, the reason of the choice, the error of logging/setLevel)
// is drawn escaped, whatever the server sent.
func TestServerViewDrawsServerTextInert(t *testing.T) {
	for _, name := range inerttest.Names() {
		h := inerttest.Hostile[name]
		key, _ := json.Marshal(h)
		caps := `{"tools":{},` + string(key) + `:{"x":1}}`
		evs := append(uitest.Session(),
			model.Negotiating{Stamp: model.Stamp{Time: uitest.At(0.5)}, Step: "server/discover → discover lists [" + h + "]"},
			model.Ready{Stamp: model.Stamp{Time: uitest.At(1)}, ServerName: "srv", Protocol: "2025-11-25",
				Info: model.ServerInfo{Capabilities: json.RawMessage(caps), Reason: "the server listed " + h}},
			model.LogLevelSet{Stamp: model.Stamp{Time: uitest.At(2)}, Level: "debug", Err: "setting the log level: " + h},
		)
		m, _ := newTest(t, 120, 40, evs...)
		var lines []string
		for _, l := range buildServerDoc(m.styles, m.sess, 120, "") {
			lines = append(lines, l.text)
		}
		if err := inerttest.Drawn(strings.Join(lines, "\n")); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
}
