package tap

import (
	"fmt"
	"io"
	"strings"

	"github.com/mcptui/mcptui/internal/hostconfig"
)

// PrintConfig writes, for each host whose format hostconfig knows, the
// config entry that runs the server through mcptui's tap under the given
// name, and the files at place the host reads it from: mcptui is the path
// to the mcptui binary (absolute: hosts start servers with a bare
// environment). It edits nothing.
func PrintConfig(w io.Writer, place hostconfig.Place, name, mcptui, command string, args []string) error {
	tapArgs := append([]string{"tap", "--name", name, "--", command}, args...)
	for _, host := range hostconfig.Hosts() {
		b, err := hostconfig.StdioEntry(host, name, mcptui, tapArgs)
		if err != nil {
			return fmt.Errorf("tap: config: %w", err)
		}
		if _, err := fmt.Fprintf(w, "# %s — merge into %s\n%s\n\n", host, filesText(place.FilesOf(host)), b); err != nil {
			return fmt.Errorf("tap: config: %w", err)
		}
	}
	quoted := make([]string, 0, len(tapArgs)+1)
	for _, a := range append([]string{mcptui}, tapArgs...) {
		quoted = append(quoted, shellQuote(a))
	}
	_, err := fmt.Fprintf(w, "# Claude Code, from a shell\nclaude mcp add %s -- %s\n\n"+
		"# Then restart the host (or reload its MCP servers) and watch it with:\nmcptui attach %s\n",
		shellQuote(name), strings.Join(quoted, " "), shellQuote(name))
	if err != nil {
		return fmt.Errorf("tap: config: %w", err)
	}
	return nil
}

// filesText names the files a host reads: this project's, then the user's.
func filesText(files []hostconfig.Source) string {
	if len(files) == 0 {
		return "the host's config file"
	}
	parts := make([]string, 0, len(files))
	for _, f := range files {
		where := "the user's"
		if f.Workspace != "" {
			where = "this project's"
		}
		parts = append(parts, fmt.Sprintf("%s (%s)", f.Path, where))
	}
	if len(parts) == 1 {
		return parts[0]
	}
	return "one of " + strings.Join(parts, ", ")
}

// shellQuote quotes s for a POSIX shell when it needs it.
func shellQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./=:@%+,") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
