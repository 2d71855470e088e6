// Package surfaceserver is a scripted stdio MCP server for tests: it serves
// the surface a JSON spec describes (server info, capabilities,
// instructions, tools, resources, templates, prompts), a page of PageSize
// items at a time, and answers tools/call, resources/read and prompts/get
// from the spec. Two specs that differ in one place make a v1/v2 pair.
//
// A test binary runs as the server when Env names a spec file: call Main
// first thing in TestMain, and start the server as Command(t, spec).
package surfaceserver

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"testing"

	"github.com/mcptui/mcptui/internal/protocol"
)

// Env names the spec file the test binary serves when it is set.
const Env = "MCPTUI_SURFACESERVER_SPEC"

// Spec is what the server serves.
type Spec struct {
	// Protocols are the initialize-era versions it accepts, preferred
	// first (default 2025-06-18).
	Protocols         []string         `json:"protocols,omitempty"`
	ServerInfo        map[string]any   `json:"serverInfo,omitempty"`
	Capabilities      map[string]any   `json:"capabilities,omitempty"`
	Instructions      string           `json:"instructions,omitempty"`
	Tools             []map[string]any `json:"tools,omitempty"`
	Resources         []map[string]any `json:"resources,omitempty"`
	ResourceTemplates []map[string]any `json:"resourceTemplates,omitempty"`
	Prompts           []map[string]any `json:"prompts,omitempty"`
	// ToolsByProtocol replaces Tools on the sessions of a protocol, for
	// servers whose revisions differ.
	ToolsByProtocol map[string][]map[string]any `json:"toolsByProtocol,omitempty"`
	// PageSize is the items per list page (default 2, so lists paginate).
	PageSize int `json:"pageSize,omitempty"`
	// Results are tools/call results by tool name (default: a text that
	// echoes the arguments).
	Results map[string]json.RawMessage `json:"results,omitempty"`
}

// Main serves the spec Env names and exits, when it is set; else it
// returns at once.
func Main() {
	path := os.Getenv(Env)
	if path == "" {
		return
	}
	b, err := os.ReadFile(path)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	var spec Spec
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber() // numbers as written
	if err := d.Decode(&spec); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	if err := Serve(os.Stdin, os.Stdout, spec); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	os.Exit(0)
}

// Write writes spec to a file of t's and returns the env entry that makes
// the test binary serve it.
func Write(t testing.TB, spec Spec) string {
	t.Helper()
	b, err := json.Marshal(spec)
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.CreateTemp(t.TempDir(), "spec-*.json")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.Write(b); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	return f.Name()
}

// Command is the command line that runs the test binary as the server of
// spec (through env: the spec file's path), for tests that start servers
// with mcptui's -e flag or an environment of their own.
func Command(t testing.TB, spec Spec) (command string, args []string, env []string) {
	t.Helper()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return self, nil, []string{Env + "=" + Write(t, spec)}
}

// Shell is a shell word list that runs the test binary as the server of
// spec: "env NAME=PATH /path/to/test.binary".
func Shell(t testing.TB, spec Spec) []string {
	t.Helper()
	cmd, _, env := Command(t, spec)
	return []string{"env", env[0], filepath.Clean(cmd)}
}

type message struct {
	ID     json.RawMessage `json:"id,omitempty"`
	Method string          `json:"method"`
	Params json.RawMessage `json:"params,omitempty"`
}

// Serve answers the requests read from r on w until r ends.
func Serve(r io.Reader, w io.Writer, spec Spec) error {
	if len(spec.Protocols) == 0 {
		spec.Protocols = []string{protocol.Rev20250618}
	}
	if spec.PageSize <= 0 {
		spec.PageSize = 2
	}
	if spec.ServerInfo == nil {
		spec.ServerInfo = map[string]any{"name": "surface", "version": "1.0.0"}
	}
	if spec.Capabilities == nil {
		spec.Capabilities = map[string]any{}
	}
	base := spec.Tools
	in := bufio.NewScanner(r)
	in.Buffer(make([]byte, 1<<20), 16<<20)
	out := bufio.NewWriter(w)
	for in.Scan() {
		var m message
		if err := json.Unmarshal(in.Bytes(), &m); err != nil || m.ID == nil || m.Method == "" {
			continue // a notification or an answer: nothing to say
		}
		if m.Method == protocol.MethodInitialize {
			var p struct {
				ProtocolVersion string `json:"protocolVersion"`
			}
			_ = json.Unmarshal(m.Params, &p)
			spec.Tools = base
			if t, ok := spec.ToolsByProtocol[p.ProtocolVersion]; ok {
				spec.Tools = t
			}
		}
		result, rpcErr := spec.answer(m)
		reply := map[string]any{"jsonrpc": "2.0", "id": m.ID}
		if rpcErr != nil {
			reply["error"] = rpcErr
		} else {
			reply["result"] = result
		}
		b, err := json.Marshal(reply)
		if err != nil {
			return err
		}
		out.Write(b)
		out.WriteByte('\n')
		if err := out.Flush(); err != nil {
			return err
		}
	}
	return in.Err()
}

func (s Spec) answer(m message) (any, map[string]any) {
	var p struct {
		ProtocolVersion string          `json:"protocolVersion"`
		Cursor          string          `json:"cursor"`
		Name            string          `json:"name"`
		URI             string          `json:"uri"`
		Arguments       json.RawMessage `json:"arguments"`
	}
	_ = json.Unmarshal(m.Params, &p)
	switch m.Method {
	case protocol.MethodInitialize:
		v := s.Protocols[0]
		if slices.Contains(s.Protocols, p.ProtocolVersion) {
			v = p.ProtocolVersion
		}
		res := map[string]any{"protocolVersion": v, "capabilities": s.Capabilities, "serverInfo": s.ServerInfo}
		if s.Instructions != "" {
			res["instructions"] = s.Instructions
		}
		return res, nil
	case protocol.MethodPing:
		return map[string]any{}, nil
	case protocol.MethodListTools:
		return page(s.Tools, "tools", p.Cursor, s.PageSize)
	case protocol.MethodListResources:
		return page(s.Resources, "resources", p.Cursor, s.PageSize)
	case protocol.MethodListResourceTemplates:
		return page(s.ResourceTemplates, "resourceTemplates", p.Cursor, s.PageSize)
	case protocol.MethodListPrompts:
		return page(s.Prompts, "prompts", p.Cursor, s.PageSize)
	case protocol.MethodCallTool:
		if r, ok := s.Results[p.Name]; ok {
			return r, nil
		}
		if !slices.ContainsFunc(s.Tools, func(t map[string]any) bool { return t["name"] == p.Name }) {
			return nil, map[string]any{"code": -32602, "message": "unknown tool " + p.Name}
		}
		args := string(p.Arguments)
		if args == "" {
			args = "{}"
		}
		return map[string]any{"content": []any{map[string]any{"type": "text", "text": p.Name + " " + args}}}, nil
	case protocol.MethodReadResource:
		return map[string]any{"contents": []any{map[string]any{"uri": p.URI, "text": "contents of " + p.URI}}}, nil
	case protocol.MethodGetPrompt:
		return map[string]any{"messages": []any{map[string]any{"role": "user", "content": map[string]any{"type": "text", "text": "prompt " + p.Name}}}}, nil
	}
	return nil, map[string]any{"code": -32601, "message": "Method not found: " + m.Method}
}

// page is one page of items from cursor (an index).
func page(items []map[string]any, field, cursor string, size int) (any, map[string]any) {
	start := 0
	if cursor != "" {
		n, err := strconv.Atoi(cursor)
		if err != nil || n < 0 || n > len(items) {
			return nil, map[string]any{"code": -32602, "message": "bad cursor " + cursor}
		}
		start = n
	}
	end := min(start+size, len(items))
	list := items[start:end]
	if list == nil {
		list = []map[string]any{}
	}
	res := map[string]any{field: list}
	if end < len(items) {
		res["nextCursor"] = strconv.Itoa(end)
	}
	return res, nil
}
