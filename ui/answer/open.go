package answer

import (
	"fmt"
	"os/exec"
	"runtime"

	"github.com/mcptui/mcptui/internal/urlpolicy"
)

// OpenURL opens a URL with the system opener (open on macOS, xdg-open
// elsewhere), never through a shell, and only a URL the URL-opening policy
// lets open (https, or http to this machine). It returns once the opener
// started.
func OpenURL(url string) error {
	if _, err := urlpolicy.Openable(url); err != nil {
		return fmt.Errorf("not opened: %w", err)
	}
	name := "xdg-open"
	if runtime.GOOS == "darwin" {
		name = "open"
	}
	path, err := exec.LookPath(name)
	if err != nil {
		return fmt.Errorf("no %s to open it with: copy it instead", name)
	}
	cmd := exec.Command(path, url)
	if err := cmd.Start(); err != nil {
		return err
	}
	go func() { _ = cmd.Wait() }()
	return nil
}
