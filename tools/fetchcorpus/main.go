// Command fetchcorpus records what a real MCP server offers (tools with their
// schemas, prompts, resources, templates) and the requested schemas of its
// form elicitations, into a directory of JSON files that schemaform's and
// the catalog's tests read. It is run by hand, once per server:
//
//	go run ./tools/fetchcorpus -out internal/schemaform/testdata/corpus/everything \
//	    -elicit trigger-elicitation-request -- npx -y @modelcontextprotocol/server-everything stdio
//	go run ./tools/fetchcorpus -out internal/schemaform/testdata/corpus/demo \
//	    -elicit elicit_form -- go run . demo-server
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/mcptui/mcptui/mcp"
)

func main() {
	out := flag.String("out", "", "directory to write into")
	elicit := flag.String("elicit", "", "comma-separated tools whose form elicitation schema to record")
	version := flag.String("version", "", "pin a protocol version")
	flag.Parse()
	if *out == "" || flag.NArg() == 0 {
		fmt.Fprintln(os.Stderr, "usage: fetchcorpus -out DIR [-elicit tool,...] -- command args...")
		os.Exit(2)
	}
	if err := run(*out, *elicit, *version, flag.Args()); err != nil {
		fmt.Fprintln(os.Stderr, "fetchcorpus:", err)
		os.Exit(1)
	}
}

func run(out, elicit, version string, argv []string) error {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	var mu sync.Mutex
	asked := map[string]json.RawMessage{}
	var current string
	record := mcp.AnswerFunc(func(_ context.Context, q *mcp.Question) (json.RawMessage, error) {
		mu.Lock()
		asked[current] = q.Params
		mu.Unlock()
		return json.RawMessage(`{"action":"decline"}`), nil
	})
	refuse := mcp.AnswerFunc(func(context.Context, *mcp.Question) (json.RawMessage, error) {
		return nil, &mcp.Error{Code: -1, Message: "not answered by fetchcorpus"}
	})
	roots := mcp.AnswerFunc(func(context.Context, *mcp.Question) (json.RawMessage, error) {
		return json.RawMessage(`{"roots":[]}`), nil
	})
	opts := mcp.Options{ElicitForm: record, ElicitURL: refuse, Sampling: refuse, Roots: roots}
	if version != "" {
		opts.Versions = []string{version}
	}
	c, err := mcp.Connect(ctx, argv[0], argv[1:], opts)
	if err != nil {
		return err
	}
	defer c.Shutdown(2 * time.Second)
	// Servers that register tools after initialization announce them with
	// list_changed: give them a moment before listing.
	time.Sleep(time.Second)
	if err := os.MkdirAll(out, 0o755); err != nil {
		return err
	}
	write := func(name string, pages []json.RawMessage) error {
		var items []json.RawMessage
		for _, p := range pages {
			var page map[string]json.RawMessage
			if err := json.Unmarshal(p, &page); err != nil {
				return err
			}
			var list []json.RawMessage
			for _, k := range []string{"tools", "prompts", "resources", "resourceTemplates"} {
				if page[k] != nil {
					_ = json.Unmarshal(page[k], &list)
				}
			}
			items = append(items, list...)
		}
		return writeJSON(filepath.Join(out, name), items)
	}
	tools, err := c.ListTools(ctx)
	if err != nil {
		return err
	}
	if err := write("tools.json", tools.Pages); err != nil {
		return err
	}
	if l, err := c.ListPrompts(ctx); err == nil {
		_ = write("prompts.json", l.Pages)
	}
	if l, err := c.ListResources(ctx); err == nil {
		_ = write("resources.json", l.Pages)
	}
	if l, err := c.ListResourceTemplates(ctx); err == nil {
		_ = write("templates.json", l.Pages)
	}
	for _, tool := range strings.Split(elicit, ",") {
		if tool == "" {
			continue
		}
		mu.Lock()
		current = tool
		mu.Unlock()
		if _, err := c.CallTool(ctx, tool, map[string]any{}); err != nil {
			return fmt.Errorf("%s: %w", tool, err)
		}
		mu.Lock()
		params := asked[tool]
		mu.Unlock()
		if params == nil {
			return fmt.Errorf("%s asked nothing", tool)
		}
		if err := writeJSON(filepath.Join(out, "elicit-"+tool+".json"), params); err != nil {
			return err
		}
	}
	return nil
}

func writeJSON(path string, v any) error {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(path, append(b, '\n'), 0o644)
}
