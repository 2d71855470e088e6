package hostconfig

import (
	"slices"
	"strings"
	"testing"
)

// TestStdioEntryReadsBack: the entry printed for each host is one that
// host's reader takes as the same server, under the host's key and with
// the type its own tools write.
func TestStdioEntryReadsBack(t *testing.T) {
	args := []string{"tap", "--name", "files", "--", "npx", "-y", "it's ${HOME}"}
	for _, h := range Hosts() {
		b, err := StdioEntry(h, "files", "/opt/mcptui", args)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(b), `"`+h.ListKey()+`"`) || strings.Contains(string(b), `"type"`) != (h == ClaudeCode || h == VSCode) {
			t.Errorf("%s entry:\n%s", h, b)
		}
		got, err := Parse(b, h, Vars{})
		if err != nil || len(got) != 1 {
			t.Fatalf("%s: read back %v, %v", h, got, err)
		}
		s := got[0]
		// ${HOME} in an argument is the host's to expand: the reader of
		// each host applies its rules, the printed entry only carries it.
		if s.Name != "files" || s.Transport != Stdio || s.Command != "/opt/mcptui" || !slices.Equal(s.Args[:6], args[:6]) {
			t.Errorf("%s: read back %+v", h, s)
		}
	}
}

// TestFilesOf: the files of one host, this project's first.
func TestFilesOf(t *testing.T) {
	p := Place{Home: "/home/u", ConfigDir: "/home/u/.config", WorkDir: "/src/p", GOOS: "linux"}
	var got []string
	for _, s := range p.FilesOf(VSCode) {
		got = append(got, s.Path)
	}
	want := []string{"/src/p/.vscode/mcp.json", "/home/u/.config/Code/User/mcp.json"}
	if !slices.Equal(got, want) {
		t.Errorf("VS Code files = %v, want %v", got, want)
	}
}
