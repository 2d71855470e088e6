package cli

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/mcptui/mcptui/httpconn/oauth"
)

func TestAuthFlags(t *testing.T) {
	const url = "https://example.test/mcp"
	t.Setenv("MCPTUI_CLIENT_SECRET", "from-env")
	cfg, err := Parse([]string{"tools", "--client-id", "cid", "--scope", "a b", "--scope", "c", "--browser",
		"--redirect-port", "8976", "--keep-token", "--client-metadata-url", "https://me.example/cimd.json", url})
	if err != nil {
		t.Fatal(err)
	}
	want := AuthConfig{ClientID: "cid", ClientSecret: "from-env", ClientMetadataURL: "https://me.example/cimd.json",
		Scopes: []string{"a", "b", "c"}, Browser: true, RedirectPort: 8976, KeepToken: true}
	if !reflect.DeepEqual(cfg.Auth, want) {
		t.Errorf("auth %+v, want %+v", cfg.Auth, want)
	}
	if !cfg.UsesOAuth() {
		t.Error("no OAuth for an HTTP server")
	}
	c, err := cfg.HTTPClient(nil)
	if err != nil || c == nil {
		t.Fatalf("HTTPClient: %v, %v", c, err)
	}
	if _, ok := c.Transport.(*oauth.Transport); !ok {
		t.Errorf("transport %T", c.Transport)
	}
	if st, _ := cfg.TokenStore(); reflectType(st) != "oauth.FileStore" {
		t.Errorf("--keep-token store: %T", st)
	}

	// --bearer is the Authorization header, and no flow.
	cfg, err = Parse([]string{"--bearer", "tok123", url})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(cfg.Headers, []Header{{"Authorization", "Bearer tok123"}}) || cfg.UsesOAuth() {
		t.Errorf("--bearer: headers %+v, OAuth %v", cfg.Headers, cfg.UsesOAuth())
	}
	if c, _ := cfg.HTTPClient(nil); c != nil {
		t.Error("a flow with a given token")
	}
	for _, args := range [][]string{{"-H", "authorization: Bearer x", url}, {"--no-oauth", url}} {
		cfg, _ := Parse(args)
		if cfg.UsesOAuth() {
			t.Errorf("%q: OAuth on", args)
		}
	}
	if cfg, _ := Parse([]string{url}); cfg.UsesOAuth() {
		if st, _ := cfg.TokenStore(); reflectType(st) != "*oauth.MemoryStore" {
			t.Errorf("default store: %T", st)
		}
	}
}

func reflectType(v any) string { return reflect.TypeOf(v).String() }

func TestAuthFlagMistakes(t *testing.T) {
	const url = "https://example.test/mcp"
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--client-id", "x", "--", "./srv"}, "are for HTTP servers"},
		{[]string{"--bearer", "x", "-H", "Authorization: Bearer y", url}, "give one"},
		{[]string{"--bearer", "Bearer x", url}, "without spaces"},
		{[]string{"--redirect-port", "70000", url}, "port number"},
		{[]string{"--client-metadata-url", "http://x/y", url}, "https"},
		{[]string{"logout", "./srv"}, "want a server URL"},
		{[]string{"--client-credentials", "--client-id", "x", url}, "needs --client-id and --client-secret"},
	} {
		_, err := Parse(tc.args)
		if !errors.Is(err, ErrUsage) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: %v, want a usage error with %q", tc.args, err, tc.want)
		}
	}
	for _, args := range [][]string{{"logout", url}, {"logout", "all"}} {
		cfg, err := Parse(args)
		if err != nil || cfg.Mode != ModeLogout || cfg.LogoutAll() != (args[1] == "all") {
			t.Errorf("%q: %+v %v", args, cfg, err)
		}
	}
}

// The flow's requests and the preflight GET wait no longer than --timeout.
func TestOAuthRequestTimeoutIsTheCommands(t *testing.T) {
	cfg, err := Parse([]string{"tools", "--timeout", "5s", "https://example.test/mcp"})
	if err != nil {
		t.Fatal(err)
	}
	oc, err := cfg.OAuthConfig()
	if err != nil || oc.RequestTimeout != 5*time.Second {
		t.Errorf("RequestTimeout %v (%v), want 5s from --timeout", oc.RequestTimeout, err)
	}
}

// TestKeepTokenRefusesAWorldWritableStateDir: --keep-token with a
// pre-existing world-writable $XDG_STATE_HOME/mcptui is refused with the
// reason before anything runs, not written into without a word.
func TestKeepTokenRefusesAWorldWritableStateDir(t *testing.T) {
	state := t.TempDir()
	t.Setenv("XDG_STATE_HOME", state)
	if err := os.Mkdir(filepath.Join(state, "mcptui"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(filepath.Join(state, "mcptui"), 0o777); err != nil {
		t.Fatal(err)
	}
	cfg, err := Parse([]string{"--keep-token", "https://mcp.example/mcp"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := cfg.TokenStore(); err == nil || !strings.Contains(err.Error(), "can be written by others") {
		t.Fatalf("TokenStore: %v", err)
	}
	if _, err := cfg.OAuthConfig(); err == nil {
		t.Fatal("OAuthConfig took the weak directory")
	}
	if err := os.Chmod(filepath.Join(state, "mcptui"), 0o700); err != nil {
		t.Fatal(err)
	}
	if _, err := cfg.TokenStore(); err != nil {
		t.Fatalf("a private state dir: %v", err)
	}
}
