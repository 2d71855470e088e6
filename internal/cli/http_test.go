package cli

import (
	"errors"
	"reflect"
	"strings"
	"testing"
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
