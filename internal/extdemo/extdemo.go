// Package extdemo is a small MCP server on stdio that serves the two
// official extensions mcptui shows: skills (io.modelcontextprotocol/skills,
// with directoryRead) and an MCP App (io.modelcontextprotocol/ui: a tool
// whose _meta.ui.resourceUri names a ui:// HTML page). It backs
// `mcptui demo-server --extensions` and the tests of both extensions.
//
// Variants: Tampered serves one skill file whose bytes differ from the
// digest skills/list lists for it; Dynamic adds a skill whose resources
// are "dynamic" (no digests).
package extdemo

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"
	"sync"

	"github.com/mcptui/mcptui/skills"

	"github.com/mcptui/mcptui/internal/protocol"
)

// Variant picks what the server serves beyond the good skills.
type Variant int

// The variants.
const (
	Good Variant = iota
	// Tampered serves examples/email.md with other bytes than listed.
	Tampered
	// Dynamic adds a skill with "resources": "dynamic".
	Dynamic
)

// ParseVariant reads a variant's name ("", "good", "tampered", "dynamic").
func ParseVariant(s string) (Variant, error) {
	switch s {
	case "", "good":
		return Good, nil
	case "tampered":
		return Tampered, nil
	case "dynamic":
		return Dynamic, nil
	}
	return Good, fmt.Errorf("unknown extensions demo %q: want good, tampered or dynamic", s)
}

// AppURI is the App's UI resource.
const AppURI = "ui://extdemo/counter.html"

// AppMIME is the MIME type MCP Apps gives HTML UI resources.
const AppMIME = "text/html;profile=mcp-app"

type file struct {
	uri, mime, text string
}

type skill struct {
	uri, name, description string
	files                  []file
	dynamic                bool
}

var goodSkills = []skill{
	{
		uri: "skill://git-workflow/SKILL.md", name: "git-workflow",
		description: "Follow this team's Git conventions for branching and commits",
		files: []file{
			{"skill://git-workflow/SKILL.md", "text/markdown", "---\nname: git-workflow\ndescription: Follow this team's Git conventions for branching and commits\n---\n\n# Git workflow\n\nBranch from main, one topic per branch; see references/branching.md.\n"},
			{"skill://git-workflow/references/branching.md", "text/markdown", "# Branching\n\nName branches topic/short-description. Rebase before merging.\n"},
		},
	},
	{
		uri: "skill://acme/billing/refunds/SKILL.md", name: "refunds",
		description: "Process customer refund requests per company policy",
		files: []file{
			{"skill://acme/billing/refunds/SKILL.md", "text/markdown", "---\nname: refunds\ndescription: Process customer refund requests per company policy\n---\n\n# Refunds\n\nAnswer with the template in examples/email.md.\n"},
			{"skill://acme/billing/refunds/examples/email.md", "text/markdown", "Dear customer,\n\nYour refund of {amount} is on its way.\n"},
		},
	},
}

const tamperedURI = "skill://acme/billing/refunds/examples/email.md"

// server is one connection's state.
type server struct {
	variant Variant
	skills  []skill
	mu      sync.Mutex
	count   int
	out     io.Writer
	outMu   sync.Mutex
}

// Serve runs the server on in and out until in ends or ctx is done.
func Serve(ctx context.Context, v Variant, in io.Reader, out io.Writer) error {
	s := &server{variant: v, skills: slices.Clone(goodSkills), out: out}
	if v == Dynamic {
		s.skills = append(s.skills, skill{uri: "skill://reports/daily/SKILL.md", name: "daily",
			description: "Assemble today's operational report from live data", dynamic: true,
			files: []file{{"skill://reports/daily/SKILL.md", "text/markdown", "---\nname: daily\ndescription: Assemble today's operational report from live data\n---\n\n# Daily report\n"}}})
	}
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 0, 64*1024), 16<<20)
	for sc.Scan() {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		var msg struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
			Params json.RawMessage `json:"params"`
		}
		if json.Unmarshal(sc.Bytes(), &msg) != nil || msg.Method == "" || len(msg.ID) == 0 {
			continue // notifications and answers need no reply
		}
		res, rpcErr := s.handle(msg.Method, msg.Params)
		reply := map[string]any{"jsonrpc": "2.0", "id": msg.ID}
		if rpcErr != nil {
			reply["error"] = rpcErr
		} else {
			if m, ok := res.(map[string]any); ok && msg.Method != protocol.MethodInitialize {
				m["resultType"] = "complete"
				if strings.HasSuffix(msg.Method, "/list") || msg.Method == protocol.MethodReadResource {
					m["ttlMs"], m["cacheScope"] = 0, "private"
				}
			}
			reply["result"] = res
		}
		if err := s.write(reply); err != nil {
			return err
		}
	}
	return sc.Err()
}

func (s *server) write(v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Errorf("extdemo: encoding a reply: %w", err)
	}
	s.outMu.Lock()
	defer s.outMu.Unlock()
	_, err = s.out.Write(append(b, '\n'))
	return err
}

type rpcError struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
}

func invalid(format string, a ...any) *rpcError {
	return &rpcError{Code: -32602, Message: fmt.Sprintf(format, a...)}
}

var versions = []string{protocol.Rev20251125, protocol.Rev20250618, protocol.Rev20250326, protocol.Rev20241105}

func (s *server) handle(method string, params json.RawMessage) (any, *rpcError) {
	var p struct {
		ProtocolVersion string          `json:"protocolVersion"`
		URI             string          `json:"uri"`
		Name            string          `json:"name"`
		Arguments       json.RawMessage `json:"arguments"`
	}
	_ = json.Unmarshal(params, &p)
	switch method {
	case protocol.MethodDiscover:
		// The extensions are specified against 2026-07-28; the
		// initialize era is spoken too.
		return map[string]any{
			"resultType":        "complete",
			"supportedVersions": []string{protocol.Rev20260728, protocol.Rev20251125},
			"capabilities":      s.capabilities(),
			"instructions":      instructions,
			"ttlMs":             300000, "cacheScope": "public",
			"_meta": map[string]any{"io.modelcontextprotocol/serverInfo": serverInfo},
		}, nil
	case protocol.MethodInitialize:
		v := p.ProtocolVersion
		if !slices.Contains(versions, v) {
			v = versions[0]
		}
		return map[string]any{
			"protocolVersion": v,
			"serverInfo":      serverInfo,
			"capabilities":    s.capabilities(),
			"instructions":    instructions,
		}, nil
	case protocol.MethodPing:
		return map[string]any{}, nil
	case protocol.MethodListTools:
		return map[string]any{"tools": []any{
			map[string]any{"name": "counter", "description": "Show a counter (has an MCP App)",
				"inputSchema": map[string]any{"type": "object", "properties": map[string]any{"start": map[string]any{"type": "integer"}}},
				"_meta":       map[string]any{"ui": map[string]any{"resourceUri": AppURI}}},
			map[string]any{"name": "increment", "description": "Add one to the counter and say its value",
				"inputSchema": map[string]any{"type": "object"},
				"_meta":       map[string]any{"ui": map[string]any{"resourceUri": AppURI, "visibility": []string{"app"}}}},
		}}, nil
	case protocol.MethodCallTool:
		s.mu.Lock()
		defer s.mu.Unlock()
		switch p.Name {
		case "counter":
			return textResult(fmt.Sprintf("count is %d", s.count)), nil
		case "increment":
			s.count++
			return textResult(fmt.Sprintf("count is %d", s.count)), nil
		}
		return nil, invalid("no tool %q", p.Name)
	case protocol.MethodListResources:
		var rs []any
		for _, sk := range s.skills {
			rs = append(rs, map[string]any{"uri": sk.uri, "name": sk.name, "description": sk.description, "mimeType": "text/markdown"})
		}
		rs = append(rs, map[string]any{"uri": AppURI, "name": "counter-app", "mimeType": AppMIME})
		return map[string]any{"resources": rs}, nil
	case protocol.MethodListResourceTemplates:
		return map[string]any{"resourceTemplates": []any{}}, nil
	case protocol.MethodReadResource:
		if p.URI == AppURI {
			return map[string]any{"contents": []any{map[string]any{"uri": AppURI, "mimeType": AppMIME, "text": AppHTML,
				"_meta": map[string]any{"ui": map[string]any{"prefersBorder": true}}}}}, nil
		}
		f, ok := s.file(p.URI)
		if !ok {
			return nil, invalid("no resource %s", p.URI)
		}
		text := f.text
		if s.variant == Tampered && f.uri == tamperedURI {
			text = strings.Replace(text, "on its way", "not coming", 1) // same size, other digest
		}
		return map[string]any{"contents": []any{map[string]any{"uri": f.uri, "mimeType": f.mime, "text": text}}}, nil
	case "skills/list":
		var out []any
		for _, sk := range s.skills {
			out = append(out, sk.entry())
		}
		return map[string]any{"skills": out, "ttlMs": 300000, "cacheScope": "public"}, nil
	case "skills/get":
		for _, sk := range s.skills {
			if sk.uri == p.URI {
				return map[string]any{"skill": sk.entry(), "ttlMs": 300000, "cacheScope": "public"}, nil
			}
		}
		return nil, invalid("No skill is served at %s", p.URI)
	case "resources/directory/read":
		return s.directory(p.URI)
	}
	return nil, &rpcError{Code: -32601, Message: "method not found: " + method}
}

var serverInfo = map[string]any{"name": "mcptui-extensions-demo", "version": "1.0.0"}

const instructions = "Skills: skill://git-workflow/SKILL.md and skill://acme/billing/refunds/SKILL.md. The counter tool has an App."

func (s *server) capabilities() map[string]any {
	return map[string]any{
		"tools": map[string]any{}, "resources": map[string]any{},
		"extensions": map[string]any{
			skills.ExtensionID:           map[string]any{"directoryRead": true},
			"io.modelcontextprotocol/ui": map[string]any{},
		},
	}
}

func textResult(s string) map[string]any {
	return map[string]any{"content": []any{map[string]any{"type": "text", "text": s}}}
}

func (s *server) file(uri string) (file, bool) {
	for _, sk := range s.skills {
		for _, f := range sk.files {
			if f.uri == uri {
				return f, true
			}
		}
	}
	return file{}, false
}

func (sk skill) entry() map[string]any {
	e := map[string]any{"uri": sk.uri, "frontmatter": map[string]any{"name": sk.name, "description": sk.description}}
	if sk.dynamic {
		e["resources"] = "dynamic"
		return e
	}
	var rs []any
	for _, f := range sk.files {
		rs = append(rs, map[string]any{"uri": f.uri, "digest": skills.Digest([]byte(f.text)), "size": len(f.text)})
	}
	e["resources"] = rs
	return e
}

// directory lists the direct children of a directory under a skill.
func (s *server) directory(uri string) (any, *rpcError) {
	prefix := strings.TrimSuffix(uri, "/") + "/"
	seen := map[string]bool{}
	var out []any
	found := false
	for _, sk := range s.skills {
		for _, f := range sk.files {
			rest, ok := strings.CutPrefix(f.uri, prefix)
			if !ok {
				continue
			}
			found = true
			child, _, deeper := strings.Cut(rest, "/")
			if seen[child] {
				continue
			}
			seen[child] = true
			if deeper {
				out = append(out, map[string]any{"uri": prefix + child, "name": child, "mimeType": "inode/directory"})
			} else {
				out = append(out, map[string]any{"uri": f.uri, "name": child, "mimeType": f.mime})
			}
		}
	}
	if !found {
		return nil, invalid("%s is not a directory resource", uri)
	}
	return map[string]any{"resources": out}, nil
}
