package app

import (
	"strings"
	"testing"

	"github.com/mcptui/mcptui/internal/cli"
)

// The window title names the server's command line without its secrets.
func TestWindowTitleRedactsSecrets(t *testing.T) {
	title := windowTitle(cli.ModeInspect, "./server", []string{"--api-key", "sk-abcdef0123456789abcdef", "--verbose"})
	if strings.Contains(title, "sk-abcdef0123456789abcdef") || !strings.Contains(title, "./server") || !strings.Contains(title, "--verbose") {
		t.Errorf("title %q", title)
	}
}
