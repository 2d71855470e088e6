package tap

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/mcptui/mcptui/internal/hostconfig"
)

// TestPrintConfig: every host's entry is valid JSON that runs the server
// through the tap, under the right key.
func TestPrintConfig(t *testing.T) {
	var b bytes.Buffer
	place := hostconfig.Place{Home: "/home/u", ConfigDir: "/home/u/.config", WorkDir: "/src/p", GOOS: "linux"}
	if err := PrintConfig(&b, place, "files", "/opt/mcptui", "npx", []string{"-y", "@x/server", "it's"}); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	blocks := strings.Split(out, "\n\n")
	keys := map[string]string{"Claude Desktop": "mcpServers", "Claude Code": "mcpServers", "VS Code": "servers", "Cursor": "mcpServers"}
	files := map[string]string{"Claude Desktop": "/home/u/.config/Claude/claude_desktop_config.json", "Claude Code": "/src/p/.mcp.json (this project's)",
		"VS Code": "/src/p/.vscode/mcp.json", "Cursor": "/home/u/.cursor/mcp.json (the user's)"}
	for host, key := range keys {
		var found bool
		for _, bl := range blocks {
			head, body, _ := strings.Cut(bl, "\n")
			if !strings.HasPrefix(head, "# "+host+" —") {
				continue
			}
			found = true
			if !strings.Contains(head, files[host]) {
				t.Errorf("%s: %q does not name %s", host, head, files[host])
			}
			var doc map[string]map[string]struct {
				Command string   `json:"command"`
				Args    []string `json:"args"`
				Type    string   `json:"type"`
			}
			if err := json.Unmarshal([]byte(body), &doc); err != nil {
				t.Fatalf("%s: %v\n%s", host, err, body)
			}
			e := doc[key]["files"]
			want := []string{"tap", "--name", "files", "--", "npx", "-y", "@x/server", "it's"}
			if e.Command != "/opt/mcptui" || strings.Join(e.Args, "|") != strings.Join(want, "|") {
				t.Errorf("%s: entry %+v", host, e)
			}
		}
		if !found {
			t.Errorf("no entry for %s in:\n%s", host, out)
		}
	}
	if !strings.Contains(out, `claude mcp add files -- /opt/mcptui tap --name files -- npx -y @x/server 'it'\''s'`) {
		t.Errorf("no claude mcp add line in:\n%s", out)
	}
}
