package cli

import (
	"errors"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/mcptui/mcptui/httpconn"
)

func TestURLWhereTheCommandWouldBe(t *testing.T) {
	const url = "http://127.0.0.1:8080/mcp"
	for _, args := range [][]string{
		{url},
		{"--", url},
		{"--header", "Authorization: Bearer x", url},
		{"-H", "Authorization:Bearer x", "--", url},
	} {
		cfg, err := Parse(args)
		if err != nil || cfg.Mode != ModeInspect || cfg.Command != url || len(cfg.Args) != 0 || !cfg.IsURL() {
			t.Errorf("%q: %+v, %v", args, cfg, err)
		}
	}
	for _, args := range [][]string{
		{"tools", url},
		{"tools", "--", url},
		{"call", "echo", "--arg", "text=hi", url},
		{"call", "echo", "--header", "Authorization: Bearer x", "--", url},
		{"doctor", "https://example.test/mcp"},
	} {
		cfg, err := Parse(args)
		if err != nil || !strings.HasPrefix(cfg.Command, "http") || len(cfg.Args) != 0 {
			t.Errorf("%q: %+v, %v", args, cfg, err)
		}
		if args[0] == "call" && cfg.Target != "echo" {
			t.Errorf("%q: target %q", args, cfg.Target)
		}
	}
	cfg, _ := Parse([]string{"-H", "Authorization: Bearer x", "--header", "X-A: 1", url})
	if !reflect.DeepEqual(cfg.Headers, []Header{{"Authorization", "Bearer x"}, {"X-A", "1"}}) {
		t.Errorf("headers: %+v", cfg.Headers)
	}
}

func TestURLMistakesAreUsageErrors(t *testing.T) {
	const url = "https://example.test/mcp"
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{url, "extra"}, "a URL takes no arguments"},
		{[]string{"--", url, "extra"}, "a URL takes no arguments"},
		{[]string{"-e", "A=1", url}, "is an HTTP server"},
		{[]string{"--cwd", "/tmp", url}, "is an HTTP server"},
		{[]string{"--header", "Authorization: x", "--", "./srv"}, "--header is for HTTP servers"},
		{[]string{"--header", "no colon here at all", url}, "want 'Name: value'"},
		{[]string{"./srv"}, "or give an http(s) URL"},
		{[]string{"--transport", "sse", "--", "./srv"}, "--transport is for HTTP servers"},
		{[]string{"--insecure", "--", "./srv"}, "--insecure is for HTTPS servers"},
		{[]string{"--transport", "websocket", url}, "want auto, http or sse"},
	} {
		_, err := Parse(tc.args)
		if !errors.Is(err, ErrUsage) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: %v, want a usage error with %q", tc.args, err, tc.want)
		}
		if err != nil && strings.Contains(err.Error(), "at all") {
			t.Errorf("%q: the header's value is echoed: %v", tc.args, err)
		}
	}
}

// --transport picks the HTTP transport, --insecure turns TLS verification
// off and says so; both reach the connection's options.
func TestTransportAndInsecureFlags(t *testing.T) {
	const url = "https://example.test/sse"
	for _, tc := range []struct {
		flag string
		want httpconn.Mode
	}{{"auto", httpconn.Auto}, {"http", httpconn.Streamable}, {"sse", httpconn.SSE}} {
		cfg, err := Parse([]string{"--transport", tc.flag, url})
		if err != nil || cfg.MCPOptions().HTTP.Mode != tc.want {
			t.Errorf("--transport %s: %+v, %v", tc.flag, cfg, err)
		}
	}
	cfg, err := Parse([]string{"tools", "--insecure", url})
	if err != nil || !cfg.MCPOptions().HTTP.Insecure {
		t.Fatalf("--insecure: %+v, %v", cfg, err)
	}
	if !slices.Contains(cfg.Warnings, InsecureWarning) {
		t.Errorf("no warning for --insecure: %q", cfg.Warnings)
	}
	cfg, _ = Parse([]string{url})
	if cfg.MCPOptions().HTTP.Insecure || len(cfg.Warnings) != 0 || cfg.MCPOptions().HTTP.Mode != httpconn.Auto {
		t.Errorf("defaults: %+v", cfg.MCPOptions().HTTP)
	}
}
