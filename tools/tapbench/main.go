// Command tapbench measures what mcptui tap costs a host: the relay against
// a plain pipe, for the latency of one line (a round trip through an
// echoing server: the line crosses the tap twice) and the throughput of a
// stream of 1 KiB and 1 MiB lines, with no viewer, a viewer reading the
// feed, and a viewer that stopped reading; and the tap's peak memory
// (VmHWM) and CPU time (the tap's and its server's, beside the bare
// server's: a figure a loaded machine disturbs less than the rates). The
// echo server and the tap are tapbench itself, re-executed.
//
//	go run ./tools/tapbench -mib 256 -samples 2000 -runs 5
package main

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/pprof"
	"slices"
	"strings"
	"time"

	"github.com/mcptui/mcptui/internal/tap"
)

func main() {
	role := flag.String("role", "", "internal: echo or tap")
	mib := flag.Int("mib", 256, "MiB streamed per throughput run")
	samples := flag.Int("samples", 2000, "round trips timed per latency run")
	runs := flag.Int("runs", 5, "runs of each setup (the figures are medians)")
	profileDir := flag.String("profile", "", "write each tap's CPU and allocation profiles to this directory")
	only := flag.String("only", "", "run only the setups whose name contains this (the plain pipe always runs)")
	flag.Parse()
	switch *role {
	case "echo":
		_, _ = io.Copy(os.Stdout, os.Stdin)
		return
	case "tap":
		self, _ := os.Executable()
		stop := profile(os.Getenv("TAPBENCH_PROFILE"))
		code := tap.Main(tap.Options{Command: self, Args: []string{"-role", "echo"}, Name: "bench", NoPublish: os.Getenv("TAPBENCH_NOPUBLISH") != ""})
		stop()
		os.Exit(code)
	}
	if err := run(*mib, *samples, *runs, *profileDir, *only); err != nil {
		fmt.Fprintln(os.Stderr, "tapbench:", err)
		os.Exit(1)
	}
}

// profile starts a CPU profile of the tap, written to prefix+".cpu" (and
// its heap at the end to prefix+".heap"), when prefix is set; the returned
// func stops it.
func profile(prefix string) func() {
	if prefix == "" {
		return func() {}
	}
	f, err := os.Create(prefix + ".cpu")
	if err != nil {
		fmt.Fprintln(os.Stderr, "tapbench:", err)
		return func() {}
	}
	_ = pprof.StartCPUProfile(f)
	return func() {
		pprof.StopCPUProfile()
		f.Close()
		if h, err := os.Create(prefix + ".heap"); err == nil {
			_ = pprof.Lookup("allocs").WriteTo(h, 0)
			h.Close()
		}
	}
}

// setup is one way of running the server: bare, or tapped with a viewer
// in some state.
type setup struct {
	name   string
	tapped bool
	viewer string // "", "reading", "stalled"
}

var setups = []setup{
	{"plain pipe", false, ""},
	{"tap, not publishing", true, "off"},
	{"tap, no viewer", true, ""},
	{"tap, reading viewer", true, "reading"},
	{"tap, stalled viewer", true, "stalled"},
}

func run(mib, samples, runs int, profileDir, only string) error {
	runtimeDir, err := os.MkdirTemp("", "tapbench")
	if err != nil {
		return err
	}
	defer os.RemoveAll(runtimeDir)
	fmt.Printf("tapbench: %d round trips of a 1 KiB line; %d MiB streamed each way per throughput run;\n", samples, mib)
	fmt.Printf("%d runs, each tapped setup right after a plain pipe run; medians (ratios: median of each pair's ratio)\n\n", runs)
	var plain []result
	pairs := map[string][]pair{}
	for run := range runs {
		for _, s := range setups[1:] {
			if !strings.Contains(s.name, only) {
				continue
			}
			base, err := measure(setups[0], runtimeDir, mib, samples, "")
			if err != nil {
				return fmt.Errorf("%s: %w", setups[0].name, err)
			}
			prof := ""
			if profileDir != "" && run == 0 {
				prof = filepath.Join(profileDir, strings.NewReplacer(" ", "-", ",", "").Replace(s.name))
			}
			r, err := measure(s, runtimeDir, mib, samples, prof)
			if err != nil {
				return fmt.Errorf("%s: %w", s.name, err)
			}
			plain = append(plain, base)
			pairs[s.name] = append(pairs[s.name], pair{base, r})
		}
	}
	fmt.Printf("%-22s %10s %10s %12s %12s %10s %10s %10s  %s\n", "setup", "rtt p50", "rtt p99", "1 KiB MB/s", "1 MiB MB/s", "tap peak", "cpu", "host view", "viewer")
	p := summarize(plain)
	fmt.Printf("%-22s %10s %10s %12.0f %12.0f %10s %10s %10s\n", setups[0].name, p.p50, p.p99, p.small, p.large, "-", p.cpu.Round(time.Millisecond), "identical")
	for _, s := range setups[1:] {
		ps := pairs[s.name]
		if len(ps) == 0 {
			continue
		}
		var rs []result
		var addP50, addP99 []time.Duration
		var ratioSmall, ratioLarge, ratioCPU []float64
		peak, identical := 0, true
		for _, pr := range ps {
			rs = append(rs, pr.tapped)
			addP50 = append(addP50, pr.tapped.p50-pr.plain.p50)
			addP99 = append(addP99, pr.tapped.p99-pr.plain.p99)
			ratioSmall = append(ratioSmall, pr.tapped.small/pr.plain.small)
			ratioLarge = append(ratioLarge, pr.tapped.large/pr.plain.large)
			ratioCPU = append(ratioCPU, float64(pr.tapped.cpu)/float64(max(pr.plain.cpu, 1)))
			peak = max(peak, pr.tapped.peakKiB)
			identical = identical && pr.tapped.identical && pr.plain.identical
		}
		r := summarize(rs)
		view := "identical"
		if !identical {
			view = "DIFFERENT"
		}
		fmt.Printf("%-22s %10s %10s %12.0f %12.0f %10s %10s %10s  %s\n", s.name, r.p50, r.p99, r.small, r.large,
			fmt.Sprintf("%d MiB", peak>>10), r.cpu.Round(time.Millisecond), view, ps[len(ps)-1].tapped.viewer)
		fmt.Printf("%-22s %10s %10s %11.2fx %11.2fx %10s %9.2fx\n", "  added / ratio", median(addP50), median(addP99), median(ratioSmall), median(ratioLarge), "", median(ratioCPU))
	}
	return nil
}

// pair is a tapped run and the plain pipe run just before it.
type pair struct{ plain, tapped result }

// summarize is the median of each figure.
func summarize(rs []result) result {
	var p50, p99, cpu []time.Duration
	var small, large []float64
	for _, r := range rs {
		p50, p99, cpu = append(p50, r.p50), append(p99, r.p99), append(cpu, r.cpu)
		small, large = append(small, r.small), append(large, r.large)
	}
	return result{p50: median(p50), p99: median(p99), small: median(small), large: median(large), cpu: median(cpu)}
}

func median[T time.Duration | float64](xs []T) T {
	s := slices.Clone(xs)
	slices.Sort(s)
	return s[len(s)/2]
}

type result struct {
	p50, p99     time.Duration
	small, large float64 // MB/s
	peakKiB      int
	cpu          time.Duration // user+system time of the server (and the tap)
	identical    bool
	viewer       string
}

// measure runs the latency and both throughput runs on one server process
// (and tap).
func measure(s setup, runtimeDir string, mib, samples int, prof string) (result, error) {
	self, err := os.Executable()
	if err != nil {
		return result{}, err
	}
	cmd := exec.Command(self, "-role", "echo")
	if s.tapped {
		cmd = exec.Command(self, "-role", "tap")
	}
	cmd.Env = append(os.Environ(), "XDG_RUNTIME_DIR="+runtimeDir)
	if prof != "" {
		cmd.Env = append(cmd.Env, "TAPBENCH_PROFILE="+prof)
	}
	if s.viewer == "off" {
		cmd.Env = append(cmd.Env, "TAPBENCH_NOPUBLISH=1")
	}
	cmd.Stderr = os.Stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return result{}, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return result{}, err
	}
	if err := cmd.Start(); err != nil {
		return result{}, err
	}
	defer func() { _ = cmd.Process.Kill(); _ = cmd.Wait() }()
	out := bufio.NewReaderSize(stdout, 4<<20)
	var r result
	var viewerDone chan string
	if s.tapped {
		// The first round trip proves the tap is up and publishing.
		if err := roundTrip(stdin, out, []byte("hello\n")); err != nil {
			return r, err
		}
		if s.viewer == "reading" || s.viewer == "stalled" {
			v, err := watch(filepath.Join(runtimeDir, "mcptui"))
			if err != nil {
				return r, err
			}
			defer v.Close()
			viewerDone = make(chan string, 1)
			if s.viewer == "reading" {
				go func() {
					n, lost := 0, 0
					for {
						line, err := v.Next()
						if err != nil {
							break
						}
						n++
						if bytes.Contains(line, []byte(`"type":"lost"`)) || bytes.Contains(line, []byte("not shown")) {
							lost++
						}
					}
					viewerDone <- fmt.Sprintf("read %d entries, %d gap notices", n, lost)
				}()
			} else {
				viewerDone <- "never read"
			}
		}
	}
	if r.p50, r.p99, err = latency(stdin, out, samples); err != nil {
		return r, err
	}
	var same1, same2 bool
	if r.small, same1, err = throughput(stdin, out, 1<<10, mib); err != nil {
		return r, err
	}
	if r.large, same2, err = throughput(stdin, out, 1<<20, mib); err != nil {
		return r, err
	}
	r.identical = same1 && same2
	if s.tapped {
		r.peakKiB = peakKiB(cmd.Process.Pid)
	}
	stdin.Close()
	_, _ = io.Copy(io.Discard, out)
	_ = cmd.Wait()
	if ps := cmd.ProcessState; ps != nil {
		r.cpu = ps.UserTime() + ps.SystemTime() // wait4: the tap and the server it waited for
	}
	if viewerDone != nil {
		select {
		case r.viewer = <-viewerDone:
		case <-time.After(10 * time.Second):
			r.viewer = "still reading"
		}
	}
	return r, nil
}

func watch(dir string) (*tap.Viewer, error) {
	deadline := time.Now().Add(10 * time.Second)
	for {
		v, err := tap.Watch(tap.SocketPath(dir, "bench"))
		if err == nil {
			return v, nil
		}
		if time.Now().After(deadline) {
			return nil, err
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func roundTrip(w io.Writer, r *bufio.Reader, line []byte) error {
	if _, err := w.Write(line); err != nil {
		return err
	}
	got, err := r.ReadSlice('\n')
	if err != nil {
		return err
	}
	if !bytes.Equal(got, line) {
		return fmt.Errorf("echo mismatch")
	}
	return nil
}

// latency times round trips of a 1 KiB JSON line.
func latency(w io.Writer, r *bufio.Reader, samples int) (p50, p99 time.Duration, err error) {
	line := jsonLine(1 << 10)
	times := make([]time.Duration, 0, samples)
	for i := range samples + 100 {
		start := time.Now()
		if err := roundTrip(w, r, line); err != nil {
			return 0, 0, err
		}
		if i >= 100 { // warm-up
			times = append(times, time.Since(start))
		}
	}
	slices.Sort(times)
	return times[len(times)/2], times[len(times)*99/100], nil
}

// throughput streams mib MiB of lines of size bytes through the echo and
// reports MB/s, and whether the host read exactly what it wrote.
func throughput(w io.Writer, r *bufio.Reader, size, mib int) (float64, bool, error) {
	line := jsonLine(size)
	n := (mib << 20) / size
	total := n * size
	sent := sha256.New()
	for range n {
		sent.Write(line)
	}
	want := sent.Sum(nil)
	start := time.Now()
	errc := make(chan error, 1)
	go func() {
		for range n {
			if _, err := w.Write(line); err != nil {
				errc <- err
				return
			}
		}
		errc <- nil
	}()
	got := sha256.New()
	if _, err := io.CopyN(got, r, int64(total)); err != nil {
		return 0, false, err
	}
	elapsed := time.Since(start)
	if err := <-errc; err != nil {
		return 0, false, err
	}
	return float64(total) / elapsed.Seconds() / 1e6, bytes.Equal(got.Sum(nil), want), nil
}

// jsonLine is a JSON-RPC notification of size bytes with its newline.
func jsonLine(size int) []byte {
	head := `{"jsonrpc":"2.0","method":"bench","params":{"pad":"`
	tail := "\"}}\n"
	pad := strings.Repeat("x", size-len(head)-len(tail))
	return []byte(head + pad + tail)
}

// peakKiB is the process's peak resident memory.
func peakKiB(pid int) int {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0
	}
	for _, l := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(l, "VmHWM:") {
			var kib int
			fmt.Sscanf(strings.TrimSpace(strings.TrimPrefix(l, "VmHWM:")), "%d", &kib)
			return kib
		}
	}
	return 0
}
