// Package hostconfig reads the MCP server lists people already keep in their
// host applications — the desktop chat app's claude_desktop_config.json, the
// coding agent's .mcp.json and user config, VS Code's mcp.json, Cursor's
// mcp.json, the official Inspector's --config file — so mcptui can open any
// of those servers by name. It only reads: it never writes a host's file.
//
// Each host expands variables its own way (${VAR} and ${VAR:-default} for
// the coding agent, ${env:VAR}, ${userHome} and ${workspaceFolder} for the
// editors, none for the desktop app); Read applies the rules of the file's
// host and reports what it could not expand rather than guessing.
package hostconfig

import (
	"encoding/json"
	"fmt"
	"os"
	"sort"
	"strings"
)

// Host is the application a config file belongs to; it decides the file's
// shape and how variables in it expand.
type Host int

// The hosts whose files mcptui reads.
const (
	// Generic is a plain {"mcpServers": {...}} file, such as the official
	// Inspector's --config file: no variables are expanded.
	Generic Host = iota
	// ClaudeDesktop is the desktop chat app (claude_desktop_config.json).
	ClaudeDesktop
	// ClaudeCode is the coding agent (.mcp.json in a project, ~/.claude.json).
	ClaudeCode
	// VSCode is Visual Studio Code (.vscode/mcp.json, the user mcp.json).
	VSCode
	// Cursor is the Cursor editor (.cursor/mcp.json, ~/.cursor/mcp.json).
	Cursor
)

// String names the host as its users do.
func (h Host) String() string {
	switch h {
	case ClaudeDesktop:
		return "Claude Desktop"
	case ClaudeCode:
		return "Claude Code"
	case VSCode:
		return "VS Code"
	case Cursor:
		return "Cursor"
	default:
		return "mcpServers file"
	}
}

// Transport is how a server is reached.
type Transport string

// The transports a config entry can name.
const (
	Stdio Transport = "stdio"
	HTTP  Transport = "http"
	SSE   Transport = "sse"
)

// Server is one entry of a config file, with its variables expanded.
type Server struct {
	// Name is the entry's key.
	Name string
	// Host and File say where the entry was found; Scope tells entries of
	// the same file apart where the host has several (the coding agent's
	// ~/.claude.json holds user and per-project servers).
	Host  Host
	File  string
	Scope string
	// Transport is stdio for a command, http or sse for a URL.
	Transport Transport
	// Command, Args, Env (sorted by name) and Dir start a stdio server.
	Command string
	Args    []string
	Env     []EnvVar
	Dir     string
	// URL and Headers (sorted by name) reach an HTTP server.
	URL     string
	Headers []Header
	// OAuth is the entry's oauth block (nil: none): the client to
	// authorize as, where the host config names one.
	OAuth *OAuth
	// Disabled is set when the host has the entry switched off.
	Disabled bool
	// Problems are what could not be taken as written: variables that are
	// not set, inputs the editor would prompt for, fields of the wrong type.
	Problems []string
	// Prompts are the values the host would ask its user for when it
	// starts the server, left as written (each is in Problems too).
	Prompts []Prompt
}

// OAuth is what an entry's oauth block says of the authorization, in the
// terms of mcptui's flags: ClientID (--client-id), a pre-registered client
// for a server without dynamic registration; CallbackPort
// (--redirect-port), the loopback redirect's fixed port; Scopes
// (--scope), asked for besides the server's.
type OAuth struct {
	ClientID     string
	CallbackPort int
	Scopes       []string
}

// EnvVar is one variable set for a stdio server.
type EnvVar struct{ Name, Value string }

// Header is one HTTP header sent to a remote server.
type Header struct{ Name, Value string }

// Label is the server as a list shows it: its name, and its scope where
// the file has several.
func (s Server) Label() string {
	if s.Scope != "" {
		return s.Name + " (" + s.Scope + ")"
	}
	return s.Name
}

// Target is what the entry runs or reaches: the command line or the URL.
func (s Server) Target() string {
	if s.Transport != Stdio {
		return s.URL
	}
	return strings.Join(append([]string{s.Command}, s.Args...), " ")
}

// Vars is what variable expansion may consult.
type Vars struct {
	// Getenv looks a variable up; nil means os.LookupEnv.
	Getenv func(string) (string, bool)
	// Home is the user's home directory; Workspace the project directory
	// (the one holding .vscode, .cursor or .mcp.json).
	Home, Workspace string
}

func (v Vars) lookup(name string) (string, bool) {
	if v.Getenv != nil {
		return v.Getenv(name)
	}
	return os.LookupEnv(name)
}

// ReadFile reads the config file at path as host's (or, for Generic, by its
// shape) and returns its servers sorted by name.
func ReadFile(path string, host Host, vars Vars) ([]Server, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("reading the config file: %w", err)
	}
	servers, err := Parse(b, host, vars)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	for i := range servers {
		servers[i].File = path
	}
	return servers, nil
}

// Parse reads one config file's contents. Files are JSON; VS Code's and
// Cursor's may hold comments and trailing commas, which are accepted.
func Parse(b []byte, host Host, vars Vars) ([]Server, error) {
	var doc map[string]json.RawMessage
	if err := json.Unmarshal(stripJSONC(b), &doc); err != nil {
		return nil, fmt.Errorf("not a JSON object: %w", err)
	}
	var out []Server
	add := func(key, scope string, doc map[string]json.RawMessage) error {
		raw, ok := doc[key]
		if !ok {
			return nil
		}
		servers, err := parseServers(raw, host, scope, vars)
		if err != nil {
			return fmt.Errorf("%q: %w", key, err)
		}
		out = append(out, servers...)
		return nil
	}
	// VS Code keeps its list under "servers"; everyone else under
	// "mcpServers". A file of unknown host is read by its shape.
	if host.ListKey() == "servers" || (host == Generic && doc["servers"] != nil && doc["mcpServers"] == nil) {
		if err := add("servers", "", doc); err != nil {
			return nil, err
		}
	} else if err := add("mcpServers", "", doc); err != nil {
		return nil, err
	}
	if host == ClaudeCode {
		// ~/.claude.json: per-project servers under projects[dir].mcpServers.
		if err := addProjects(doc, vars, &out); err != nil {
			return nil, err
		}
	}
	if out == nil && doc["mcpServers"] == nil && doc["servers"] == nil && doc["projects"] == nil {
		return nil, fmt.Errorf(`no server list in it (want "mcpServers", or "servers" for VS Code)`)
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].Scope != out[j].Scope {
			return out[i].Scope < out[j].Scope
		}
		return out[i].Name < out[j].Name
	})
	return out, nil
}

func addProjects(doc map[string]json.RawMessage, vars Vars, out *[]Server) error {
	raw, ok := doc["projects"]
	if !ok {
		return nil
	}
	var projects map[string]struct {
		MCPServers json.RawMessage `json:"mcpServers"`
	}
	if err := json.Unmarshal(raw, &projects); err != nil {
		return fmt.Errorf(`"projects": %w`, err)
	}
	for dir, p := range projects {
		if len(p.MCPServers) == 0 {
			continue
		}
		v := vars
		v.Workspace = dir
		servers, err := parseServers(p.MCPServers, ClaudeCode, "project "+dir, v)
		if err != nil {
			return fmt.Errorf(`"projects" %q: %w`, dir, err)
		}
		*out = append(*out, servers...)
	}
	return nil
}

// Key is the host's word in a HOST:NAME server name (claude-code:github),
// which picks a server that several hosts' files hold under one name.
func (h Host) Key() string {
	switch h {
	case ClaudeDesktop:
		return "claude-desktop"
	case ClaudeCode:
		return "claude-code"
	case VSCode:
		return "vscode"
	case Cursor:
		return "cursor"
	default:
		return "file"
	}
}

// hostOfKey reads a Key ("vscode", also "code", "claude", "desktop").
func hostOfKey(k string) (Host, bool) {
	switch strings.ToLower(k) {
	case "claude-desktop", "desktop":
		return ClaudeDesktop, true
	case "claude-code", "claude":
		return ClaudeCode, true
	case "vscode", "code":
		return VSCode, true
	case "cursor":
		return Cursor, true
	case "file":
		return Generic, true
	}
	return 0, false
}

// Find picks the server called name. A name that several scopes of a
// file share is given as its Label; one that several hosts' files hold as
// HOST:NAME (vscode:github); one that two files of the same host hold
// only by naming the file (--config).
func Find(servers []Server, name string) (Server, error) {
	var hits []Server
	for _, s := range servers {
		if s.Name == name || s.Label() == name {
			hits = append(hits, s)
		}
	}
	if key, rest, ok := strings.Cut(name, ":"); ok && len(hits) == 0 {
		if h, ok := hostOfKey(key); ok {
			for _, s := range servers {
				if s.Host == h && (s.Name == rest || s.Label() == rest) {
					hits = append(hits, s)
				}
			}
		}
	}
	switch len(hits) {
	case 1:
		return hits[0], nil
	case 0:
		names := make([]string, len(servers))
		for i, s := range servers {
			names[i] = s.Label()
		}
		if len(names) == 0 {
			return Server{}, fmt.Errorf("no server %q: the file lists none", name)
		}
		return Server{}, fmt.Errorf("no server %q; the file lists %s", name, strings.Join(names, ", "))
	default:
		return Server{}, fmt.Errorf("%q is in %d places; name one: %s", name, len(hits), strings.Join(choices(hits), ", "))
	}
}

// choices is how to name each of hits, servers of one name: by its label
// where only it has that label, else as HOST:LABEL where only it is of its
// host, else by its file.
func choices(hits []Server) []string {
	out := make([]string, len(hits))
	for i, s := range hits {
		labels, hosts := 0, 0
		for _, o := range hits {
			if o.Label() == s.Label() {
				labels++
				if o.Host == s.Host {
					hosts++
				}
			}
		}
		switch {
		case labels == 1:
			out[i] = fmt.Sprintf("%q (%s, %s)", s.Label(), s.Host, s.File)
		case hosts == 1:
			out[i] = fmt.Sprintf("%s:%s (%s)", s.Host.Key(), s.Label(), s.File)
		default:
			out[i] = fmt.Sprintf("--config %s %s", s.File, s.Label())
		}
	}
	return out
}
