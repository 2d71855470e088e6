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
