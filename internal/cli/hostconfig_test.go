package cli

import (
	"github.com/mcptui/mcptui/httpconn"

	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// writeConfig writes a config file under a fresh project directory.
func writeConfig(t *testing.T, rel, body string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), rel)
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestNoArgumentsOffersThePicker(t *testing.T) {
	cfg, err := Parse(nil)
	if err != nil || cfg.Mode != ModePick {
		t.Fatalf("Parse() = %v, %v; want ModePick", cfg, err)
	}
}

func TestConfigPicksTheServer(t *testing.T) {
	t.Setenv("MCPTUI_TEST_TOKEN", "tok")
	path := writeConfig(t, ".mcp.json", `{"mcpServers": {
		"gh": {"command": "docker", "args": ["run", "-i", "img"], "env": {"TOKEN": "${MCPTUI_TEST_TOKEN}", "MODE": "a"}},
		"web": {"type": "http", "url": "https://example.test/mcp", "headers": {"Authorization": "Bearer ${MCPTUI_TEST_TOKEN}"}},
		"old": {"type": "sse", "url": "https://example.test/sse"}
	}}`)
	for _, args := range [][]string{
		{"--config", path, "gh"},
		{"--config", path, "--server", "gh"},
		{"--config", path, "-e", "MODE=b", "gh"},
	} {
		cfg, err := Parse(args)
		if err != nil {
			t.Fatalf("%q: %v", args, err)
		}
		if cfg.Mode != ModeInspect || cfg.Command != "docker" || !reflect.DeepEqual(cfg.Args, []string{"run", "-i", "img"}) {
			t.Errorf("%q: mode %v command %q %q", args, cfg.Mode, cfg.Command, cfg.Args)
		}
		if cfg.Dir != filepath.Dir(path) {
			t.Errorf("%q: a project's server starts in the project: dir %q", args, cfg.Dir)
		}
		// The entry's environment first, the command line's after it (so it wins).
		var env []string
		for _, e := range cfg.Env {
			env = append(env, e.Name+"="+*e.Value)
		}
		want := []string{"MODE=a", "TOKEN=tok"}
		if len(args) == 5 {
			want = append(want, "MODE=b")
		}
		if !reflect.DeepEqual(env, want) {
			t.Errorf("%q: env %q, want %q", args, env, want)
		}
	}
	// Headless commands take the same flags.
	cfg, err := Parse([]string{"tools", "--config", path, "--server", "gh"})
	if err != nil || cfg.Mode != ModeTools || cfg.Command != "docker" {
		t.Errorf("tools: %+v %v", cfg, err)
	}
	// An HTTP entry opens its URL with its headers, before the command line's.
	cfg, err = Parse([]string{"--config", path, "--header", "X-Trace: 1", "web"})
	if err != nil || cfg.Command != "https://example.test/mcp" || len(cfg.Args) != 0 ||
		!reflect.DeepEqual(cfg.Headers, []Header{{"Authorization", "Bearer tok"}, {"X-Trace", "1"}}) {
		t.Errorf("an HTTP entry: %+v, %v", cfg, err)
	}
	if h := cfg.MCPOptions().HTTP.Header; h.Get("Authorization") != "Bearer tok" || h.Get("X-Trace") != "1" {
		t.Errorf("HTTP options headers: %v", h)
	}
	// An SSE entry opens its URL over the 2024-11-05 HTTP+SSE transport;
	// --transport still wins.
	cfg, err = Parse([]string{"--config", path, "old"})
	if err != nil || cfg.Command != "https://example.test/sse" || cfg.MCPOptions().HTTP.Mode != httpconn.SSE {
		t.Errorf("an SSE entry: %+v, %v", cfg, err)
	}
	cfg, err = Parse([]string{"--transport", "auto", "--config", path, "old"})
	if err != nil || cfg.MCPOptions().HTTP.Mode != httpconn.SSE {
		t.Errorf("an SSE entry with --transport auto: %+v, %v", cfg.MCPOptions().HTTP.Mode, err)
	}
	cfg, err = Parse([]string{"--transport", "http", "--config", path, "old"})
	if err != nil || cfg.MCPOptions().HTTP.Mode != httpconn.Streamable {
		t.Errorf("an SSE entry with --transport http: %+v, %v", cfg.MCPOptions().HTTP.Mode, err)
	}
}

func TestConfigMistakesAreUsageErrors(t *testing.T) {
	path := writeConfig(t, "servers.json", `{"mcpServers": {"a": {"command": "a"}, "b": {"command": "b"}}}`)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--config", path}, "lists 2 servers: name one with --server NAME (a, b)"},
		{[]string{"--config", path, "c"}, `no server "c"; the file lists a, b`},
		{[]string{"--config", path, "a", "b"}, `unexpected "b"`},
		{[]string{"--config", path, "--server", "a", "b"}, "two server names"},
		{[]string{"--config", path, "--", "./srv"}, "remove -- ./srv"},
		{[]string{"call", "x", "--config", path, "--server", "a", "--", "./srv"}, "remove -- ./srv"},
		{[]string{"--config", path + ".missing", "a"}, "reading the config file"},
	} {
		_, err := Parse(tc.args)
		if !errors.Is(err, ErrUsage) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: err %v, want a usage error saying %q", tc.args, err, tc.want)
		}
	}
	// A file with one server needs no name.
	one := writeConfig(t, "one.json", `{"mcpServers": {"only": {"command": "srv", "args": ["--x"]}}}`)
	cfg, err := Parse([]string{"--config", one})
	if err != nil || cfg.Command != "srv" || cfg.Server == nil || cfg.Server.Name != "only" {
		t.Errorf("one server: %+v %v", cfg, err)
	}
}

func TestServersCommand(t *testing.T) {
	cfg, err := Parse([]string{"servers", "--format", "json"})
	if err != nil || cfg.Mode != ModeServers || cfg.Format != "json" {
		t.Fatalf("servers: %+v %v", cfg, err)
	}
	if _, err := Parse([]string{"servers", "--", "x"}); !errors.Is(err, ErrUsage) {
		t.Errorf("servers -- x: err %v", err)
	}
}

// The README's form: a headless command names the server of --config with
// the word after its own words, as the inspector does.
func TestHeadlessCommandNamesTheConfigServer(t *testing.T) {
	path := writeConfig(t, ".mcp.json", `{"mcpServers": {"memory": {"command": "mem"}, "other": {"command": "oth"}}}`)
	for _, tc := range []struct {
		args   []string
		mode   Mode
		target string
	}{
		{[]string{"tools", "--config", path, "memory"}, ModeTools, ""},
		{[]string{"tools", "memory", "--config", path}, ModeTools, ""},
		{[]string{"call", "echo", "--config", path, "memory"}, ModeCall, "echo"},
		{[]string{"doctor", "--config", path, "memory"}, ModeDoctor, ""},
		{[]string{"check", "--config", path, "memory"}, ModeCheck, ""},
	} {
		cfg, err := Parse(tc.args)
		if err != nil {
			t.Errorf("%q: %v", tc.args, err)
			continue
		}
		if cfg.Mode != tc.mode || cfg.Command != "mem" || cfg.Target != tc.target {
			t.Errorf("%q: mode %v command %q target %q", tc.args, cfg.Mode, cfg.Command, cfg.Target)
		}
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"tools", "--config", path, "--server", "memory", "other"}, `unexpected "other"`},
		{[]string{"tools", "--config", path, "memory", "other"}, `unexpected "other"`},
		{[]string{"tools", "--config", path}, "lists 2 servers"},
	} {
		if _, err := Parse(tc.args); !errors.Is(err, ErrUsage) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: err %v, want a usage error saying %q", tc.args, err, tc.want)
		}
	}
}

// A VS Code ${input:…} the editor would ask for is not sent as written:
// the server is refused, with the flag that gives the value; given, it is
// no longer a problem.
func TestEditorInputsAreRefusedUnlessGiven(t *testing.T) {
	path := writeConfig(t, ".vscode/mcp.json", `{"inputs": [{"type": "promptString", "id": "key"}], "servers": {
		"env": {"command": "srv", "env": {"API_KEY": "${input:key}"}},
		"web": {"type": "http", "url": "https://example.test/mcp", "headers": {"Authorization": "Bearer ${input:key}"}},
		"arg": {"command": "srv", "args": ["--key", "${input:key}"]}
	}}`)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"tools", "--config", path, "env"}, "${input:key} is asked of the user by VS Code, and mcptui cannot ask (env API_KEY): give the value with -e API_KEY=VALUE"},
		{[]string{"tools", "--config", path, "web"}, "(header Authorization): give the value with --header 'Authorization: VALUE'"},
		{[]string{"--config", path, "arg"}, "(in args): write the value in the file, or run the command after --"},
		{[]string{"--config", path, "-e", "OTHER=1", "env"}, "-e API_KEY=VALUE"},
	} {
		_, err := Parse(tc.args)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: err %v, want one saying %q", tc.args, err, tc.want)
		}
	}
	cfg, err := Parse([]string{"tools", "--config", path, "-e", "API_KEY=k", "env"})
	if err != nil || len(cfg.Warnings) != 0 || cfg.Env[len(cfg.Env)-1].Name != "API_KEY" || *cfg.Env[len(cfg.Env)-1].Value != "k" {
		t.Errorf("-e gives the input: %+v, %v", cfg, err)
	}
	cfg, err = Parse([]string{"tools", "--config", path, "--header", "authorization: Bearer t", "web"})
	if err != nil || len(cfg.Warnings) != 0 || !reflect.DeepEqual(cfg.Headers, []Header{{"authorization", "Bearer t"}}) {
		t.Errorf("--header gives the input: %+v, %v", cfg, err)
	}
}
