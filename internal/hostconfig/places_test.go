package hostconfig

import (
	"path/filepath"
	"testing"
)

// TestSourcesPerPlatform: Claude Desktop's and VS Code's user configs are
// where each platform keeps them (%APPDATA% on Windows, Application
// Support on macOS, XDG elsewhere), whatever platform runs the test.
func TestSourcesPerPlatform(t *testing.T) {
	tests := []struct {
		place       Place
		claude, vsc string
	}{
		{Place{Home: `C:\Users\me`, AppData: `C:\Users\me\AppData\Roaming`, GOOS: "windows"},
			filepath.Join(`C:\Users\me\AppData\Roaming`, "Claude", "claude_desktop_config.json"),
			filepath.Join(`C:\Users\me\AppData\Roaming`, "Code", "User", "mcp.json")},
		{Place{Home: "/Users/me", GOOS: "darwin"},
			"/Users/me/Library/Application Support/Claude/claude_desktop_config.json",
			"/Users/me/Library/Application Support/Code/User/mcp.json"},
		{Place{Home: "/home/me", GOOS: "linux"},
			"/home/me/.config/Claude/claude_desktop_config.json",
			"/home/me/.config/Code/User/mcp.json"},
		{Place{Home: "/home/me", ConfigDir: "/xdg", GOOS: "freebsd"},
			"/xdg/Claude/claude_desktop_config.json", "/xdg/Code/User/mcp.json"},
	}
	for _, tt := range tests {
		t.Run(tt.place.GOOS, func(t *testing.T) {
			got := map[Host]string{}
			for _, s := range tt.place.Sources() {
				if s.Host == ClaudeDesktop || (s.Host == VSCode && s.Workspace == "") {
					got[s.Host] = filepath.ToSlash(s.Path)
				}
			}
			if want := filepath.ToSlash(tt.claude); got[ClaudeDesktop] != want {
				t.Errorf("Claude Desktop: %q, want %q", got[ClaudeDesktop], want)
			}
			if want := filepath.ToSlash(tt.vsc); got[VSCode] != want {
				t.Errorf("VS Code: %q, want %q", got[VSCode], want)
			}
		})
	}
	// Windows without %APPDATA%: no guess.
	for _, s := range (Place{Home: `C:\Users\me`, GOOS: "windows"}).Sources() {
		if s.Host == ClaudeDesktop {
			t.Errorf("a Claude Desktop config guessed without APPDATA: %s", s.Path)
		}
	}
}
