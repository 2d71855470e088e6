package app

import (
	"bytes"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"testing"
)

// TestVersionText: --version says the module version, the commit (and
// whether the tree was modified), its date, the Go version and every
// protocol revision, from the build information.
func TestVersionText(t *testing.T) {
	info := &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "v1.4.0"},
		Settings: []debug.BuildSetting{{Key: "vcs.revision", Value: "0123abcd"}, {Key: "vcs.time", Value: "2026-12-01T10:00:00Z"},
			{Key: "vcs.modified", Value: "true"}}}
	got := versionText(info, true)
	for _, want := range []string{"mcptui v1.4.0\n", "commit:    0123abcd (modified)\n", "date:      2026-12-01T10:00:00Z\n",
		"go:        go1.26.8\n", "protocols: 2026-07-28, 2025-11-25, 2025-06-18, 2025-03-26, 2024-11-05\n"} {
		if !strings.Contains(got, want) {
			t.Errorf("version lacks %q:\n%s", want, got)
		}
	}
	// A clone built without a tag: (devel), and no build info at all.
	if got := versionText(&debug.BuildInfo{Main: debug.Module{Version: "(devel)"}}, true); !strings.HasPrefix(got, "mcptui dev\n") {
		t.Errorf("devel build: %q", got)
	}
	if got := versionText(nil, false); !strings.Contains(got, "commit:    unknown") {
		t.Errorf("no build info: %q", got)
	}
}

// TestServersWordListsHostServers: the hidden lister the completion
// scripts call prints the names of the host configs' servers, each once.
func TestServersWordListsHostServers(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(home, ".config"))
	t.Setenv("APPDATA", filepath.Join(home, "AppData"))
	cfg := `{"mcpServers":{"weather":{"command":"uvx","args":["mcp-weather"]},"files":{"command":"npx","args":["-y","@x/files"]}}}`
	if err := os.WriteFile(filepath.Join(home, ".claude.json"), []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	var out, errb bytes.Buffer
	if status := Run([]string{"__servers"}, &out, &errb); status != 0 {
		t.Fatalf("status %d: %s", status, errb.String())
	}
	got := strings.Fields(out.String())
	if strings.Join(got, " ") != "files weather" && strings.Join(got, " ") != "weather files" {
		t.Errorf("servers %q, want files and weather", got)
	}
}

// TestCompletionAndManCommands: the commands print their text and refuse
// what they do not take.
func TestCompletionAndManCommands(t *testing.T) {
	var out, errb bytes.Buffer
	if status := Run([]string{"completion", "zsh"}, &out, &errb); status != 0 || !strings.Contains(out.String(), "#compdef mcptui") {
		t.Errorf("completion zsh: %d %q %s", status, out.String(), errb.String())
	}
	out.Reset()
	if status := Run([]string{"man"}, &out, &errb); status != 0 || !strings.HasPrefix(out.String(), ".TH MCPTUI 1") {
		t.Errorf("man: %d %.80q", status, out.String())
	}
	for _, bad := range [][]string{{"completion"}, {"completion", "csh"}, {"man", "x"}} {
		errb.Reset()
		if status := Run(bad, &out, &errb); status != 2 {
			t.Errorf("%q: status %d, want 2 (%s)", bad, status, errb.String())
		}
	}
}
