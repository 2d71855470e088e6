// Command quitbench measures how long mcptui takes to go away: in the
// inspector (in tmux), from the q key to mcptui's exit; headless, from the
// result on stdout to the exit; and, in both, until no process of the
// server's tree is left. Every process of a run carries a unique variable
// in its environment, found again in /proc; what is still running when
// mcptui exits is listed (like ps would), then killed.
//
//	go build -o /tmp/mcptui . && go run ./tools/quitbench -mcptui /tmp/mcptui -runs 5
//
// Servers: the demo (mcptui demo-server), the everything server run by node
// directly, the same through npx (npm exec → sh → node; found in the test
// cache's node_modules, so npx needs no network), and through a uvx-style
// launcher (python starting node and waiting for it). Give -grace to pass
// --shutdown-grace (builds before the flag existed take none).
package main

import (
	"bufio"
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"
)

// server is one way of running a server.
type server struct {
	name string
	argv []string
	dir  string // working directory ("" = ours)
}

// outcome is one run.
type outcome struct {
	quit  time.Duration // q (or the result) → mcptui exited
	gone  time.Duration // q (or the result) → no process of the tree left (or the limit)
	left  []string      // processes of the tree alive when mcptui exited
	after []string      // still alive at the limit
}

func main() {
	mcptui := flag.String("mcptui", "", "the mcptui binary to measure (required)")
	runs := flag.Int("runs", 5, "runs per server and mode")
	grace := flag.String("grace", "", "pass --shutdown-grace with this value")
	limit := flag.Duration("limit", 15*time.Second, "longest wait for mcptui and its tree to go")
	only := flag.String("only", "", "run only the servers whose name contains this")
	flag.Parse()
	if *mcptui == "" {
		fmt.Fprintln(os.Stderr, "quitbench: -mcptui is required")
		os.Exit(2)
	}
	bin, _ := filepath.Abs(*mcptui)
	script, err := everythingScript()
	if err != nil {
		fmt.Fprintln(os.Stderr, "quitbench:", err)
		os.Exit(1)
	}
	dir := script[:strings.Index(script, "/node_modules/")]
	servers := []server{
		{name: "demo", argv: []string{bin, "demo-server"}},
		{name: "node", argv: []string{"node", script, "stdio"}},
		{name: "npx", argv: []string{"npx", "-y", "@modelcontextprotocol/server-everything", "stdio"}, dir: dir},
		{name: "uvx-style", argv: []string{"python3", "-c", "import subprocess,sys; sys.exit(subprocess.call(sys.argv[1:]))", "node", script, "stdio"}},
	}
	var extra []string
	if *grace != "" {
		extra = []string{"--shutdown-grace=" + *grace}
	}
	fmt.Printf("mcptui %s, %d runs each; times are medians (min–max)\n\n", bin, *runs)
	fmt.Printf("%-10s %-9s %22s %22s  %s\n", "server", "mode", "to mcptui's exit", "to the tree gone", "left at exit / at the limit")
	for _, s := range servers {
		if *only != "" && !strings.Contains(s.name, *only) {
			continue
		}
		for _, mode := range []string{"inspector", "headless"} {
			var outs []outcome
			for range *runs {
				var o outcome
				var err error
				if mode == "inspector" {
					o, err = inspectorRun(bin, s, extra, *limit)
				} else {
					o, err = headlessRun(bin, s, extra, *limit)
				}
				if err != nil {
					fmt.Fprintf(os.Stderr, "quitbench: %s %s: %v\n", s.name, mode, err)
					continue
				}
				outs = append(outs, o)
			}
			report(s.name, mode, outs)
		}
	}
}

func report(name, mode string, outs []outcome) {
	if len(outs) == 0 {
		fmt.Printf("%-10s %-9s %22s\n", name, mode, "no run succeeded")
		return
	}
	var quits, gones []time.Duration
	var left, after []string
	for _, o := range outs {
		quits, gones = append(quits, o.quit), append(gones, o.gone)
		if len(o.left) > 0 {
			left = append(left, strings.Join(o.left, ", "))
		}
		if len(o.after) > 0 {
			after = append(after, strings.Join(o.after, ", "))
		}
	}
	fmt.Printf("%-10s %-9s %22s %22s  %d/%d runs left processes at exit, %d/%d at the limit\n",
		name, mode, stats(quits), stats(gones), len(left), len(outs), len(after), len(outs))
	for i, l := range left {
		if i < 1 {
			fmt.Printf("%43s at exit: %s\n", "", l)
		}
	}
}

func stats(ds []time.Duration) string {
	slices.Sort(ds)
	r := func(d time.Duration) string { return d.Round(time.Millisecond).String() }
	return fmt.Sprintf("%s (%s–%s)", r(ds[len(ds)/2]), r(ds[0]), r(ds[len(ds)-1]))
}

// newMark is a unique NAME=VALUE.
func newMark() string {
	b := make([]byte, 8)
	_, _ = rand.Read(b)
	return "QUITBENCH_MARK=" + hex.EncodeToString(b)
}

// commandLine is mcptui's argv for the server.
func commandLine(bin string, mode []string, s server, extra []string) []string {
	argv := append([]string{bin}, mode...)
	argv = append(argv, extra...)
	if s.dir != "" {
		argv = append(argv, "--cwd", s.dir)
	}
	return append(append(argv, "--"), s.argv...)
}

// inspectorRun starts the inspector in tmux, waits for ready, presses q.
func inspectorRun(bin string, s server, extra []string, limit time.Duration) (outcome, error) {
	mark := newMark()
	socket := "quitbench-" + strings.TrimPrefix(mark, "QUITBENCH_MARK=")
	tmux := func(args ...string) *exec.Cmd {
		return exec.Command("tmux", append([]string{"-L", socket}, args...)...)
	}
	defer func() { _ = tmux("kill-server").Run() }()
	defer killMarked(mark)
	line := "env " + quote(mark) + " TERM=xterm-256color " + quoteAll(commandLine(bin, []string{"--no-bell"}, s, extra))
	if out, err := tmux("new-session", "-d", "-s", "q", "-x", "120", "-y", "40", line).CombinedOutput(); err != nil {
		return outcome{}, fmt.Errorf("tmux: %v: %s", err, out)
	}
	deadline := time.Now().Add(time.Minute)
	for {
		out, _ := tmux("capture-pane", "-p", "-t", "q").Output()
		if bytes.Contains(out, []byte("● ready")) {
			break
		}
		if time.Now().After(deadline) {
			return outcome{}, fmt.Errorf("never ready:\n%s", out)
		}
		time.Sleep(20 * time.Millisecond)
	}
	// Let the server settle (its start-up questions, the lists).
	time.Sleep(500 * time.Millisecond)
	start := time.Now()
	if err := tmux("send-keys", "-t", "q", "q").Run(); err != nil {
		return outcome{}, err
	}
	var o outcome
	for tmux("has-session", "-t", "q").Run() == nil && time.Since(start) < limit {
		time.Sleep(5 * time.Millisecond)
	}
	o.quit = time.Since(start) // the limit when mcptui was still there
	o.left = marked(mark)
	o.gone, o.after = waitNone(mark, start, limit)
	return o, nil
}

// headlessRun runs mcptui call echo and times the exit from the result.
func headlessRun(bin string, s server, extra []string, limit time.Duration) (outcome, error) {
	mark := newMark()
	defer killMarked(mark)
	argv := commandLine(bin, []string{"call", "echo", "--arg", "message=hi"}, s, extra)
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Env = append(os.Environ(), mark)
	out, err := cmd.StdoutPipe()
	if err != nil {
		return outcome{}, err
	}
	if err := cmd.Start(); err != nil {
		return outcome{}, err
	}
	r := bufio.NewReader(out)
	if _, err := r.ReadByte(); err != nil {
		_ = cmd.Wait()
		return outcome{}, fmt.Errorf("no result: %v", err)
	}
	start := time.Now()
	go func() { _, _ = r.WriteTo(devNull{}) }()
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	var o outcome
	select {
	case err := <-done:
		if err != nil {
			return outcome{}, fmt.Errorf("mcptui call: %v", err)
		}
		o.quit = time.Since(start)
	case <-time.After(limit):
		// Recorded as the limit; the processes left are listed, then killed.
		o.quit = time.Since(start)
		o.left = marked(mark)
		o.gone, o.after = waitNone(mark, start, 0)
		_ = cmd.Process.Kill()
		<-done
		return o, nil
	}
	o.left = marked(mark)
	o.gone, o.after = waitNone(mark, start, limit)
	return o, nil
}

type devNull struct{}

func (devNull) Write(p []byte) (int, error) { return len(p), nil }

// waitNone waits until no process carries the mark (or the limit).
func waitNone(mark string, start time.Time, limit time.Duration) (time.Duration, []string) {
	for {
		left := marked(mark)
		if len(left) == 0 {
			return time.Since(start), nil
		}
		if time.Since(start) > limit {
			return time.Since(start), left
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// marked lists the running processes carrying the mark, as ps shows them:
// pid, ppid, state, command.
func marked(mark string) []string {
	var out []string
	for _, p := range markedPIDs(mark) {
		b, err := os.ReadFile("/proc/" + strconv.Itoa(p) + "/stat")
		if err != nil {
			continue
		}
		open, closing := bytes.IndexByte(b, '('), bytes.LastIndexByte(b, ')')
		f := bytes.Fields(b[closing+1:])
		if len(f) < 2 || f[0][0] == 'Z' {
			continue
		}
		out = append(out, fmt.Sprintf("%d(ppid %s %s %s)", p, f[1], f[0], b[open+1:closing]))
	}
	return out
}

func markedPIDs(mark string) []int {
	dirs, _ := filepath.Glob("/proc/[0-9]*")
	var pids []int
	for _, d := range dirs {
		env, err := os.ReadFile(d + "/environ")
		if err != nil {
			continue
		}
		for kv := range bytes.SplitSeq(env, []byte{0}) {
			if string(kv) == mark {
				if pid, err := strconv.Atoi(filepath.Base(d)); err == nil {
					pids = append(pids, pid)
				}
				break
			}
		}
	}
	return pids
}

// killMarked ends what a run left, so that runs do not add up.
func killMarked(mark string) {
	for _, p := range markedPIDs(mark) {
		_ = kill(p)
	}
}

// everythingScript finds the everything server installed by the tests'
// helper (internal/testkit/everything) in the user cache.
func everythingScript() (string, error) {
	cache, err := os.UserCacheDir()
	if err != nil {
		return "", err
	}
	found, _ := filepath.Glob(filepath.Join(cache, "mcptui-test", "everything-*", "node_modules", "@modelcontextprotocol", "server-everything", "dist", "index.js"))
	if len(found) == 0 {
		return "", fmt.Errorf("the everything server is not in %s: run go test ./internal/app/ -run Npx once to install it", cache)
	}
	return found[len(found)-1], nil
}

func quote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

func quoteAll(words []string) string {
	q := make([]string, len(words))
	for i, w := range words {
		q[i] = quote(w)
	}
	return strings.Join(q, " ")
}
