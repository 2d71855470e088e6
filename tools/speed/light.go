package main

import (
	"bufio"
	"bytes"
	"context"
	"debug/elf"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/mcptui/mcptui/internal/release"
)

// The light cases (issue 33, item 5): what every start of the inspector
// costs, beside another inspector (-peer).

// releaseTags is the build tags of the .goreleaser.yaml in the tree src
// (internal/release reads them); none when it gives none, or no file.
func releaseTags(src string) []string {
	tags, err := release.Tags(src)
	if err != nil {
		return nil
	}
	return tags
}

// unitOf is the unit of the measure labelled label.
func unitOf(label string) string {
	for _, m := range measures {
		if m.label == label {
			return m.unit
		}
	}
	return ""
}

// peerBuild is the peer's binary, copied into dir; a copy with symbols or
// DWARF is stripped (strip(1)), as ours is built -s -w, so the sizes and
// the pages mapped compare like with like.
func peerBuild(ctx context.Context, path, dir string) (*build, bool, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, false, err
	}
	dst := filepath.Join(dir, filepath.Base(path))
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, false, fmt.Errorf("the peer: %w", err)
	}
	if err := os.WriteFile(dst, data, 0o755); err != nil {
		return nil, false, err
	}
	stripped := false
	if hasSymbols(dst) {
		if out, err := exec.CommandContext(ctx, "strip", dst).CombinedOutput(); err != nil {
			return nil, false, fmt.Errorf("stripping the peer's copy (strip(1) is needed for a peer with symbols): %w: %s", err, out)
		}
		stripped = true
	}
	return &build{side: peerSide, mcptui: dst}, stripped, nil
}

// hasSymbols says whether the ELF file at path has a symbol table or
// DWARF (false for what is not ELF).
func hasSymbols(path string) bool {
	f, err := elf.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	for _, s := range f.Sections {
		if s.Name == ".symtab" || strings.HasPrefix(s.Name, ".debug_") || strings.HasPrefix(s.Name, ".zdebug_") {
			return true
		}
	}
	return false
}

// launch is how one inspector is started in tmux and when it counts as
// arrived: line is the shell command, keys are typed once its screen
// matches ready (none: ready is the arrival), done is the arrival.
type launch struct {
	line  string
	ready func(screen string) bool
	keys  []string
	done  func(screen string) bool
}

// readyLine is the shell command that runs b's inspector on the demo
// server, exec'd so that the pane's process is the inspector itself.
func readyLine(e *env, b *build) string {
	argv := []string{b.mcptui, "--", e.server, "demo-server"}
	if b.side == peerSide {
		argv = []string{b.mcptui}
		for _, a := range e.peerArgs {
			argv = append(argv, strings.ReplaceAll(a, "{server}", e.server))
		}
	}
	return "exec env TERM=xterm-256color " + quoteAll(argv)
}

// isReady says whether screen is b's first ready screen: the header's
// "● ready" for mcptui, -peer-ready for the peer.
func isReady(e *env, b *build, screen string) bool {
	if b.side == peerSide {
		return e.peerReady.MatchString(screen)
	}
	return strings.Contains(screen, "● ready")
}

// manyToolsLaunch is b's inspector on manytools' 50,000 tools until the
// list is usable: for mcptui, once ready, E opens the catalog, which lists
// the tools (every page) and shows the first with the count; for the
// peer, -peer-args-50k until -peer-ready-50k matches its screen.
func manyToolsLaunch(e *env, b *build) launch {
	if b.side == peerSide {
		argv := []string{b.mcptui}
		for _, a := range e.peerArgs50k {
			argv = append(argv, strings.ReplaceAll(a, "{manytools}", e.manytools))
		}
		return launch{line: "exec env TERM=xterm-256color " + quoteAll(argv), done: e.peerReady50k.MatchString}
	}
	return launch{
		line:  "exec env TERM=xterm-256color " + quoteAll([]string{b.mcptui, "--", e.manytools}),
		ready: func(s string) bool { return strings.Contains(s, "● ready") },
		keys:  []string{"E"},
		done:  manyToolsListed,
	}
}

// manyToolsListed says whether mcptui's catalog shows the 50,000 tools:
// the count and the first tool's row.
func manyToolsListed(screen string) bool {
	return strings.Contains(screen, "Tools 50000") && strings.Contains(screen, "tool_00000")
}

// inspectReady is b's inspector on the demo server until its first ready
// screen (see inspectLaunch).
func inspectReady(e *env, b *build) (sample, error) {
	return inspectLaunch(e, b, launch{line: readyLine(e, b), done: func(s string) bool { return isReady(e, b, s) }})
}

// inspectLaunch starts an inspector (l) in a tmux of its own at 80×24 and
// polls its pane until it has arrived: the wall time is from tmux's start
// to that screen (within the poll, a capture every few ms), the CPU the
// inspector's own by then (procCPU). Then it reads the RSS every 100 ms
// until it has stayed the same for a second (at most 15 s): the idle RSS,
// and its anonymous part.
func inspectLaunch(e *env, b *build, l launch) (sample, error) {
	e.seq++
	socket := fmt.Sprintf("speed-%d-%d", os.Getpid(), e.seq)
	tmux := func(args ...string) *exec.Cmd {
		return exec.CommandContext(e.ctx, "tmux", append([]string{"-L", socket}, args...)...)
	}
	defer func() { _ = exec.Command("tmux", "-L", socket, "kill-server").Run() }()
	start := time.Now()
	if msg, err := tmux("new-session", "-d", "-s", "s", "-x", "80", "-y", "24", l.line).CombinedOutput(); err != nil {
		return sample{}, fmt.Errorf("tmux: %w: %s", err, msg)
	}
	deadline := start.Add(time.Minute)
	var screen []byte
	typed := l.ready == nil
	for {
		screen, _ = tmux("capture-pane", "-p", "-t", "s").Output()
		if !typed && l.ready(string(screen)) {
			if msg, err := tmux(append([]string{"send-keys", "-t", "s"}, l.keys...)...).CombinedOutput(); err != nil {
				return sample{}, fmt.Errorf("tmux send-keys: %w: %s", err, msg)
			}
			typed = true
		}
		if typed && l.done(string(screen)) {
			break
		}
		if time.Now().After(deadline) || e.ctx.Err() != nil {
			return sample{}, fmt.Errorf("not there within a minute:\n%s", screen)
		}
		time.Sleep(2 * time.Millisecond) // the poll's period, not a synchronization
	}
	wall := time.Since(start)
	out, err := tmux("list-panes", "-t", "s", "-F", "#{pane_pid}").Output()
	if err != nil {
		return sample{}, fmt.Errorf("tmux list-panes: %w", err)
	}
	pid := strings.TrimSpace(string(out))
	cpu, err := procCPU(pid)
	if err != nil {
		return sample{}, err
	}
	s := sample{Wall: wall.Seconds(), CPU: cpu}
	var last [2]int64
	same := 0
	for end := time.Now().Add(15 * time.Second); time.Now().Before(end) && same < 10; {
		time.Sleep(100 * time.Millisecond) // the sampling period of the RSS
		rss, anon, err := procRSS(pid)
		if err != nil {
			return sample{}, err
		}
		if cur := [2]int64{rss, anon}; cur == last {
			same++
		} else {
			last, same = cur, 0
		}
	}
	s.IdleRSS, s.IdleAnon = float64(last[0]), float64(last[1])
	return s, nil
}

// procRSS is the process's VmRSS and RssAnon, in bytes.
func procRSS(pid string) (rss, anon int64, err error) {
	f, err := os.Open(filepath.Join("/proc", pid, "status"))
	if err != nil {
		return 0, 0, fmt.Errorf("the inspector's RSS: %w", err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		k, v, ok := strings.Cut(sc.Text(), ":")
		if !ok || (k != "VmRSS" && k != "RssAnon") {
			continue
		}
		kb, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
		if err != nil {
			return 0, 0, fmt.Errorf("%s of %s: %w", k, pid, err)
		}
		if k == "VmRSS" {
			rss = kb << 10
		} else {
			anon = kb << 10
		}
	}
	if rss == 0 {
		return 0, 0, fmt.Errorf("no VmRSS for process %s", pid)
	}
	return rss, anon, sc.Err()
}

// procCPU is the process's CPU so far, in seconds: the sum over its
// threads of the time they ran (/proc/PID/task/*/schedstat, in ns), else
// user+system from /proc/PID/stat (clock ticks of 1/100 s, the value of
// _SC_CLK_TCK on Linux).
func procCPU(pid string) (float64, error) {
	if tasks, err := filepath.Glob(filepath.Join("/proc", pid, "task", "*", "schedstat")); err == nil && len(tasks) > 0 {
		var ns int64
		ok := true
		for _, t := range tasks {
			data, err := os.ReadFile(t)
			f := strings.Fields(string(data))
			if err != nil || len(f) == 0 {
				ok = false
				break
			}
			v, err := strconv.ParseInt(f[0], 10, 64)
			if err != nil {
				ok = false
				break
			}
			ns += v
		}
		if ok {
			return float64(ns) / 1e9, nil
		}
	}
	data, err := os.ReadFile(filepath.Join("/proc", pid, "stat"))
	if err != nil {
		return 0, fmt.Errorf("the inspector's CPU: %w", err)
	}
	// The fields after the command's name, which is in parentheses.
	i := bytes.LastIndexByte(data, ')')
	f := strings.Fields(string(data[i+1:]))
	if len(f) < 13 {
		return 0, fmt.Errorf("/proc/%s/stat: %q", pid, data)
	}
	utime, err1 := strconv.ParseFloat(f[11], 64)
	stime, err2 := strconv.ParseFloat(f[12], 64)
	if err1 != nil || err2 != nil {
		return 0, fmt.Errorf("/proc/%s/stat: %q", pid, data)
	}
	return (utime + stime) / 100, nil
}

// initTrace runs b with --version and GODEBUG=inittrace=1 and sums what
// its package initializers allocated.
func initTrace(e *env, b *build) (sample, error) {
	cmd := exec.CommandContext(e.ctx, b.mcptui, "--version")
	cmd.Env = append(os.Environ(), "GODEBUG=inittrace=1")
	cmd.Stdout = io.Discard
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		return sample{}, fmt.Errorf("%s --version: %w: %s", filepath.Base(b.mcptui), err, stderr.String())
	}
	bytes, allocs, err := sumInitTrace(stderr.String())
	if err != nil {
		return sample{}, err
	}
	return sample{InitBytes: float64(bytes), InitAllocs: float64(allocs)}, nil
}

// sumInitTrace adds up the "init PKG @0.1 ms, 0.2 ms clock, 123 bytes, 4
// allocs" lines of GODEBUG=inittrace=1.
func sumInitTrace(trace string) (bytes, allocs int64, err error) {
	n := 0
	for _, line := range strings.Split(trace, "\n") {
		f := strings.Fields(line)
		if len(f) != 11 || f[0] != "init" || f[8] != "bytes," || f[10] != "allocs" {
			continue
		}
		b, err1 := strconv.ParseInt(f[7], 10, 64)
		a, err2 := strconv.ParseInt(f[9], 10, 64)
		if err1 != nil || err2 != nil {
			return 0, 0, fmt.Errorf("unparsable inittrace line %q", line)
		}
		bytes += b
		allocs += a
		n++
	}
	if n == 0 {
		return 0, 0, fmt.Errorf("no inittrace lines in %q", trace)
	}
	return bytes, allocs, nil
}
