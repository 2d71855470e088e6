package oauth

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strings"

	"github.com/mcptui/mcptui/internal/urlpolicy"
)

// OpenBrowser opens u in the user's browser: $BROWSER (a command, or a
// colon-separated list of them, %s standing for the URL), else the
// platform's opener (xdg-open, open, or rundll32). It returns once the
// opener started; the opener is not waited for beyond its own exit. Only
// a URL internal/urlpolicy lets open (https, or http to this machine) is
// handed over: javascript:, file:, data: and the like are refused.
func OpenBrowser(u string) error {
	if _, err := urlpolicy.Openable(u); err != nil {
		return fmt.Errorf("not opened: %w", err)
	}
	if list := os.Getenv("BROWSER"); list != "" {
		var errs []error
		for _, b := range strings.Split(list, ":") {
			if b = strings.TrimSpace(b); b == "" {
				continue
			}
			args := strings.Fields(b)
			replaced := false
			for i, a := range args {
				if strings.Contains(a, "%s") {
					args[i], replaced = strings.ReplaceAll(a, "%s", u), true
				}
			}
			if !replaced {
				args = append(args, u)
			}
			if err := start(args[0], args[1:]...); err != nil {
				errs = append(errs, err)
				continue
			}
			return nil
		}
		return errors.Join(errs...)
	}
	switch runtime.GOOS {
	case "darwin":
		return start("open", u)
	case "windows":
		return start("rundll32", "url.dll,FileProtocolHandler", u)
	}
	return start("xdg-open", u)
}

// start runs name and reaps it in the background.
func start(name string, args ...string) error {
	cmd := exec.Command(name, args...)
	if err := cmd.Start(); err != nil {
		return err
	}
	go func() { _ = cmd.Wait() }()
	return nil
}
