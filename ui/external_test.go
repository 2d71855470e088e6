package ui

import (
	"os"
	"strings"
	"testing"

	"github.com/mcptui/mcptui/internal/testkit/uitest"
)

func TestExternalEditorRoundTrip(t *testing.T) {
	m, _ := newTest(t, 100, 30, uitest.Session()...)
	m.opts.Editor = "my-editor --wait"
	press(m, "2", "j", "e")
	cmd := press(m, "ctrl+e")
	msg := cmd()
	file, ok := msg.(editorFileMsg)
	if !ok || file.err != nil {
		t.Fatalf("draft: %+v", msg)
	}
	b, err := os.ReadFile(file.path)
	if err != nil || !strings.Contains(string(b), `"staging"`) {
		t.Fatalf("draft file: %q %v", b, err)
	}
	if got := m.editorCommand(); strings.Join(got, " ") != "my-editor --wait" {
		t.Errorf("editor command = %q", got)
	}
	// The editor would run here; it changes the file.
	if err := os.WriteFile(file.path, []byte(`{"action":"decline"}`+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	_, next := m.Update(editorExitMsg{path: file.path})
	_, _ = m.Update(next())
	if got := m.editor.ta.Value(); got != `{"action":"decline"}` {
		t.Errorf("editor text = %q", got)
	}
	if _, err := os.Stat(file.path); !os.IsNotExist(err) {
		t.Errorf("the draft file was left behind: %v", err)
	}
}
