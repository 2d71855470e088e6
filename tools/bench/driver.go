package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"time"
)

// config is one invocation of the benchmark.
type config struct {
	Transport string // transportStdio or transportHTTP
	Quick     bool
	Runs      int
	Clients   []string // client names, in table order
	Workloads []string // workload names; empty means all
	SeqCalls  int      // timed calls of the sequential workload
	ParCalls  int      // timed calls of each in-flight workload
	Warmup    int      // untimed calls before each call workload
	Server    string   // a prebuilt server binary (or, over HTTP, a running server's URL); "" builds one
	Self      string   // the executable re-run as a worker
	Log       io.Writer
}

// sample is one worker process's outcome.
type sample struct {
	m *measurement
	// maxRSSKiB is the worker's peak RSS as the kernel reported it to
	// wait4 (ProcessState.SysUsage().Maxrss).
	maxRSSKiB int64
	// failure says why there is no measurement: the client failed, the
	// worker crashed, or it ran out of time.
	failure string
}

// key names one cell of results.
type key struct{ client, workload string }

// results holds every sample of a run, by client and workload.
type results struct {
	cfg       config
	clients   []clientInfo
	workloads []workload
	samples   map[key][]sample
	started   time.Time
	elapsed   time.Duration
	// loadStart and loadEnd are /proc/loadavg when the run started and
	// ended: other work on the machine shows there.
	loadStart, loadEnd string
	// connRevision is the last commit touching the measured package
	// (conn/, or httpconn/ and mcp/ over HTTP), and whether the work tree
	// had uncommitted changes there.
	connRevision string
	// serverURL is the HTTP server every client talked to.
	serverURL string
}

// runAll builds the server if needed and runs every client on every
// workload, cfg.Runs times, each in its own worker process.
func runAll(ctx context.Context, cfg config) (*results, error) {
	res := &results{cfg: cfg, samples: map[key][]sample{}, started: time.Now(), loadStart: loadAverage(),
		connRevision: revision(ctx, measuredDirs(cfg.Transport)...)}
	for _, name := range cfg.Clients {
		ci, err := findClient(cfg.Transport, name)
		if err != nil {
			return nil, err
		}
		res.clients = append(res.clients, ci)
	}
	if len(cfg.Workloads) == 0 {
		res.workloads = workloadsOf(cfg.Transport, cfg.Quick)
	} else {
		for _, name := range cfg.Workloads {
			w, err := findWorkload(name, cfg.Quick)
			if err != nil {
				return nil, err
			}
			res.workloads = append(res.workloads, w)
		}
	}
	if cfg.Server == "" {
		dir, err := os.MkdirTemp("", "mcpbench-")
		if err != nil {
			return nil, err
		}
		defer os.RemoveAll(dir)
		pkg := "./server"
		if cfg.Transport == transportHTTP {
			pkg = "./httpserver"
		}
		path, err := buildPackage(ctx, dir, pkg)
		if err != nil {
			return nil, err
		}
		cfg.Server = path
		res.cfg.Server = path
	}
	if cfg.Transport == transportHTTP && !strings.HasPrefix(cfg.Server, "http") {
		srv, err := startHTTPServer(cfg.Server)
		if err != nil {
			return nil, err
		}
		defer srv.stop()
		cfg.Server = srv.url
	}
	if cfg.Transport == transportHTTP {
		res.serverURL = cfg.Server
		fmt.Fprintf(cfg.Log, "HTTP server at %s\n", cfg.Server)
	}
	for r := range cfg.Runs {
		for _, w := range res.workloads {
			// Rotate the order of clients from run to run so that none is
			// always first after a heavy workload.
			for i := range res.clients {
				ci := res.clients[(i+r)%len(res.clients)]
				s := runWorker(ctx, cfg, ci.name, w)
				res.samples[key{ci.name, w.name}] = append(res.samples[key{ci.name, w.name}], s)
				fmt.Fprintf(cfg.Log, "run %d/%d %-6s %-8s %s\n", r+1, cfg.Runs, w.name, ci.name, s.summary())
			}
		}
	}
	res.elapsed = time.Since(res.started)
	res.loadEnd = loadAverage()
	return res, nil
}

// measuredDirs are the repository's directories whose code a transport's
// run measures.
func measuredDirs(transport string) []string {
	if transport == transportHTTP {
		return []string{"httpconn", "mcp"}
	}
	return []string{"conn"}
}

// revision describes the packages being measured: the last commit that
// touched dirs and whether the work tree changes them ("" when git cannot
// tell).
func revision(ctx context.Context, dirs ...string) string {
	modDir, err := moduleDir()
	if err != nil {
		return ""
	}
	repo := filepath.Join(modDir, "..", "..")
	args := append([]string{"-C", repo, "log", "-1", "--format=%h %s", "--"}, dirs...)
	out, err := exec.CommandContext(ctx, "git", args...).Output()
	if err != nil || len(out) == 0 {
		return ""
	}
	rev := strings.TrimSpace(string(out))
	args = append([]string{"-C", repo, "status", "--porcelain", "--"}, dirs...)
	status, err := exec.CommandContext(ctx, "git", args...).Output()
	if err == nil && len(bytes.TrimSpace(status)) > 0 {
		rev += " (with uncommitted changes in " + strings.Join(dirs, "/, ") + "/)"
	}
	return rev
}

// loadAverage returns the 1, 5 and 15 minute load averages of the machine.
func loadAverage() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "unknown"
	}
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return "unknown"
	}
	return strings.Join(f[:3], " ")
}

// workerTimeout bounds one worker process.
func workerTimeout(w workload) time.Duration {
	if w.kind == kindFlood {
		return 5 * time.Minute
	}
	return 3 * time.Minute
}

// runWorker re-executes cfg.Self as a worker for one client and workload
// and reads its peak RSS from the kernel's accounting of the child.
func runWorker(ctx context.Context, cfg config, client string, w workload) sample {
	calls := cfg.ParCalls
	if w.kind == kindSequential {
		calls = cfg.SeqCalls
	}
	spec, _ := json.Marshal(job{
		Transport: cfg.Transport, Client: client, Workload: w.name, Quick: cfg.Quick, Server: cfg.Server,
		Calls: calls, Warmup: cfg.Warmup,
	})
	ctx, cancel := context.WithTimeout(ctx, workerTimeout(w))
	defer cancel()
	cmd := exec.CommandContext(ctx, cfg.Self)
	cmd.Env = append(os.Environ(), workerEnv+"="+string(spec))
	var stdout, stderr bytes.Buffer
	cmd.Stdout = &stdout
	cmd.Stderr = &stderr
	err := cmd.Run()
	var s sample
	if ps := cmd.ProcessState; ps != nil {
		if ru, ok := ps.SysUsage().(*syscall.Rusage); ok {
			s.maxRSSKiB = int64(ru.Maxrss)
		}
	}
	var rep workerReport
	if jerr := json.Unmarshal(lastLine(stdout.Bytes()), &rep); jerr != nil || err != nil {
		switch {
		case ctx.Err() != nil:
			s.failure = fmt.Sprintf("timed out after %v", workerTimeout(w))
		case err != nil:
			s.failure = "crashed: " + crashReason(err, stderr.Bytes())
		default:
			s.failure = "no report: " + jerr.Error()
		}
		return s
	}
	if rep.Err != "" {
		s.failure = rep.Err
		return s
	}
	s.m = rep.Measurement
	return s
}

// summary is one progress line about a sample.
func (s sample) summary() string {
	if s.failure != "" {
		return fmt.Sprintf("FAILED (%s) rss %s", shorten(s.failure, 120), mib(s.maxRSSKiB))
	}
	m := s.m
	var b strings.Builder
	if m.Calls > 1 {
		fmt.Fprintf(&b, "%.0f calls/s ", float64(m.Calls)/m.Seconds)
	} else {
		fmt.Fprintf(&b, "%s ", dur(m.Seconds))
	}
	if m.MallocsPerCall > 0 {
		fmt.Fprintf(&b, "%.1f allocs/call ", m.MallocsPerCall)
	}
	if m.FloodErr != "" || m.NextErr != "" || m.Survived {
		fmt.Fprintf(&b, "survived=%v next call %s ", m.Survived, dur(m.NextSeconds))
	}
	fmt.Fprintf(&b, "rss %s (self %s)", mib(s.maxRSSKiB), mib(m.SelfMaxRSSKiB))
	return b.String()
}

// lastLine returns the last non-empty line of b.
func lastLine(b []byte) []byte {
	b = bytes.TrimRight(b, "\n")
	if i := bytes.LastIndexByte(b, '\n'); i >= 0 {
		return b[i+1:]
	}
	return b
}

// crashReason describes a worker that exited badly, from its exit status
// and the first telling line of its stderr (a Go fatal error or panic).
func crashReason(err error, stderr []byte) string {
	sc := bufio.NewScanner(bytes.NewReader(stderr))
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "fatal error:") || strings.HasPrefix(line, "panic:") {
			return line + " (" + err.Error() + ")"
		}
	}
	return err.Error()
}

// buildServer compiles the stdio benchmark server into dir.
func buildServer(ctx context.Context, dir string) (string, error) {
	return buildPackage(ctx, dir, "./server")
}

// buildPackage compiles one of the bench module's commands into dir.
func buildPackage(ctx context.Context, dir, pkg string) (string, error) {
	modDir, err := moduleDir()
	if err != nil {
		return "", err
	}
	goCmd, err := exec.LookPath("go")
	if err != nil {
		return "", fmt.Errorf("the go command is needed to build the server (or pass -server): %w", err)
	}
	out := filepath.Join(dir, "mcpbench-"+filepath.Base(pkg))
	cmd := exec.CommandContext(ctx, goCmd, "build", "-o", out, pkg)
	cmd.Dir = modDir
	if msg, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("building %s: %v\n%s", pkg, err, msg)
	}
	return out, nil
}

// moduleDir finds the bench module's directory from the working directory
// upwards.
func moduleDir() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		b, err := os.ReadFile(filepath.Join(dir, "go.mod"))
		if err == nil && bytes.Contains(b, []byte("module github.com/mcptui/mcptui/tools/bench\n")) {
			return dir, nil
		}
		if sub := filepath.Join(dir, "tools", "bench"); dir != sub {
			if b, err := os.ReadFile(filepath.Join(sub, "go.mod")); err == nil &&
				bytes.Contains(b, []byte("module github.com/mcptui/mcptui/tools/bench\n")) {
				return sub, nil
			}
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", fmt.Errorf("run from the repository or its tools/bench/ directory (no bench go.mod found)")
		}
		dir = parent
	}
}

// shorten cuts s to n bytes.
func shorten(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}
