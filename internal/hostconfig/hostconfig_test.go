package hostconfig

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func env(m map[string]string) func(string) (string, bool) {
	return func(k string) (string, bool) { v, ok := m[k]; return v, ok }
}

func one(t *testing.T, servers []Server, name string) Server {
	t.Helper()
	s, err := Find(servers, name)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestClaudeDesktopTakesValuesAsWritten(t *testing.T) {
	servers, err := Parse([]byte(`{"mcpServers": {
		"github": {"command": "docker", "args": ["run", "-i", "--rm", "-e", "GITHUB_PERSONAL_ACCESS_TOKEN", "ghcr.io/github/github-mcp-server"],
		           "env": {"GITHUB_PERSONAL_ACCESS_TOKEN": "${TOKEN}"}},
		"fs": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-filesystem", "/tmp"]}
	}, "globalShortcut": ""}`), ClaudeDesktop, Vars{Getenv: env(map[string]string{"TOKEN": "secret"})})
	if err != nil {
		t.Fatal(err)
	}
	if len(servers) != 2 || servers[0].Name != "fs" || servers[1].Name != "github" {
		t.Fatalf("servers = %+v, want fs and github sorted", servers)
	}
	gh := servers[1]
	if gh.Transport != Stdio || gh.Command != "docker" || gh.Args[1] != "-i" {
		t.Errorf("github = %+v", gh)
	}
	// The desktop app expands nothing: the value reaches the server as written.
	if want := []EnvVar{{"GITHUB_PERSONAL_ACCESS_TOKEN", "${TOKEN}"}}; !reflect.DeepEqual(gh.Env, want) {
		t.Errorf("env = %v, want %v", gh.Env, want)
	}
	if gh.Dir != "" || len(gh.Problems) != 0 {
		t.Errorf("dir %q problems %v", gh.Dir, gh.Problems)
	}
}

func TestClaudeCodeExpandsItsTwoForms(t *testing.T) {
	vars := Vars{Getenv: env(map[string]string{"API_KEY": "k1", "HOST": "example.test"}), Workspace: "/proj"}
	servers, err := Parse([]byte(`{"mcpServers": {
		"api": {"type": "stdio", "command": "${BIN:-node}", "args": ["server.js", "--key=${API_KEY}", "$API_KEY"],
		        "env": {"KEY": "${API_KEY}", "MISSING": "${NOPE}", "DEF": "${NOPE:-fallback}"}},
		"remote": {"type": "http", "url": "https://${HOST}/mcp", "headers": {"Authorization": "Bearer ${API_KEY}"}},
		"events": {"type": "sse", "url": "https://${HOST}/sse"}
	}}`), ClaudeCode, vars)
	if err != nil {
		t.Fatal(err)
	}
	api := one(t, servers, "api")
	if api.Command != "node" || !reflect.DeepEqual(api.Args, []string{"server.js", "--key=k1", "$API_KEY"}) {
		t.Errorf("api command %q args %q", api.Command, api.Args)
	}
	want := []EnvVar{{"DEF", "fallback"}, {"KEY", "k1"}, {"MISSING", "${NOPE}"}}
	if !reflect.DeepEqual(api.Env, want) {
		t.Errorf("env = %v, want %v", api.Env, want)
	}
	if len(api.Problems) != 1 || !strings.Contains(api.Problems[0], "${NOPE} is not set") {
		t.Errorf("problems = %v", api.Problems)
	}
	if api.Dir != "/proj" {
		t.Errorf("a project server starts in the project: dir = %q", api.Dir)
	}
	remote := one(t, servers, "remote")
	if remote.Transport != HTTP || remote.URL != "https://example.test/mcp" ||
		!reflect.DeepEqual(remote.Headers, []Header{{"Authorization", "Bearer k1"}}) {
		t.Errorf("remote = %+v", remote)
	}
	if s := one(t, servers, "events"); s.Transport != SSE || s.URL != "https://example.test/sse" {
		t.Errorf("events = %+v", s)
	}
}

func TestClaudeCodeUserFileKeepsProjectsApart(t *testing.T) {
	servers, err := Parse([]byte(`{"numStartups": 3, "mcpServers": {"memory": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-memory"]}},
		"projects": {"/a": {"mcpServers": {"memory": {"command": "./mem"}}}, "/b": {"allowedTools": []}}}`), ClaudeCode, Vars{})
	if err != nil {
		t.Fatal(err)
	}
	if len(servers) != 2 {
		t.Fatalf("servers = %+v", servers)
	}
	if _, err := Find(servers, "memory"); err == nil || !strings.Contains(err.Error(), `"memory (project /a)"`) {
		t.Errorf("an ambiguous name: err = %v", err)
	}
	s := one(t, servers, "memory (project /a)")
	if s.Command != "./mem" || s.Dir != "/a" {
		t.Errorf("project server = %+v", s)
	}
}

func TestVSCodeReadsServersWithCommentsAndVariables(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, ".env"), []byte("# keys\nexport FROM_FILE=\"f1\"\nBOTH=file\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	vars := Vars{Getenv: env(map[string]string{"TOKEN": "t1"}), Home: "/home/u", Workspace: dir}
	servers, err := Parse([]byte(`{
		// the editor's own comments
		"inputs": [{"type": "promptString", "id": "api-key", "password": true}],
		"servers": {
			"local": {"type": "stdio", "command": "${workspaceFolder}/bin/server", "args": ["--home", "${userHome}", "--token", "${env:TOKEN}", "--empty", "${env:UNSET}"],
			          "envFile": "${workspaceFolder}/.env", "env": {"BOTH": "env"}, "cwd": "${workspaceFolder}/sub"},
			"asks": {"command": "srv", "env": {"KEY": "${input:api-key}"}}, /* trailing comma next */
		},
	}`), VSCode, vars)
	if err != nil {
		t.Fatal(err)
	}
	local := one(t, servers, "local")
	if local.Command != dir+"/bin/server" || !reflect.DeepEqual(local.Args, []string{"--home", "/home/u", "--token", "t1", "--empty", ""}) {
		t.Errorf("local command %q args %q", local.Command, local.Args)
	}
	if want := []EnvVar{{"BOTH", "env"}, {"FROM_FILE", "f1"}}; !reflect.DeepEqual(local.Env, want) {
		t.Errorf("env = %v, want %v (env wins over envFile)", local.Env, want)
	}
	// An unset ${env:…} becomes nothing, as in the editor, and is said.
	if local.Dir != dir+"/sub" || len(local.Problems) != 1 || !strings.Contains(local.Problems[0], "${env:UNSET} is not set") {
		t.Errorf("dir %q problems %v", local.Dir, local.Problems)
	}
	asks := one(t, servers, "asks")
	if len(asks.Problems) != 1 || !strings.Contains(asks.Problems[0], "${input:api-key} is asked of the user") ||
		!strings.Contains(asks.Problems[0], "-e KEY=VALUE") {
		t.Errorf("problems = %v", asks.Problems)
	}
	if want := []Prompt{{Ref: "${input:api-key}", Field: "env", Key: "KEY"}}; !reflect.DeepEqual(asks.Prompts, want) {
		t.Errorf("prompts = %+v, want %+v", asks.Prompts, want)
	}
}

func TestCursorURLServerAndBadEntries(t *testing.T) {
	servers, err := Parse([]byte(`{"mcpServers": {
		"remote": {"url": "https://mcp.example.test/mcp", "headers": {"X-Key": "${env:K}"}},
		"broken": {"args": ["x"]},
		"wrong": "npx server",
		"off": {"command": "srv", "disabled": true}
	}}`), Cursor, Vars{Getenv: env(map[string]string{"K": "v"})})
	if err != nil {
		t.Fatal(err)
	}
	if s := one(t, servers, "remote"); s.Transport != HTTP || s.Headers[0].Value != "v" {
		t.Errorf("a URL without a command is HTTP: %+v", s)
	}
	if s := one(t, servers, "broken"); len(s.Problems) == 0 || !strings.Contains(s.Problems[0], `no "command"`) {
		t.Errorf("broken problems = %v", s.Problems)
	}
	if s := one(t, servers, "wrong"); len(s.Problems) == 0 || !strings.Contains(s.Problems[0], "not a server object") {
		t.Errorf("wrong problems = %v", s.Problems)
	}
	if s := one(t, servers, "off"); !s.Disabled {
		t.Errorf("off is not disabled: %+v", s)
	}
}

func TestParseRejectsWhatIsNoConfig(t *testing.T) {
	for _, in := range []string{`[]`, `{"name": "x"}`, `{"mcpServers": []}`, `not json`} {
		if _, err := Parse([]byte(in), Generic, Vars{}); err == nil {
			t.Errorf("Parse(%s): no error", in)
		}
	}
	// A generic file is read by its shape: VS Code's key works too.
	servers, err := Parse([]byte(`{"servers": {"a": {"command": "a"}}}`), Generic, Vars{})
	if err != nil || len(servers) != 1 {
		t.Errorf("servers %v err %v", servers, err)
	}
}

func TestDiscoverReadsEveryHostsFiles(t *testing.T) {
	home, work := t.TempDir(), t.TempDir()
	write := func(path, body string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	write(filepath.Join(home, ".config", "Claude", "claude_desktop_config.json"), `{"mcpServers": {"desk": {"command": "d"}}}`)
	write(filepath.Join(home, ".claude.json"), `{"mcpServers": {"user": {"command": "u"}}, "projects": {"`+work+`": {"mcpServers": {"here": {"command": "h"}}}, "/elsewhere": {"mcpServers": {"there": {"command": "t"}}}}}`)
	write(filepath.Join(work, ".mcp.json"), `{"mcpServers": {"proj": {"command": "p"}}}`)
	write(filepath.Join(work, ".vscode", "mcp.json"), `{"servers": {"code": {"command": "c"}}}`)
	write(filepath.Join(home, ".cursor", "mcp.json"), `{"mcpServers": {broken`)
	p := Place{Home: home, WorkDir: work, GOOS: "linux"}
	f := p.Discover(env(nil))
	var got []string
	for _, s := range f.Servers {
		got = append(got, s.Host.String()+":"+s.Label())
	}
	want := []string{"Claude Code:proj", "VS Code:code", "Claude Code:user", "Claude Code:here (project " + work + ")", "Claude Desktop:desk"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("servers = %q\nwant      %q", got, want)
	}
	if len(f.Broken) != 1 || !strings.Contains(f.Broken[0].Error(), filepath.Join(".cursor", "mcp.json")) {
		t.Errorf("broken = %v, want the cursor file named", f.Broken)
	}
}

func TestHostOfFile(t *testing.T) {
	for path, want := range map[string]Host{
		"/x/claude_desktop_config.json":      ClaudeDesktop,
		"/p/.mcp.json":                       ClaudeCode,
		"/home/u/.claude.json":               ClaudeCode,
		"/p/.vscode/mcp.json":                VSCode,
		"/home/u/.config/Code/User/mcp.json": VSCode,
		"/p/.cursor/mcp.json":                Cursor,
		"/tmp/inspector.json":                Generic,
	} {
		if got := HostOfFile(path); got != want {
			t.Errorf("HostOfFile(%s) = %v, want %v", path, got, want)
		}
	}
}

func TestOpenFindsTheWorkspaceOfAProjectFile(t *testing.T) {
	home, work := t.TempDir(), t.TempDir()
	path := filepath.Join(work, ".vscode", "mcp.json")
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(`{"servers": {"s": {"command": "${workspaceFolder}/srv"}}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	servers, err := Place{Home: home}.Open(path, env(nil))
	if err != nil {
		t.Fatal(err)
	}
	if s := one(t, servers, "s"); s.Command != work+"/srv" || s.Dir != work || s.File != path {
		t.Errorf("s = %+v", s)
	}
	if _, err := (Place{Home: home}).Open(filepath.Join(work, "nope.json"), env(nil)); err == nil || !strings.Contains(err.Error(), "nope.json") {
		t.Errorf("a missing file: err = %v", err)
	}
}

// A name that two hosts' files both hold is picked as HOST:NAME; one that
// two files of one host hold, by the file. The error says which is which.
func TestFindTellsHostsApart(t *testing.T) {
	servers := []Server{
		{Name: "brave-search", Host: ClaudeCode, File: "/p/.mcp.json", Command: "a"},
		{Name: "brave-search", Host: VSCode, File: "/p/.vscode/mcp.json", Command: "b"},
		{Name: "brave-search", Host: Cursor, File: "/p/.cursor/mcp.json", Command: "c"},
		{Name: "brave-search", Host: Cursor, File: "/home/u/.cursor/mcp.json", Command: "d"},
		{Name: "other", Host: Cursor, File: "/p/.cursor/mcp.json", Command: "e"},
	}
	_, err := Find(servers, "brave-search")
	for _, want := range []string{"claude-code:brave-search (/p/.mcp.json)", "vscode:brave-search (/p/.vscode/mcp.json)",
		"--config /p/.cursor/mcp.json brave-search", "--config /home/u/.cursor/mcp.json brave-search"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("err %v, want it to offer %q", err, want)
		}
	}
	for sel, want := range map[string]string{"vscode:brave-search": "b", "claude-code:brave-search": "a", "code:brave-search": "b", "cursor:other": "e"} {
		if s, err := Find(servers, sel); err != nil || s.Command != want {
			t.Errorf("Find(%q) = %+v, %v; want the server running %q", sel, s, err, want)
		}
	}
	if _, err := Find(servers, "cursor:brave-search"); err == nil {
		t.Error("two Cursor files' brave-search: picked one")
	}
	if _, err := Find(servers, "emacs:brave-search"); err == nil || !strings.Contains(err.Error(), `no server "emacs:brave-search"`) {
		t.Errorf("an unknown host: %v", err)
	}
}

// A name holding a colon is still found as written.
func TestFindNameWithColon(t *testing.T) {
	servers := []Server{{Name: "vscode:x", Host: Generic, Command: "a"}, {Name: "x", Host: VSCode, Command: "b"}}
	if s, err := Find(servers, "vscode:x"); err != nil || s.Command != "a" {
		t.Errorf("Find = %+v, %v", s, err)
	}
}
