package hostconfig

import (
	"encoding/json"
	"fmt"
)

// Hosts are the applications whose config format mcptui knows, to read
// them and to print an entry to paste into one.
func Hosts() []Host { return []Host{ClaudeDesktop, ClaudeCode, VSCode, Cursor} }

// ListKey is the member of the host's config file that holds its servers
// by name: "servers" for VS Code, "mcpServers" for everyone else.
func (h Host) ListKey() string {
	if h == VSCode {
		return "servers"
	}
	return "mcpServers"
}

// typed reports whether the host's entries say their transport ("type":
// "stdio"), as its own tools write them.
func (h Host) typed() bool { return h == ClaudeCode || h == VSCode }

// StdioEntry is a config document in the host's format that declares one
// stdio server under name: what to merge into the host's file (mcptui
// never writes a host's file). Parse reads it back as that server.
func StdioEntry(h Host, name, command string, args []string) ([]byte, error) {
	e := struct {
		Type    string   `json:"type,omitempty"`
		Command string   `json:"command"`
		Args    []string `json:"args"`
	}{Command: command, Args: args}
	if e.Args == nil {
		e.Args = []string{}
	}
	if h.typed() {
		e.Type = string(Stdio)
	}
	b, err := json.MarshalIndent(map[string]any{h.ListKey(): map[string]any{name: e}}, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("hostconfig: %s entry: %w", h, err)
	}
	return b, nil
}

// FilesOf are the files the host reads at this place, project files first.
func (p Place) FilesOf(h Host) []Source {
	var out []Source
	for _, s := range p.Sources() {
		if s.Host == h {
			out = append(out, s)
		}
	}
	return out
}
