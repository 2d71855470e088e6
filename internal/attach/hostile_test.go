package attach

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/mcptui/mcptui/internal/inert/inerttest"
	"github.com/mcptui/mcptui/internal/tap"
)

// TestHoldEditorDrawsHostileLinesInert: a held line carrying escape
// sequences, C1 controls, bidi overrides or invisible characters (raw in a
// JSON string, where JSON allows them, or in a line that is not JSON at
// all) is drawn inert by the breakpoint line and by both editors (edit,
// answer); the JSON to edit keeps its meaning (the characters become \u
// escapes).
func TestHoldEditorDrawsHostileLinesInert(t *testing.T) {
	for _, name := range inerttest.Names() {
		s := inerttest.Hostile[name]
		str, _ := json.Marshal(s)
		lines := map[string]string{
			"json":     `{"jsonrpc":"2.0","id":` + string(str) + `,"method":"tools/call","params":{"name":` + string(str) + `}}`,
			"raw-json": `{"jsonrpc":"2.0","id":"` + s + `","method":"tools/call"}`,
			"not-json": "not json " + s,
		}
		for form, line := range lines {
			for _, action := range []string{tap.ActionEdit, tap.ActionAnswer} {
				m := newTestModel(t, Options{}, 100, 30)
				m.onTap(tap.Message{Type: tap.TypeHold, Hold: 1, Dir: "sent", Deadline: time.Now().Add(time.Minute), Line: []byte(line)})
				if err := inerttest.Drawn(m.BreakLine(100)); err != nil {
					t.Errorf("%s, %s: the breakpoint line: %v", name, form, err)
				}
				text := prettyJSON(m.holds[0].Line)
				if action == tap.ActionAnswer {
					text = answerTemplate(m.holds[0].Line)
				}
				m.openEditor(action, text)
				if err := inerttest.Drawn(m.View().Content); err != nil {
					t.Errorf("%s, %s, %s: the editor: %v", name, form, action, err)
				}
				if form == "json" && action == tap.ActionEdit {
					var before, after any
					_ = json.Unmarshal([]byte(line), &before)
					if err := json.Unmarshal([]byte(m.editor.ta.Value()), &after); err != nil {
						t.Errorf("%s: the line to edit is no longer JSON: %v", name, err)
					} else if b1, _ := json.Marshal(before); string(b1) != string(mustJSON(after)) {
						t.Errorf("%s: the line to edit changed meaning:\n%s\n%s", name, b1, mustJSON(after))
					}
				}
			}
		}
	}
}

func mustJSON(v any) []byte {
	b, _ := json.Marshal(v)
	return b
}
