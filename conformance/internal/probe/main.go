// Command probe is a SCAFFOLD for the conformance run, used only until
// mcptui's headless commands exist: a stand-in for them with the same
// command-line shape, built directly on the mcp package (mcp.Connect, the
// typed calls and an Answerer), so that the driver can run the suite's
// scenarios against mcptui's real engine before `mcptui tools` and
// `mcptui call` are there. It implements only what the driver uses:
//
//	probe tools [flags] -- command [args...]
//	probe call NAME [--args JSON] [flags] -- command [args...]
//
// Flags: --protocol V (repeatable), --answer elicitation=accept-defaults|
// decline|cancel|@file.json. The result is printed as JSON on stdout
// (tools: {"tools": [...]} as received; call: the result as received);
// errors go to stderr with exit status 1 (2 for usage).
//
// Delete it once the driver runs mcptui itself (conformance/run.sh uses
// mcptui when `mcptui tools --help` works).
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/mcptui/mcptui/conn"
	"github.com/mcptui/mcptui/mcp"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// listFlag collects a repeatable flag.
type listFlag []string

func (l *listFlag) String() string     { return strings.Join(*l, ",") }
func (l *listFlag) Set(s string) error { *l = append(*l, s); return nil }

func run(args []string, stdout, stderr io.Writer) int {
	dash := slices.Index(args, "--")
	if dash < 1 || dash == len(args)-1 {
		fmt.Fprintln(stderr, "usage: probe tools|call NAME [--args JSON] [--protocol V] [--answer elicitation=...] -- command [args...]")
		return 2
	}
	server, serverArgs := args[dash+1], args[dash+2:]
	cmd, rest := args[0], args[1:dash]
	var name string
	if cmd == "call" {
		if len(rest) == 0 || strings.HasPrefix(rest[0], "-") {
			fmt.Fprintln(stderr, "probe: call needs a tool name")
			return 2
		}
		name, rest = rest[0], rest[1:]
	} else if cmd != "tools" {
		fmt.Fprintf(stderr, "probe: unknown command %q\n", cmd)
		return 2
	}
	fs := flag.NewFlagSet("probe", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var protocols, answers listFlag
	fs.Var(&protocols, "protocol", "allowed protocol version (repeatable)")
	fs.Var(&answers, "answer", "KIND=RULE")
	argsJSON := fs.String("args", "", "tool arguments (a JSON object)")
	if err := fs.Parse(rest); err != nil {
		return 2
	}
	opts := mcp.Options{Versions: protocols, RequestTimeout: 20 * time.Second, Conn: conn.Options{Stderr: stderr}}
	for _, a := range answers {
		kind, rule, _ := strings.Cut(a, "=")
		if kind != "elicitation" {
			fmt.Fprintf(stderr, "probe: --answer %s: only elicitation is implemented\n", a)
			return 2
		}
		ans, err := elicitationAnswerer(rule)
		if err != nil {
			fmt.Fprintf(stderr, "probe: --answer %s: %v\n", a, err)
			return 2
		}
		opts.ElicitForm = ans
	}

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	c, err := mcp.Connect(ctx, server, serverArgs, opts)
	if err != nil {
		fmt.Fprintf(stderr, "probe: %v\n", err)
		return 1
	}
	defer c.Shutdown(2 * time.Second)
	fmt.Fprintf(stderr, "probe: %s, version %s (%s)\n", server, c.Version(), c.Negotiation().Reason)

	var out json.RawMessage
	switch cmd {
	case "tools":
		list, err := c.ListTools(ctx)
		if err != nil {
			fmt.Fprintf(stderr, "probe: tools/list: %v\n", err)
			return 1
		}
		tools := make([]json.RawMessage, 0, len(list.Items))
		for _, t := range list.Items {
			tools = append(tools, t.Raw)
		}
		out, err = json.Marshal(map[string]any{"tools": tools})
		if err != nil {
			fmt.Fprintf(stderr, "probe: %v\n", err)
			return 1
		}
	case "call":
		var arguments any
		if *argsJSON != "" {
			arguments = json.RawMessage(*argsJSON)
		}
		res, err := c.CallTool(ctx, name, arguments)
		if err != nil {
			fmt.Fprintf(stderr, "probe: tools/call %s: %v\n", name, err)
			return 1
		}
		out = res.Raw
	}
	fmt.Fprintf(stdout, "%s\n", out)
	return 0
}

// elicitationAnswerer answers form elicitations by rule: accept-defaults
// (each property's default, when it has one), decline, cancel, or
// @file.json (the answer object in the file).
func elicitationAnswerer(rule string) (mcp.Answerer, error) {
	switch {
	case rule == "accept-defaults":
		return mcp.AnswerFunc(acceptDefaults), nil
	case rule == "decline" || rule == "cancel":
		ans := json.RawMessage(`{"action":"` + rule + `"}`)
		return mcp.AnswerFunc(func(context.Context, *mcp.Question) (json.RawMessage, error) { return ans, nil }), nil
	case strings.HasPrefix(rule, "@"):
		b, err := os.ReadFile(rule[1:])
		if err != nil {
			return nil, fmt.Errorf("reading the answer: %w", err)
		}
		if !json.Valid(b) {
			return nil, errors.New("the answer file is not JSON")
		}
		return mcp.AnswerFunc(func(context.Context, *mcp.Question) (json.RawMessage, error) { return b, nil }), nil
	}
	return nil, fmt.Errorf("unknown rule %q", rule)
}

// acceptDefaults accepts with every default the requested schema gives.
func acceptDefaults(_ context.Context, q *mcp.Question) (json.RawMessage, error) {
	var p struct {
		RequestedSchema struct {
			Properties map[string]struct {
				Default json.RawMessage `json:"default"`
			} `json:"properties"`
		} `json:"requestedSchema"`
	}
	if err := json.Unmarshal(q.Params, &p); err != nil {
		return nil, fmt.Errorf("reading the elicitation: %w", err)
	}
	content := map[string]json.RawMessage{}
	for k, prop := range p.RequestedSchema.Properties {
		if len(prop.Default) > 0 {
			content[k] = prop.Default
		}
	}
	return json.Marshal(map[string]any{"action": "accept", "content": content})
}
