package app

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/mcptui/mcptui/internal/testkit/e2e"
	"github.com/mcptui/mcptui/internal/testkit/realservers"
)

// asMainEnv makes the test binary run as mcptui (for replay --serve).
const asMainEnv = "MCPTUI_TEST_AS_MAIN"

// eraCase is one command against a real server: the exit code expected
// and text its output must hold.
type eraCase struct {
	name string
	args []string
	exit int
	want string
}

// eraCases are the commands run against a server with the eras test set
// (add, now, sample, progress, eras://readme, greet).
func eraCases(srv realservers.Server, script string) []eraCase {
	completeExit, completeWant := 0, `"completion"`
	templatesExit, templatesWant := 0, `"resourceTemplates"`
	switch srv.Name {
	case "sdk 1.0.4":
		// 2024-11-05 had completion/complete without a capability: it is
		// sent, and an SDK 1.0 server without a handler answers -32601;
		// so does its resources/templates/list without one.
		completeExit, completeWant = 4, "-32601"
		templatesExit, templatesWant = 4, "-32601"
	case "mcp-go " + realservers.MCPGoVersion, "sdk 1.32.2":
		// They declare completions only with a completable argument.
		completeExit, completeWant = 9, "the server declares no completions capability"
	}
	return []eraCase{
		{"tools", []string{"tools"}, 0, `"add"`},
		{"resources", []string{"resources"}, 0, "eras://readme"},
		{"templates", []string{"templates"}, templatesExit, templatesWant},
		{"prompts", []string{"prompts"}, 0, `"greet"`},
		{"call add", []string{"call", "add", "--arg", "a:=2", "--arg", "b:=3"}, 0, `5`},
		{"call now (no args)", []string{"call", "now"}, 0, "it is now"},
		{"call progress", []string{"call", "progress"}, 0, "done in 3 steps"},
		{"call sample", []string{"call", "sample", "--arg", "prompt=hi", "--answer", "sampling=text:a haiku"}, 0, "the model said: a haiku"},
		{"read", []string{"read", "eras://readme"}, 0, "hello from"},
		{"get", []string{"get", "greet", "--arg", "name=Ada"}, 0, "Hello, Ada"},
		{"complete", []string{"complete", "prompt:greet", "name=A"}, completeExit, completeWant},
		{"request ping", []string{"request", "ping"}, 0, "{}"},
		{"run", []string{"run", script}, 0, "passed"},
		{"doctor", []string{"doctor"}, 0, "healthy"},
	}
}

// fsCases are the commands run against server-filesystem 0.6.2, which
// declares only tools.
func fsCases(root string) []eraCase {
	return []eraCase{
		{"tools", []string{"tools"}, 0, `"list_allowed_directories"`},
		{"resources", []string{"resources"}, 9, "the server declares no resources capability"},
		{"templates", []string{"templates"}, 9, "the server declares no resources capability"},
		{"prompts", []string{"prompts"}, 9, "the server declares no prompts capability"},
		{"call (no args)", []string{"call", "list_allowed_directories"}, 0, "Allowed directories"},
		{"call", []string{"call", "list_directory", "--arg", "path=" + root}, 0, "hello.txt"},
		{"complete", []string{"complete", "prompt:x", "a=b"}, 9, "the server declares no prompts capability"},
		{"request ping", []string{"request", "ping"}, 0, "{}"},
		{"doctor", []string{"doctor"}, 0, "healthy"},
	}
}

// TestRealServersOfEveryEra runs every headless command, doctor, a run
// script and a recording replayed with replay --serve against real
// servers of every protocol era, and prints the table version × command
// × result.
func TestRealServersOfEveryEra(t *testing.T) {
	e2e.Require(t)
	if testing.Short() {
		t.Skip("real servers: not in -short")
	}
	root := t.TempDir()
	if err := os.WriteFile(filepath.Join(root, "hello.txt"), []byte("hi"), 0o644); err != nil {
		t.Fatal(err)
	}
	script := filepath.Join(t.TempDir(), "eras.mcp")
	if err := os.WriteFile(script, []byte("tools\nexpect .tools.length >= 4\ncall add a:=1 b:=2\nexpect .content[0].text == \"3\"\nget greet name=Ada\nexpect ok\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var table []string
	for _, srv := range realservers.All(t, root) {
		t.Run(srv.Name, func(t *testing.T) {
			cases := fsCases(root)
			if srv.Full {
				cases = eraCases(srv, script)
			}
			server := append([]string{"--", srv.Command}, srv.Args...)
			var row []string
			for _, c := range cases {
				code, out := runApp(t, nil, append(append([]string{}, c.args...), server...)...)
				ok := code == c.exit && strings.Contains(out, c.want)
				if !ok {
					t.Errorf("%s: exit %d (want %d), %q not in:\n%s", c.name, code, c.exit, c.want, out)
				}
				row = append(row, fmt.Sprintf("%s=%d%s", c.name, code, map[bool]string{true: "", false: "✗"}[ok]))
			}
			if srv.Full {
				// A recording of a call, served back by replay --serve.
				rec := filepath.Join(t.TempDir(), "call.jsonl")
				code, out := runApp(t, nil, append([]string{"call", "add", "--arg", "a:=20", "--arg", "b:=22", "--record", rec}, server...)...)
				if code != 0 {
					t.Fatalf("recording: exit %d\n%s", code, out)
				}
				self, _ := os.Executable()
				code, out = runApp(t, []string{asMainEnv + "=1"}, "call", "add", "--arg", "a:=20", "--arg", "b:=22", "--protocol", srv.Protocol, "--", self, "replay", "--serve", rec)
				ok := code == 0 && strings.Contains(out, "42")
				if !ok {
					t.Errorf("replay --serve: exit %d\n%s", code, out)
				}
				row = append(row, fmt.Sprintf("replay--serve=%d%s", code, map[bool]string{true: "", false: "✗"}[ok]))
			}
			mu.Lock()
			table = append(table, fmt.Sprintf("%-24s %s  %s", srv.Name, srv.Protocol, strings.Join(row, " ")))
			mu.Unlock()
		})
	}
	t.Logf("version × command × exit code:\n%s", strings.Join(table, "\n"))
}

// runApp runs mcptui's command line in this process (env set for the
// server it starts) and returns the exit code and stdout+stderr.
func runApp(t *testing.T, env []string, args ...string) (int, string) {
	t.Helper()
	for _, kv := range env {
		k, v, _ := strings.Cut(kv, "=")
		t.Setenv(k, v)
	}
	var stdout, stderr bytes.Buffer
	code := Run(args, &stdout, &stderr)
	return code, stdout.String() + stderr.String()
}
