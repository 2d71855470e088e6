package headless

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A VS Code mcp.json entry's oauth block authorizes as its clientId, as
// --client-id does: against an authorization server without dynamic
// registration, the entry without the block cannot authorize and the one
// with it can.
func TestHostConfigOAuthBlock(t *testing.T) {
	url, tokens := oauthServerWith(t, false)
	t.Setenv("BROWSER", os.Args[0])
	t.Setenv(serverEnv, "browser") // for the browser child only: TestMain has run
	t.Setenv("MCPTUI_TEST_CLIENT", "pre-registered-1")
	dir := t.TempDir()
	path := filepath.Join(dir, ".vscode", "mcp.json")
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		t.Fatal(err)
	}
	body := `{"servers": {
		"with": {"type": "http", "url": "` + url + `", "oauth": {"clientId": "${env:MCPTUI_TEST_CLIENT}"}},
		"without": {"type": "http", "url": "` + url + `"}
	}}`
	if err := os.WriteFile(path, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	r := run(t, "tools", "--browser", "--login-timeout", "20s", "--config", path, "--server", "without")
	if r.code == 0 || len(tokens()) != 0 {
		t.Fatalf("without a client id: exit %d, tokens %v: %s", r.code, tokens(), r.stderr)
	}
	r = run(t, "tools", "--browser", "--login-timeout", "20s", "--config", path, "--server", "with")
	if r.code != 0 || len(tokens()) != 1 || !strings.Contains(r.stdout, `"echo"`) {
		t.Fatalf("with the oauth block: exit %d, tokens %v: %s", r.code, tokens(), r.stderr)
	}
	if strings.Contains(r.stderr, "registering mcptui") {
		t.Errorf("registered instead of using the block's client id: %s", r.stderr)
	}
}
