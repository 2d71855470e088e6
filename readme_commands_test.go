package main

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcptui/mcptui/internal/cli"
	"github.com/mcptui/mcptui/internal/telemetry/otlptest"
)

func TestMain(m *testing.M) {
	code := m.Run()
	removeBuilt()
	os.Exit(code)
}

// builtMcptui is mcptui built once for this package's tests that run it
// (the docs' commands, the start-up budget): go build without symbol
// tables, a quick link of packages go test compiled already. Under -race
// it is the plain program, not the race-instrumented test binary, which
// cost the docs' ~90 commands three to four times the CPU (their race
// coverage is every other package's tests).
var builtMcptui = sync.OnceValues(func() (string, error) {
	dir, err := os.MkdirTemp("", "mcptui-built-")
	if err != nil {
		return "", err
	}
	bin := filepath.Join(dir, "mcptui")
	if runtime.GOOS == "windows" {
		bin += ".exe"
	}
	if out, err := exec.Command("go", "build", "-ldflags=-s -w", "-o", bin, ".").CombinedOutput(); err != nil {
		return "", fmt.Errorf("go build: %v\n%s", err, out)
	}
	return bin, nil
})

// mcptuiBinary is builtMcptui, or the test's end.
func mcptuiBinary(t *testing.T) string {
	t.Helper()
	bin, err := builtMcptui()
	if err != nil {
		t.Fatal(err)
	}
	return bin
}

// removeBuilt removes builtMcptui's directory, if it was built.
func removeBuilt() {
	if bin, err := builtMcptui(); err == nil {
		_ = os.RemoveAll(filepath.Dir(bin))
	}
}

// readmeExempt are the commands of the README and docs/*.md that are not
// run, each with why, named as written with ./server as mcptui demo-server
// and the example URLs as URL; each is still parsed (the command line must
// be one mcptui takes). A command missing here is run and must succeed.
var readmeExempt = map[string]string{
	"go install github.com/mcptui/mcptui@latest": "installs from the module proxy over the network; the other commands run the program this package builds",
	"go run . --demo": "opens the full-screen inspector (the tmux tests in ui drive it on the demo)",
	"mcptui -- go run ./tools/manytools -n 50000":                                                    "the full-screen inspector on 50,000 tools (ui/catalog's TestCatalogKeyCostIsTheScreen and its benchmarks cover the catalog at that size)",
	"go test ./ui/catalog -run XXX -bench BenchmarkCatalog -benchtime 200x -count 6":                 "benchmarks, minutes long: run by hand when measuring",
	"go test ./ui/catalog/marks -run XXX -bench BenchmarkListMarks -benchtime 1x -count 2":           "a benchmark, a minute of CPU: run by hand when measuring",
	"mcptui snapshot -- mcptui demo-server > base.json":                                              "a redirection: docs/drift.md's drift-commands block runs snapshots with theirs (readme_drift_test.go)",
	"mcptui --baseline base.json --host claude-code --model gemini -- mcptui demo-server":            "the full-screen inspector (internal/app's TestCatalogMarksFromFlags runs these flags)",
	"tools/release/snapshot.sh":                                                                      "builds every platform's release archives with GoReleaser from the module proxy (minutes); run by hand before a release, its npm step is tools/npmpack's TestNpxRunsThePackedPackage",
	"go test -race ./...":                                                                            "the test suite itself",
	"git clone --depth 1 https://github.com/modelcontextprotocol/modelcontextprotocol /tmp/mcp-spec": "clones the specification repository over the network, for speccheck below",
	"go run ./tools/speccheck -spec /tmp/mcp-spec":                                                   "needs a checkout of the specification repository; internal/check/rules' TestCitationsInStep keeps its table in step",
	"mcptui -- npx -y @modelcontextprotocol/server-everything stdio":                                 "the inspector, on a server from npm (internal/testkit/everything runs that server in the check and headless tests)",
	"mcptui -- uvx mcp-server-fetch":                                                                 "the inspector, on a server from PyPI that needs uv and the network",
	"mcptui -e API_KEY=dev --unset HTTP_PROXY --cwd ./srv -- ./bin/server --verbose":                 "the inspector, on a server of yours",
	"mcptui --protocol 2025-11-25 --root file:///home/me/project -- mcptui demo-server":              "the full-screen inspector",
	"mcptui URL":                                           "the full-screen inspector",
	"mcptui http://127.0.0.1:3001/sse":                     "the full-screen inspector (HTTP+SSE is run by httpconn's and headless's tests)",
	"mcptui --transport sse http://127.0.0.1:3001/sse":     "the full-screen inspector",
	`mcptui --header "Authorization: Bearer $TOKEN" URL`:   "the full-screen inspector",
	"mcptui --insecure https://self-signed.test/mcp":       "the full-screen inspector, on a server with a self-signed certificate",
	"mcptui tools --browser URL":                           "OAuth: needs an authorization server and a browser (the conformance suite's auth scenarios and internal/headless/oauth_test.go run the flow)",
	"mcptui call whoami --keep-token URL":                  "OAuth: needs an authorization server",
	"mcptui tools --client-id ID --client-secret S URL":    "OAuth: needs an authorization server that registered ID",
	"mcptui tools --client-credentials --client-id ID URL": "OAuth: needs an authorization server that registered ID",
	"mcptui tools --bearer \"$TOKEN\" URL":                 "a bearer token for a server that wants one",
	"mcptui replay session.jsonl":                          "the full-screen replay (ui/timeline's tests drive it)",
	"mcptui check --era all -- mcptui demo-server":         "runs every era the demo speaks, about 30 s; internal/check's tests check the demo at each era (demoEras)",
	"mcptui":                 "the server picker: needs a terminal",
	"mcptui --server github": "the full-screen inspector",
	"mcptui app counter -- mcptui demo-server --extensions":                                                                        "serves the App until its browser tab is closed; internal/headless's TestAppInChromium opens it in headless Chromium, clicks and sees the call",
	"mcptui app counter --no-open -- mcptui demo-server --extensions":                                                              "serves the App until its tab is closed or ctrl+c; internal/headless's TestAppBridgeWithoutBrowser drives that page's protocol and closes it",
	"mcptui load call echo --arg message=hi --rate 100 --duration 10s --max-p99 200ms --max-error-rate 0.01 -- mcptui demo-server": "a p99 limit's verdict depends on the machine's speed; internal/load's TestSLOExitCodes runs --max-p99 and --max-error-rate against limits the server's own service time decides, both ways",
}

// readmeExit are the docs' commands that end with another status than 0,
// on purpose.
var readmeExit = map[string]int{
	"mcptui load call fail --rate 20 --duration 1s --max-error-rate 1% -- mcptui demo-server": 11, // the broken SLO's status, shown on purpose
	// The demo's large tool returns 1 MiB (over Claude Code's cap) and its
	// optional properties are refused by OpenAI strict mode: host findings.
	"mcptui check --host claude-code,gemini-cli --model openai-strict --rule tools -- mcptui demo-server": 10,
	"mcptui check --host all --model all --server-name demo --rule tools -- mcptui demo-server":           10,
	"mcptui check --budget 1500 --rule tools.names -- mcptui demo-server":                                 10, // the demo's tools cost about 2,000 tokens
	// ./server is mcptui demo-server, and mcptui is on the fixture's PATH,
	// not on Claude Desktop's: the spawn ENOENT the section describes.
	"mcptui doctor --as claude-desktop:macos -- mcptui demo-server":                  3,
	"mcptui skills -- mcptui demo-server --extensions=tampered":                      8,  // a file that fails its digest, shown on purpose
	"mcptui check --rule skills.digests -- mcptui demo-server --extensions=tampered": 10, // the same file, as check's failed MUST
	"mcptui skills --require-digests -- mcptui demo-server --extensions=dynamic":     8,  // a dynamic skill has no digests to require
	// The timeout whose post-mortem docs/export.md shows.
	"mcptui call slow --arg seconds:=60 --timeout 1s --record slow.jsonl -- mcptui demo-server": 6,
}

// TestReadmeCommandsRun runs every command in the code blocks of the
// README, CONTRIBUTING.md and every docs/*.md (docFiles) against the demo server:
// ./server is the demo (mcptui demo-server), the example URLs are a go-sdk
// Streamable HTTP server in this process, the files they name (.mcp.json,
// checks.mcp, session.jsonl) are made first, in a directory and a HOME of
// their own. A page added under docs/ is picked up with no change here;
// its commands that cannot run go in readmeExempt, with why, and those
// that end with another status than 0 in readmeExit.
//
// A code block's commands run in order, as a reader types them, in a
// fixture of the block's own; the blocks run at the same time (most of
// a command's time is waiting on the server: check's cancellation
// probe, load's durations), so the test costs its longest block.
func TestReadmeCommandsRun(t *testing.T) {
	var cmds []readmeCommand
	for _, f := range docFiles(t) {
		raw, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		cmds = append(cmds, readmeCommands(f, string(raw))...)
	}
	if len(cmds) < 60 {
		t.Fatalf("found %d commands in the docs: the extraction is broken", len(cmds))
	}
	env, dir := readmeFixture(t)
	url := readmeHTTPServer(t)
	// The OTLP endpoint of the docs' examples: a receiver in this
	// process, which must get the spans.
	otlp := otlptest.Start()
	defer otlp.Close()
	subst := func(words []string) []string {
		var out []string
		for _, w := range words {
			switch w {
			case "./server":
				out = append(out, "mcptui", "demo-server")
			case "https://example.com/mcp", "http://127.0.0.1:8080/mcp":
				out = append(out, url)
			case "http://localhost:4318":
				out = append(out, otlp.URL)
			default:
				out = append(out, w)
			}
		}
		return out
	}
	// The exemptions are named with the substitutions made, URLs as URL.
	key := func(words []string) string {
		s := strings.Join(subst(words), " ")
		return strings.ReplaceAll(s, url, "URL")
	}
	// A block's commands to run, in order, keyed by its first line.
	type runnable struct {
		c    readmeCommand
		k    string
		args []string
	}
	var blocks [][]runnable
	used := map[string]bool{}
	for _, c := range cmds {
		words, err := shellWords(c.text, env)
		if err != nil {
			t.Errorf("%s: %v", c.where(), err)
			continue
		}
		if v := singleQuotedVar(c.text); v != "" {
			t.Errorf("%s: %s is in single quotes, where the shell leaves it unexpanded: use double quotes", c.where(), v)
		}
		k := key(quoteless(c.text, words))
		args := subst(words)
		if why, ok := readmeExempt[k]; ok {
			used[k] = true
			if why == "" {
				t.Errorf("%s: exempt without a reason", c.where())
			}
			if args[0] == "mcptui" {
				t.Run("parse "+k, func(t *testing.T) { parseInFixture(t, dir, env, args[1:]) })
			}
			continue
		}
		if args[0] != "mcptui" {
			t.Errorf("%s: %q is neither run nor exempt (readmeExempt)", c.where(), c.text)
			continue
		}
		if n := len(blocks); n == 0 || blocks[n-1][0].c.file != c.file || blocks[n-1][0].c.block != c.block {
			blocks = append(blocks, nil)
		}
		blocks[len(blocks)-1] = append(blocks[len(blocks)-1], runnable{c, k, args})
	}
	var wg sync.WaitGroup
	for _, b := range blocks {
		wg.Go(func() {
			t.Run(fmt.Sprintf("%s block %d", b[0].c.file, b[0].c.block), func(t *testing.T) {
				env, dir := readmeFixture(t)
				var chains sync.WaitGroup
				for _, chain := range fileChains(b, func(r runnable) []string { return r.args }) {
					chains.Go(func() {
						for _, r := range chain {
							t.Run(r.k, func(t *testing.T) { runDocCommand(t, dir, env, r.c, r.args, readmeExit[r.k]) })
						}
					})
				}
				chains.Wait()
			})
		})
	}
	wg.Wait()
	if cmds := len(otlp.Named("mcp session")); cmds == 0 || len(otlp.Errors()) > 0 {
		t.Errorf("the docs' OTLP examples sent %d sessions (errors: %v)", cmds, otlp.Errors())
	}
	for k := range readmeExempt {
		if !used[k] {
			t.Errorf("the exemption %q names no command of the docs: remove it", k)
		}
	}
	for k := range readmeExit {
		if !slices.ContainsFunc(cmds, func(c readmeCommand) bool {
			words, _ := shellWords(c.text, env)
			return key(quoteless(c.text, words)) == k
		}) {
			t.Errorf("the exit status of %q names no command of the docs: remove it", k)
		}
	}
}

// fileChains splits a block's commands into chains that run at the same
// time: a command follows, in order, every earlier command that names a
// file it names (session.jsonl recorded, then exported); commands that
// share no file are independent.
func fileChains[T any](cmds []T, args func(T) []string) [][]T {
	var chains [][]T
	owner := map[string]int{} // a file's chain
	for _, c := range cmds {
		at := -1
		for _, w := range args(c) {
			if i, ok := owner[w]; ok && isFileWord(w) {
				if at >= 0 && at != i {
					// The command joins two chains: merge the later into the earlier.
					lo, hi := min(at, i), max(at, i)
					chains[lo] = append(chains[lo], chains[hi]...)
					chains[hi] = nil
					for f, j := range owner {
						if j == hi {
							owner[f] = lo
						}
					}
					at = lo
					continue
				}
				at = i
			}
		}
		if at < 0 {
			chains = append(chains, nil)
			at = len(chains) - 1
		}
		chains[at] = append(chains[at], c)
		for _, w := range args(c) {
			if isFileWord(w) {
				owner[w] = at
			}
		}
	}
	return slices.DeleteFunc(chains, func(c []T) bool { return len(c) == 0 })
}

// isFileWord reports whether a command word names a file: a name with an
// extension that is no flag, URL or key=value argument.
func isFileWord(w string) bool {
	if strings.HasPrefix(w, "-") || strings.Contains(w, "://") || strings.ContainsAny(w, "=:") {
		return false
	}
	ext := filepath.Ext(w)
	return len(ext) > 1 && len(ext) < len(w)
}

// runDocCommand runs one docs command (args[0] is mcptui, this test
// binary) in dir and wants the exit status want.
func runDocCommand(t *testing.T, dir string, env []string, c readmeCommand, args []string, want int) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, filepath.Join(dir, "bin", "mcptui"), args[1:]...)
	cmd.Dir, cmd.Env = dir, env
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatalf("%s: %v", c.where(), err)
	}
	if code != want {
		t.Errorf("%s: %s exited %d, want %d\nstdout:\n%.2000s\nstderr:\n%.2000s", c.where(), c.text, code, want, stdout.String(), stderr.String())
	}
}

// docFiles are the pages whose commands are run: the README,
// CONTRIBUTING.md and every Markdown file under docs/.
func docFiles(t *testing.T) []string {
	t.Helper()
	pages, err := filepath.Glob(filepath.Join("docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	if len(pages) == 0 {
		t.Fatal("no docs/*.md: the docs moved?")
	}
	sort.Strings(pages)
	return append([]string{"README.md", "CONTRIBUTING.md"}, pages...)
}

// singleQuotedVar is the first $VARIABLE of a single-quoted word of a
// command line, which sh passes on as written ("" when there is none).
func singleQuotedVar(text string) string {
	for i := 0; i < len(text); i++ {
		switch text[i] {
		case '"':
			if j := strings.IndexByte(text[i+1:], '"'); j >= 0 {
				i += 1 + j
			}
		case '\'':
			j := strings.IndexByte(text[i+1:], '\'')
			if j < 0 {
				return ""
			}
			quoted := text[i+1 : i+1+j]
			if k := strings.IndexByte(quoted, '$'); k >= 0 {
				end := k + 1
				for end < len(quoted) && (quoted[end] == '_' || quoted[end] == '{' || quoted[end] == '}' ||
					quoted[end] >= 'A' && quoted[end] <= 'Z' || quoted[end] >= 'a' && quoted[end] <= 'z' || quoted[end] >= '0' && quoted[end] <= '9') {
					end++
				}
				if end > k+1 {
					return quoted[k:end]
				}
			}
			i += 1 + j
		}
	}
	return ""
}

// quoteless returns words, but with quoted words as written (the
// exemptions name them so).
func quoteless(text string, words []string) []string {
	if !strings.ContainsAny(text, `'"`) {
		return words
	}
	return strings.Fields(text)
}

// readmeCommand is one command of a page's code block.
type readmeCommand struct {
	file  string
	block int // the code block's number in its page, from 1
	line  int
	text  string
}

func (c readmeCommand) where() string { return fmt.Sprintf("%s:%d", c.file, c.line) }

// readmeCommands are the commands of a page's code blocks, their comments
// cut: every line of a sh block but comments, and in other blocks (output,
// YAML) the lines that are mcptui or go commands.
func readmeCommands(file, page string) []readmeCommand {
	var out []readmeCommand
	in, own, sh, prev, block := false, false, false, "", 0
	for i, line := range strings.Split(page, "\n") {
		trimmed := strings.TrimSpace(line)
		if strings.HasPrefix(trimmed, "```") {
			// A block after a "<!-- drift-commands" marker runs in
			// order, with its redirections, in readme_drift_test.go.
			in, own = !in, !in && strings.HasPrefix(prev, "<!-- drift-commands")
			sh = in && (trimmed == "```sh" || trimmed == "```bash")
			if in {
				block++
			}
			continue
		}
		if trimmed != "" {
			prev = trimmed
		}
		if !in || own || trimmed == "" || strings.HasPrefix(trimmed, "#") {
			continue
		}
		if !sh && !(trimmed == "mcptui" || strings.HasPrefix(trimmed, "mcptui ") || strings.HasPrefix(trimmed, "go ")) {
			continue
		}
		if j := strings.Index(trimmed, " #"); j >= 0 {
			trimmed = strings.TrimSpace(trimmed[:j])
		}
		out = append(out, readmeCommand{file: file, block: block, line: i + 1, text: trimmed})
	}
	return out
}

// shellWords splits a command line as sh would: single quotes literal,
// double quotes with $VAR expanded, ~ at a word's start as $HOME.
func shellWords(s string, env []string) ([]string, error) {
	lookup := func(name string) string {
		for _, kv := range env {
			if k, v, _ := strings.Cut(kv, "="); k == name {
				return v
			}
		}
		return ""
	}
	var words []string
	var b strings.Builder
	inWord := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == ' ' || c == '\t':
			if inWord {
				words, inWord = append(words, b.String()), false
				b.Reset()
			}
		case c == '\'':
			j := strings.IndexByte(s[i+1:], '\'')
			if j < 0 {
				return nil, errUnclosed(s)
			}
			b.WriteString(s[i+1 : i+1+j])
			i, inWord = i+1+j, true
		case c == '"':
			j := strings.IndexByte(s[i+1:], '"')
			if j < 0 {
				return nil, errUnclosed(s)
			}
			b.WriteString(os.Expand(s[i+1:i+1+j], lookup))
			i, inWord = i+1+j, true
		case c == '~' && !inWord:
			b.WriteString(lookup("HOME"))
			inWord = true
		default:
			b.WriteByte(c)
			inWord = true
		}
	}
	if inWord {
		words = append(words, b.String())
	}
	return words, nil
}

type unclosedError string

func (e unclosedError) Error() string { return "an unclosed quote in " + string(e) }

func errUnclosed(s string) error { return unclosedError(s) }

// readmeFixture makes the directory the commands run in, with the files
// they name, mcptui on PATH as this test binary, and a HOME of its own;
// it returns the environment and the directory.
func readmeFixture(t *testing.T) ([]string, string) {
	dir := t.TempDir()
	bin := filepath.Join(dir, "bin")
	home := filepath.Join(dir, "home")
	for _, d := range []string{bin, home, filepath.Join(dir, "run"), filepath.Join(dir, "srv")} { // srv: the README's --cwd ./srv
		if err := os.MkdirAll(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(mcptuiBinary(t), filepath.Join(bin, "mcptui")); err != nil {
		t.Fatal(err)
	}
	files := map[string]string{
		".mcp.json": `{"mcpServers": {"memory": {"command": "mcptui", "args": ["demo-server"]},
			"github": {"command": "mcptui", "args": ["demo-server"]}}}`,
		"checks.mcp": "tools\nexpect .tools.length > 0\ncall echo message=hi\nexpect ok\n",
	}
	for name, body := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	env := []string{
		"PATH=" + bin + string(os.PathListSeparator) + os.Getenv("PATH"),
		"HOME=" + home,
		"XDG_CONFIG_HOME=" + filepath.Join(home, ".config"),
		"XDG_STATE_HOME=" + filepath.Join(home, ".local", "state"),
		"XDG_CACHE_HOME=" + filepath.Join(home, ".cache"),
		"XDG_RUNTIME_DIR=" + filepath.Join(dir, "run"),
		"TMPDIR=" + os.TempDir(),
		"TOKEN=readme-test-token",
		"MCPTUI_CLIENT_SECRET=readme-test-secret",
		"NO_COLOR=1",
	}
	// session.jsonl, for mcptui replay: a recording of the demo.
	rec := exec.Command(filepath.Join(bin, "mcptui"), "tools", "--record", "session.jsonl", "--", "mcptui", "demo-server")
	rec.Dir, rec.Env = dir, env
	if out, err := rec.CombinedOutput(); err != nil {
		t.Fatalf("recording session.jsonl: %v\n%s", err, out)
	}
	return env, dir
}

// readmeHTTPServer is a go-sdk Streamable HTTP server with the demo's
// echo tool, standing in for the README's example URLs.
func readmeHTTPServer(t *testing.T) string {
	s := sdk.NewServer(&sdk.Implementation{Name: "readme-http", Version: "1"}, nil)
	type echoIn struct {
		Message string `json:"message"`
	}
	sdk.AddTool(s, &sdk.Tool{Name: "echo", Description: "echoes"}, func(_ context.Context, _ *sdk.CallToolRequest, in echoIn) (*sdk.CallToolResult, any, error) {
		return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "echo: " + in.Message}}}, nil, nil
	})
	h := sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return s }, nil)
	// The transport's MUST: a foreign Origin is refused (go-sdk leaves it
	// to the application), so that `check -- URL` finds nothing to fail.
	guarded := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if o := r.Header.Get("Origin"); o != "" && o != "http://"+r.Host {
			http.Error(w, "foreign Origin", http.StatusForbidden)
			return
		}
		h.ServeHTTP(w, r)
	})
	srv := httptest.NewServer(guarded)
	t.Cleanup(srv.Close)
	return srv.URL + "/mcp"
}

// parseInFixture checks that args is a command line mcptui takes, read
// where the commands run (its host config files) and with their HOME.
func parseInFixture(t *testing.T, dir string, env, args []string) {
	t.Chdir(dir)
	for _, kv := range env {
		if k, v, _ := strings.Cut(kv, "="); k != "PATH" {
			t.Setenv(k, v)
		}
	}
	if _, err := cli.Parse(args); err != nil {
		t.Errorf("mcptui %s: %v", strings.Join(args, " "), err)
	}
}

func TestFileChainsKeepWhatDependsInOrder(t *testing.T) {
	cmds := [][]string{
		{"mcptui", "call", "echo", "--arg", "message=hi", "--record", "session.jsonl"},
		{"mcptui", "check", "--", "mcptui", "demo-server"},
		{"mcptui", "export", "--format", "har", "-o", "session.har", "session.jsonl"},
		{"mcptui", "diff", "v1.json", "--", "http://127.0.0.1:8080/mcp"},
		{"mcptui", "check", "--junit", "report.xml", "--baseline", "v1.json"},
		{"mcptui", "explain", "2", "session.jsonl"},
	}
	got := fileChains(cmds, func(c []string) []string { return c })
	want := [][][]string{{cmds[0], cmds[2], cmds[5]}, {cmds[1]}, {cmds[3], cmds[4]}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("chains:\n%q\nwant\n%q", got, want)
	}
}
