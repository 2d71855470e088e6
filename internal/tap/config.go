package tap

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
)

// hostConfig is one host's config format for a stdio server.
type hostConfig struct {
	host string
	file string
	// key is the object that holds the servers ("mcpServers", "servers").
	key string
	// typed entries carry "type": "stdio".
	typed bool
}

// hostConfigs are the formats PrintConfig knows.
var hostConfigs = []hostConfig{
	{host: "Claude Desktop", file: "claude_desktop_config.json (macOS: ~/Library/Application Support/Claude/, Windows: %APPDATA%\\Claude\\)", key: "mcpServers"},
	{host: "Claude Code", file: ".mcp.json in the project (or: claude mcp add, below)", key: "mcpServers", typed: true},
	{host: "VS Code", file: ".vscode/mcp.json in the workspace (or the user's mcp.json)", key: "servers", typed: true},
	{host: "Cursor", file: ".cursor/mcp.json in the project, or ~/.cursor/mcp.json", key: "mcpServers"},
}

// PrintConfig writes, for each known host, the config entry that runs the
// server through mcptui's tap under the given name: mcptui is the path to
// the mcptui binary (absolute: hosts start servers with a bare
// environment). It edits nothing.
func PrintConfig(w io.Writer, name, mcptui, command string, args []string) error {
	tapArgs := append([]string{"tap", "--name", name, "--", command}, args...)
	for _, hc := range hostConfigs {
		entry := map[string]any{"command": mcptui, "args": tapArgs}
		if hc.typed {
			entry["type"] = "stdio"
		}
		doc := map[string]any{hc.key: map[string]any{name: entry}}
		b, err := json.MarshalIndent(doc, "", "  ")
		if err != nil {
			return fmt.Errorf("tap: config: %w", err)
		}
		if _, err := fmt.Fprintf(w, "# %s — merge into %s\n%s\n\n", hc.host, hc.file, b); err != nil {
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

// shellQuote quotes s for a POSIX shell when it needs it.
func shellQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./=:@%+,") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
