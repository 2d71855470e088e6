package load

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/signal"
	"strconv"
	"sync"
	"syscall"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcptui/mcptui/demo"
	"github.com/mcptui/mcptui/internal/cli"
	"github.com/mcptui/mcptui/internal/testkit/waitbound"
)

// The test binary doubles as the servers the tests load: with serverEnv
// set it serves that one on stdio.
const (
	serverEnv = "MCPTUI_LOAD_TEST_SERVER"
	// delayEnv is the slow server's service time in milliseconds; serialEnv
	// makes it serve one call at a time (a lock around the work); statsEnv
	// names the file it keeps the most calls it has seen in flight at once
	// in (and its pid, on the first line).
	delayEnv  = "LOAD_TEST_DELAY_MS"
	serialEnv = "LOAD_TEST_SERIAL"
	statsEnv  = "LOAD_TEST_STATS"
	// workersEnv is how many calls the slow server serves at once (a
	// FIFO queue before them; serialEnv=1 is one worker); stallAtEnv
	// makes the n-th call it serves (from 1) take stallMSEnv
	// milliseconds longer, once.
	workersEnv = "LOAD_TEST_WORKERS"
	stallAtEnv = "LOAD_TEST_STALL_AT"
	stallMSEnv = "LOAD_TEST_STALL_MS"
)

func TestMain(m *testing.M) {
	if name := os.Getenv(serverEnv); name != "" {
		os.Exit(runTestServer(name))
	}
	waitbound.Parallel(8) // its tests wait on servers and timers, not on the CPU
	os.Exit(m.Run())
}

func runTestServer(name string) int {
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM)
	defer stop()
	var err error
	switch name {
	case "demo":
		err = demo.Serve(ctx, os.Stdin, os.Stdout, os.Stderr)
	case "slow":
		num := func(name string) int { n, _ := strconv.Atoi(os.Getenv(name)); return n }
		cfg := slowConfig{delay: time.Duration(num(delayEnv)) * time.Millisecond, workers: num(workersEnv),
			stallAt: num(stallAtEnv), stallFor: time.Duration(num(stallMSEnv)) * time.Millisecond}
		if os.Getenv(serialEnv) == "1" {
			cfg.workers = 1
		}
		st := newSlowStats(os.Getenv(statsEnv))
		err = slowServer(cfg, st).Run(ctx, &sdk.StdioTransport{})
	default:
		err = fmt.Errorf("unknown test server %q", name)
	}
	if err != nil && ctx.Err() == nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return 0
}

// slowStats counts the calls in flight in the slow server, and keeps the
// most seen at once (in a file, when the server is another process).
type slowStats struct {
	mu            sync.Mutex
	now, max, all int
	file          string
}

func newSlowStats(file string) *slowStats {
	s := &slowStats{file: file}
	s.write()
	return s
}

func (s *slowStats) enter() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.now++
	s.all++
	if s.now > s.max {
		s.max = s.now
		s.write()
	}
}

func (s *slowStats) leave() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.now--
}

// write records pid and max in the file; the caller holds mu.
func (s *slowStats) write() {
	if s.file == "" {
		return
	}
	tmp := s.file + ".tmp"
	if err := os.WriteFile(tmp, fmt.Appendf(nil, "%d %d\n", os.Getpid(), s.max), 0o600); err == nil {
		_ = os.Rename(tmp, s.file)
	}
}

func (s *slowStats) maxSeen() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.max
}

// readStats reads the slow server's file: its pid and the most calls it
// saw in flight at once.
func readStats(t *testing.T, file string) (pid, max int) {
	t.Helper()
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatalf("the slow server's stats: %v", err)
	}
	if _, err := fmt.Sscan(string(b), &pid, &max); err != nil {
		t.Fatalf("the slow server's stats %q: %v", b, err)
	}
	return pid, max
}

// slowConfig is what the slow server is: each call takes delay, at most
// workers at once (0: no bound; the others wait in turn, first come
// first served), and the stallAt-th call (from 1) takes stallFor more.
type slowConfig struct {
	delay    time.Duration
	workers  int
	stallAt  int
	stallFor time.Duration
}

// slowServer has one tool, work, served as cfg says.
func slowServer(cfg slowConfig, st *slowStats) *sdk.Server {
	s := sdk.NewServer(&sdk.Implementation{Name: "slow", Version: "1"}, nil)
	var workers chan struct{}
	if cfg.workers > 0 {
		workers = make(chan struct{}, cfg.workers)
	}
	var mu sync.Mutex
	served := 0
	sdk.AddTool(s, &sdk.Tool{Name: "work", Description: "takes its time"}, func(ctx context.Context, _ *sdk.CallToolRequest, _ struct{}) (*sdk.CallToolResult, any, error) {
		st.enter()
		defer st.leave()
		if workers != nil {
			select {
			case workers <- struct{}{}:
			case <-ctx.Done():
				return nil, nil, ctx.Err()
			}
			defer func() { <-workers }()
		}
		mu.Lock()
		served++
		delay := cfg.delay
		if served == cfg.stallAt {
			delay += cfg.stallFor
		}
		mu.Unlock()
		// The service time is what this server is: a timer, not a
		// synchronisation.
		select {
		case <-time.After(delay):
		case <-ctx.Done():
			return nil, nil, ctx.Err()
		}
		return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "done"}}}, nil, nil
	})
	return s
}

// server is the -- part of a command line running the named test server
// with the given environment.
func server(name string, env ...string) []string {
	out := []string{"-e", serverEnv + "=" + name}
	for _, e := range env {
		out = append(out, "-e", e)
	}
	return append(out, "--", os.Args[0])
}

// result of one mcptui load.
type result struct {
	code   int
	rep    Report
	stdout string
	stderr string
}

// runLoad runs mcptui load with args (the words after "load") and decodes
// its JSON report.
func runLoad(t testing.TB, ctx context.Context, args ...string) result {
	t.Helper()
	cfg, err := cli.Parse(append([]string{"load", "--format", "json"}, args...))
	if err != nil {
		t.Fatalf("parse %q: %v", args, err)
	}
	var stdout, stderr bytes.Buffer
	r := result{code: Run(ctx, cfg, &stdout, &stderr), stdout: stdout.String(), stderr: stderr.String()}
	if err := json.Unmarshal(stdout.Bytes(), &r.rep); err != nil {
		t.Fatalf("load %q exited %d, no report: %v\nstdout:\n%s\nstderr:\n%s", args, r.code, err, r.stdout, r.stderr)
	}
	return r
}
