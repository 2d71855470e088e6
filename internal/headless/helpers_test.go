package headless

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/mcptui/mcptui/demo"
	"github.com/mcptui/mcptui/internal/cli"
	"github.com/mcptui/mcptui/internal/testkit/racechild"
	"github.com/mcptui/mcptui/internal/testkit/waitbound"
)

// The test binary doubles as the servers the tests talk to: with
// MCPTUI_TEST_SERVER set it runs that server on stdio instead of the tests.
const serverEnv = "MCPTUI_TEST_SERVER"

func TestMain(m *testing.M) {
	if name := os.Getenv(serverEnv); name != "" {
		os.Exit(runTestServer(name))
	}
	racechild.NoExitSleep() // the servers this binary starts are itself
	waitbound.Parallel(8)   // its tests wait on servers and timers, not on the CPU
	os.Exit(m.Run())
}

func runTestServer(name string) int {
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM)
	defer stop()
	switch name {
	case "demo":
		if err := demo.Serve(ctx, os.Stdin, os.Stdout, os.Stderr); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		return 0
	case "crash":
		fmt.Fprintln(os.Stderr, "fatal: MY_API_KEY is not set")
		return 1
	case "oldsample":
		return serveOldSample(ctx)
	case "slowprobe":
		return serveSlowProbe()
	case "silent":
		// Reads and never answers.
		sc := bufio.NewScanner(os.Stdin)
		for sc.Scan() {
		}
		return 0
	}
	if v, ok := strings.CutPrefix(name, "extdemo-"); ok {
		return serveExtdemo(ctx, v)
	}
	if name == "browser" {
		return browse(os.Args[1:])
	}
	if mode, ok := hostileModes[name]; ok {
		return serveHostile(mode)
	}
	fmt.Fprintln(os.Stderr, "unknown test server", name)
	return 2
}

// server is the -- part of a command line running the named test server.
func server(name string) []string {
	return []string{"-e", serverEnv + "=" + name, "--", os.Args[0]}
}

// outcome of one headless run.
type ran struct {
	code   int
	stdout string
	stderr string
}

// failure decodes the JSON error object on the last line of stderr.
func (r ran) failure(t *testing.T) *Failure {
	t.Helper()
	lines := strings.Split(strings.TrimSpace(r.stderr), "\n")
	last := lines[len(lines)-1]
	var v struct {
		Error *Failure `json:"error"`
	}
	if err := json.Unmarshal([]byte(last), &v); err != nil || v.Error == nil {
		t.Fatalf("stderr does not end with a JSON error object: %q", r.stderr)
	}
	return v.Error
}

// result decodes stdout as JSON.
func (r ran) result(t *testing.T) map[string]any {
	t.Helper()
	var v map[string]any
	if err := json.Unmarshal([]byte(r.stdout), &v); err != nil {
		t.Fatalf("stdout is not a JSON object: %v\n%s\nstderr: %s", err, r.stdout, r.stderr)
	}
	return v
}

// run parses args as mcptui's command line and runs the headless command.
func run(t *testing.T, args ...string) ran {
	t.Helper()
	cfg, err := cli.Parse(args)
	if err != nil {
		t.Fatalf("parse %q: %v", args, err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	var stdout, stderr bytes.Buffer
	code := Run(ctx, cfg, &stdout, &stderr)
	return ran{code: code, stdout: stdout.String(), stderr: stderr.String()}
}

// args joins command-line pieces.
func args(parts ...any) []string {
	var out []string
	for _, p := range parts {
		switch v := p.(type) {
		case string:
			out = append(out, v)
		case []string:
			out = append(out, v...)
		}
	}
	return out
}

// writeFile writes a file in a test's temporary directory.
func writeFile(t *testing.T, name, content string) string {
	t.Helper()
	path := t.TempDir() + "/" + name
	if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}
