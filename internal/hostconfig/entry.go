package hostconfig

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// entry is one server as the hosts write it; the union of their fields.
type entry struct {
	Type     string            `json:"type"`
	Command  string            `json:"command"`
	Args     []string          `json:"args"`
	Env      map[string]string `json:"env"`
	EnvFile  string            `json:"envFile"`
	Cwd      string            `json:"cwd"`
	URL      string            `json:"url"`
	Headers  map[string]string `json:"headers"`
	Disabled bool              `json:"disabled"`
	// OAuth is VS Code's (and the coding agent's) oauth block, read
	// member by member so that an unknown one can be named.
	OAuth map[string]json.RawMessage `json:"oauth"`
}

func parseServers(raw json.RawMessage, host Host, scope string, vars Vars) ([]Server, error) {
	var entries map[string]json.RawMessage
	if err := json.Unmarshal(raw, &entries); err != nil {
		return nil, fmt.Errorf("want an object of servers by name: %w", err)
	}
	out := make([]Server, 0, len(entries))
	for name, raw := range entries {
		var e entry
		s := Server{Name: name, Host: host, Scope: scope}
		if err := json.Unmarshal(raw, &e); err != nil {
			s.Problems = append(s.Problems, fmt.Sprintf("the entry is not a server object: %v", err))
			out = append(out, s)
			continue
		}
		s.fill(e, vars)
		out = append(out, s)
	}
	return out, nil
}

// fill turns a written entry into a Server, expanding variables by the
// host's rules.
func (s *Server) fill(e entry, vars Vars) {
	x := expander{host: s.Host, vars: vars}
	s.Disabled = e.Disabled
	s.Command = x.at(Prompt{Field: "command"}, e.Command)
	for _, a := range e.Args {
		s.Args = append(s.Args, x.at(Prompt{Field: "args"}, a))
	}
	s.URL = x.at(Prompt{Field: "url"}, e.URL)
	s.Dir = x.at(Prompt{Field: "cwd"}, e.Cwd)
	if s.Dir == "" && vars.Workspace != "" && s.Host != ClaudeDesktop && s.Host != Generic {
		// Editors and the coding agent start a project's servers in the
		// project.
		s.Dir = vars.Workspace
	}
	env := map[string]string{}
	if e.EnvFile != "" {
		path := x.at(Prompt{Field: "envFile"}, e.EnvFile)
		if !filepath.IsAbs(path) && vars.Workspace != "" {
			path = filepath.Join(vars.Workspace, path)
		}
		if err := readEnvFile(path, env); err != nil {
			x.problems = append(x.problems, err.Error())
		}
	}
	for k, v := range e.Env {
		env[k] = x.at(Prompt{Field: "env", Key: k}, v)
	}
	for _, k := range sortedKeys(env) {
		s.Env = append(s.Env, EnvVar{Name: k, Value: env[k]})
	}
	for _, k := range sortedKeys(e.Headers) {
		s.Headers = append(s.Headers, Header{Name: k, Value: x.at(Prompt{Field: "header", Key: k}, e.Headers[k])})
	}
	s.Transport = transportOf(e)
	s.OAuth = x.oauth(e.OAuth, s.Transport)
	switch {
	case s.Transport == Stdio && s.Command == "":
		x.problems = append(x.problems, `no "command" (and no "url")`)
	case s.Transport != Stdio && s.URL == "":
		x.problems = append(x.problems, fmt.Sprintf("type %q but no \"url\"", e.Type))
	}
	s.Problems = append(s.Problems, x.problems...)
	s.Prompts = x.prompts
}

// transportOf reads the entry's type, or infers it: a URL without a command
// is an HTTP server.
func transportOf(e entry) Transport {
	switch strings.ToLower(e.Type) {
	case "sse":
		return SSE
	case "http", "streamable-http", "streamablehttp", "streamable_http":
		return HTTP
	case "stdio":
		return Stdio
	}
	if e.Command == "" && e.URL != "" {
		return HTTP
	}
	return Stdio
}

// readEnvFile adds the KEY=VALUE lines of a dotenv file to env.
func readEnvFile(path string, env map[string]string) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return fmt.Errorf("envFile: %w", err)
	}
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		line = strings.TrimPrefix(line, "export ")
		k, v, ok := strings.Cut(line, "=")
		if !ok {
			continue
		}
		v = strings.TrimSpace(v)
		if len(v) >= 2 && (v[0] == '"' || v[0] == '\'') && v[len(v)-1] == v[0] {
			v = v[1 : len(v)-1]
		}
		env[strings.TrimSpace(k)] = v
	}
	return sc.Err()
}

func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
