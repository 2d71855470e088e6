// Command driver is the client command of mcptui's conformance run: the
// official MCP conformance suite runs it as
//
//	conformance client --command driver --scenario S --spec-version V
//
// that is, `driver URL` with MCP_CONFORMANCE_SCENARIO=S and
// MCP_CONFORMANCE_PROTOCOL_VERSION=V in the environment, once per scenario,
// against a mock server at URL. The driver does what a person using
// mcptui's headless commands would do for that scenario (list the tools,
// call one with arguments, accept an elicitation with its defaults), each
// step one run of
//
//	mcptui SUBCOMMAND ... -v --protocol V -- bridge -trace FILE URL
//
// where bridge (tools/conformance/bridge) turns the stdio server mcptui expects
// into the suite's HTTP mock. Nothing in mcptui knows about the suite.
//
// The programs are found through MCPTUI_CONFORMANCE_CLIENT (default:
// "mcptui" beside the driver) and MCPTUI_CONFORMANCE_BRIDGE (default:
// "bridge" beside the driver). Every command and its output is logged to
// stderr, which the suite keeps as stderr.txt.
//
// Scenarios that test the HTTP transport itself (sse-retry, http-*) have
// no stdio counterpart: the driver says so and exits 0 without contacting
// the server; tools/conformance/baseline.yml lists them. The auth/*
// scenarios run mcptui natively over HTTP (`mcptui run SCRIPT --browser
// URL`), the driver acting as the browser that follows the authorization
// redirect (auth.go).
// An unknown scenario exits 2, so a new one shows up as a failure.
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"time"
)

// Environment variables.
const (
	envScenario = "MCP_CONFORMANCE_SCENARIO"
	envVersion  = "MCP_CONFORMANCE_PROTOCOL_VERSION"
	envClient   = "MCPTUI_CONFORMANCE_CLIENT"
	envBridge   = "MCPTUI_CONFORMANCE_BRIDGE"
	envVia      = "MCPTUI_CONFORMANCE_VIA"
)

// stepTimeout bounds one mcptui run (the suite's own default timeout for a
// whole scenario is 30 s).
const stepTimeout = 25 * time.Second

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	os.Exit(run(ctx, os.Args[1:], os.Getenv, os.Stderr))
}

// run is the driver with its arguments, environment and log; it returns
// the exit status.
func run(ctx context.Context, args []string, getenv func(string) string, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprintln(stderr, "usage: driver URL (with "+envScenario+" and "+envVersion+" set, as the conformance suite runs it)\n"+
			"       driver -check-client PROGRAM (does PROGRAM have the headless commands?)")
		return 2
	}
	if getenv(envBrowse) != "" {
		return browse(ctx, args, stderr)
	}
	if args[0] == "-check-client" && len(args) == 2 {
		if err := checkClient(ctx, args[1], execProgram); err != nil {
			fmt.Fprintf(stderr, "driver: %s has no usable headless commands: %v\n", args[1], err)
			return 1
		}
		return 0
	}
	scenario, version := getenv(envScenario), getenv(envVersion)
	if scenario == "" || version == "" {
		fmt.Fprintf(stderr, "driver: %s and %s must be set\n", envScenario, envVersion)
		return 2
	}
	via := getenv(envVia)
	if via == "" {
		via = viaHTTP
	}
	if via != viaHTTP && via != viaBridge {
		fmt.Fprintf(stderr, "driver: %s must be %s or %s, not %q\n", envVia, viaHTTP, viaBridge, via)
		return 2
	}
	if via == viaBridge && transportScenario(scenario) {
		fmt.Fprintf(stderr, "driver: %s tests the HTTP transport itself, not what the bridge carries: nothing to do (see tools/conformance/baseline.yml)\n", scenario)
		return 0
	}
	actions, ok := scenarios[scenario]
	if strings.HasPrefix(scenario, "auth/") {
		// OAuth: natively over HTTP, the driver as the browser.
		actions = func(ctx context.Context, d *driver) error { return authFlow(ctx, d, getenv) }
		ok = true
	}
	if !ok {
		fmt.Fprintf(stderr, "driver: no actions for scenario %q: add them to tools/conformance/driver\n", scenario)
		return 2
	}
	tmp, err := os.MkdirTemp("", "mcptui-conformance-")
	if err != nil {
		fmt.Fprintf(stderr, "driver: %v\n", err)
		return 1
	}
	defer os.RemoveAll(tmp)
	d := &driver{
		client:  program(getenv(envClient), "mcptui"),
		bridge:  program(getenv(envBridge), "bridge"),
		url:     args[len(args)-1],
		version: version,
		via:     via,
		context: json.RawMessage(getenv(envContext)),
		tmp:     tmp,
		log:     stderr,
		exec:    execProgram,
	}
	fmt.Fprintf(stderr, "driver: scenario %s at %s against %s\n", scenario, version, d.url)
	if err := actions(ctx, d); err != nil {
		fmt.Fprintf(stderr, "driver: %s: %v\n", scenario, err)
		return 1
	}
	return 0
}

// checkClient checks that client lists tools headlessly: `client tools
// -- client demo-server` must print a tool list. (An mcptui without the
// headless commands tries to open its screen instead, and fails.)
func checkClient(ctx context.Context, client string, run func(context.Context, io.Writer, string, ...string) ([]byte, error)) error {
	ctx, cancel := context.WithTimeout(ctx, stepTimeout)
	defer cancel()
	out, err := run(ctx, io.Discard, client, "tools", "--", client, "demo-server")
	if err != nil {
		return err
	}
	tools, err := parseTools(out)
	if err != nil {
		return err
	}
	if len(tools) == 0 {
		return errors.New("it listed no tools of the demo server")
	}
	return nil
}

// transportScenario reports whether a scenario tests HTTP itself.
func transportScenario(name string) bool {
	return name == "sse-retry" || strings.HasPrefix(name, "http-")
}

// program is the path of a helper program: set explicitly, or name beside
// the driver's own executable.
func program(set, name string) string {
	if set != "" {
		return set
	}
	if self, err := os.Executable(); err == nil {
		return filepath.Join(filepath.Dir(self), name)
	}
	return name
}

// driver runs mcptui commands against one mock server.
type driver struct {
	client, bridge string
	url, version   string
	// via is how mcptui reaches the mock: viaHTTP (the URL itself) or
	// viaBridge (a stdio server relaying to it).
	via string
	// context is MCP_CONFORMANCE_CONTEXT, the scenario's data (or empty).
	context json.RawMessage
	tmp     string
	steps   int // mcptui runs so far, to name their wire traces
	log     io.Writer
	// exec runs a program and returns its stdout; its stderr goes to log.
	exec func(ctx context.Context, log io.Writer, name string, args ...string) ([]byte, error)
}

// Ways to reach the mock server.
const (
	viaHTTP   = "http"   // mcptui opens the URL (its own HTTP client)
	viaBridge = "bridge" // mcptui starts the bridge, a stdio server
)

// mcptui runs `client ARGS... -v --protocol V -- URL` (via HTTP) or
// `client ARGS... -v --protocol V -- bridge -trace FILE URL` and returns
// its stdout. -v passes the HTTP exchanges or the bridge's own log
// through; the bridge's trace (every message both ways) is copied to the
// log after the run.
func (d *driver) mcptui(ctx context.Context, args ...string) ([]byte, error) {
	ctx, cancel := context.WithTimeout(ctx, stepTimeout)
	defer cancel()
	d.steps++
	trace := filepath.Join(d.tmp, fmt.Sprintf("wire-%d.log", d.steps))
	full := append(append([]string{}, args...), "-v", "--protocol", d.version, "--", d.url)
	if d.via == viaBridge {
		full = append(full[:len(full)-1], d.bridge, "-trace", trace, d.url)
	}
	fmt.Fprintf(d.log, "driver: $ %s %s\n", filepath.Base(d.client), shellJoin(full))
	out, err := d.exec(ctx, d.log, d.client, full...)
	if wire, rerr := os.ReadFile(trace); rerr == nil {
		for _, l := range strings.SplitAfter(string(wire), "\n") {
			if l != "" {
				fmt.Fprintf(d.log, "wire: %s", l)
			}
		}
	}
	if len(out) > 0 {
		fmt.Fprintf(d.log, "driver: stdout: %s\n", compact(out))
	}
	if err != nil {
		return out, fmt.Errorf("%s %s: %w", filepath.Base(d.client), args[0], err)
	}
	return out, nil
}

// tools runs `mcptui tools` and returns the tools, each as received.
func (d *driver) tools(ctx context.Context) (map[string]json.RawMessage, error) {
	out, err := d.mcptui(ctx, "tools")
	if err != nil {
		return nil, err
	}
	return parseTools(out)
}

// call runs `mcptui call NAME --args ARGS [extra...]`.
func (d *driver) call(ctx context.Context, name string, args any, extra ...string) ([]byte, error) {
	a, err := json.Marshal(args)
	if err != nil {
		return nil, fmt.Errorf("encoding the arguments of %s: %w", name, err)
	}
	return d.mcptui(ctx, append([]string{"call", name, "--args", string(a)}, extra...)...)
}

// answerFile writes an answer for --answer KIND=@file and returns the flag.
func (d *driver) answerFile(kind, name string, answer any) (string, error) {
	b, err := json.Marshal(answer)
	if err != nil {
		return "", fmt.Errorf("encoding the %s answer: %w", kind, err)
	}
	path := filepath.Join(d.tmp, name)
	if err := os.WriteFile(path, b, 0o600); err != nil {
		return "", fmt.Errorf("writing the %s answer: %w", kind, err)
	}
	return kind + "=@" + path, nil
}

// parseTools reads the output of `mcptui tools`: a tools/list result
// ({"tools": [...]}) or the array of tools itself.
func parseTools(out []byte) (map[string]json.RawMessage, error) {
	var list []json.RawMessage
	var res struct {
		Tools []json.RawMessage `json:"tools"`
	}
	if err := json.Unmarshal(out, &res); err == nil && res.Tools != nil {
		list = res.Tools
	} else if err := json.Unmarshal(out, &list); err != nil {
		return nil, fmt.Errorf("reading the tool list %.200q: %w", out, err)
	}
	tools := make(map[string]json.RawMessage, len(list))
	for _, t := range list {
		var tool struct {
			Name string `json:"name"`
		}
		if err := json.Unmarshal(t, &tool); err != nil || tool.Name == "" {
			return nil, fmt.Errorf("a tool without a name in %.200q", t)
		}
		tools[tool.Name] = t
	}
	return tools, nil
}

// need checks the tool list holds every name.
func need(tools map[string]json.RawMessage, names ...string) error {
	var missing []string
	for _, n := range names {
		if _, ok := tools[n]; !ok {
			missing = append(missing, n)
		}
	}
	if len(missing) > 0 {
		return fmt.Errorf("the server lists no tool %s", strings.Join(missing, ", "))
	}
	return nil
}

// execProgram runs name with args; stdout is returned, stderr copied to log.
func execProgram(ctx context.Context, log io.Writer, name string, args ...string) ([]byte, error) {
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Stdin = nil
	cmd.Stderr = log
	cmd.WaitDelay = 5 * time.Second
	out, err := cmd.Output()
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		return out, fmt.Errorf("exit status %d", exit.ExitCode())
	}
	return out, err
}

// compact is out on one line: compacted if it is JSON, trimmed if not.
func compact(out []byte) string {
	var b bytes.Buffer
	if json.Compact(&b, out) == nil {
		return b.String()
	}
	return strings.TrimSpace(string(out))
}

// shellJoin quotes args for the log.
func shellJoin(args []string) string {
	q := make([]string, len(args))
	for i, a := range args {
		if a != "" && !strings.ContainsAny(a, " \t\n'\"\\$`{}[]*?;&|<>()") {
			q[i] = a
			continue
		}
		q[i] = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
	}
	return strings.Join(q, " ")
}
