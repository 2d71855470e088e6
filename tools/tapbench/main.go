// Command tapbench measures what mcptui tap costs a host, against a plain
// pipe to the same echo server (tapbench itself, re-executed; the tap is
// tapbench too, running tap.Main):
//
//   - latency: the round trip of a 1 KiB line through the echo (it crosses
//     the tap twice), p50 and p99 of -samples trips;
//   - throughput: -mib MiB of 1 KiB lines, then of 1 MiB lines, written by
//     the host one line a write while it reads the echo back; MB/s is the
//     bytes streamed one way over the time from the first write to the last
//     byte read. The host checks every line it reads (its length, its
//     bytes, and the sequence number each line carries, so a lost, doubled
//     or reordered line shows), the same cheap comparison for the plain
//     pipe and the tap: no hash in the hot loop;
//   - the tap's own CPU time and context switches per MiB streamed (its
//     threads' time on CPU and switches, from /proc, over each throughput
//     stream; not its server's), beside the echo server's own per MiB on
//     the plain pipe (a relay that reads and writes each byte once, for
//     scale). A busy machine moves them much less than the rates;
//   - the tap's peak memory (VmHWM), and whether the host read exactly
//     what it wrote.
//
// The tap grows the host's pipes to 1 MiB (unless -keep-host-pipes), and a
// larger pipe is faster by itself: the setup "plain, 1 MiB pipes" is the
// bare echo with the same pipes grown (by the echo), paired with the plain
// pipe like the others, so that what the pipes give and what the tap costs
// can be told apart.
//
// Each setup (not publishing, publishing with no viewer, a reading viewer,
// a stalled viewer) runs -runs times, each time paired with a plain pipe
// run on a fresh process, the order alternating (plain first, then tapped
// first) so that a drift of the machine's load weighs on both. The rates
// are medians; the ratios are medians of each pair's ratio, with the
// lowest and highest pair beside them: a wide range says the machine was
// too busy to judge. On 2 cores the host's writer and reader, the echo and
// the tap's two pumps share the CPU, so whatever the tap spends is taken
// from the others: the throughput ratio follows the tap's CPU.
//
// -keep-host-pipes runs the taps with tap.Options.KeepHostPipes: the host's
// pipes keep the kernel's default size, as a tap leaves them when asked to.
// -socketpair gives the server (bare or tapped) a socketpair for its stdin
// and one for its stdout instead of pipes, as Node (libuv) hosts do: the
// tap grows no socket, so this is the host whose buffers it leaves alone.
//
//	go run ./tools/tapbench -mib 512 -samples 2000 -runs 5
package main

import (
	"bufio"
	"bytes"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/pprof"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/mcptui/mcptui/internal/tap"
)

func main() {
	role := flag.String("role", "", "internal: echo or tap")
	mib := flag.Int("mib", 512, "MiB streamed per throughput run")
	samples := flag.Int("samples", 2000, "round trips timed per latency run")
	runs := flag.Int("runs", 5, "runs of each setup, each paired with a plain pipe run (the figures are medians)")
	profileDir := flag.String("profile", "", "write each tap's CPU and allocation profiles to this directory")
	only := flag.String("only", "", "run only the setups whose name contains this (the plain pipe always runs)")
	keepHostPipes := flag.Bool("keep-host-pipes", false, "the tap leaves the host's pipes their size (tap.Options.KeepHostPipes)")
	socketpair := flag.Bool("socketpair", false, "the host talks to the server (or the tap) over a socketpair each way, as Node (libuv) hosts do, instead of pipes")
	flag.Parse()
	if *keepHostPipes {
		os.Setenv("TAPBENCH_KEEP_HOST_PIPES", "1") // for the taps it starts
	}
	if *socketpair {
		os.Setenv("TAPBENCH_SOCKETPAIR", "1") // for measure
	}
	switch *role {
	case "echo":
		if os.Getenv("TAPBENCH_GROW_PIPES") != "" {
			growStdio()
		}
		_, _ = io.Copy(os.Stdout, os.Stdin)
		return
	case "tap":
		self, _ := os.Executable()
		stop := profile(os.Getenv("TAPBENCH_PROFILE"))
		code := tap.Main(tap.Options{Command: self, Args: []string{"-role", "echo"}, Name: "bench", NoPublish: os.Getenv("TAPBENCH_NOPUBLISH") != "",
			KeepHostPipes: os.Getenv("TAPBENCH_KEEP_HOST_PIPES") != ""})
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
	viewer string // "", "off" (not publishing), "reading", "stalled"; for a bare server, "grown": its pipes grown
}

var setups = []setup{
	{"plain pipe", false, ""},
	{"plain, 1 MiB pipes", false, "grown"},
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
	if os.Getenv("TAPBENCH_KEEP_HOST_PIPES") != "" {
		fmt.Printf("the tap leaves the host's pipes their size (-keep-host-pipes)\n")
	} else {
		fmt.Printf("the tap grows the host's pipes (as it does by default)\n")
	}
	if os.Getenv("TAPBENCH_SOCKETPAIR") != "" {
		fmt.Printf("the host talks to the server over a socketpair each way, not pipes (-socketpair)\n")
	}
	fmt.Printf("%d runs of each setup, each paired with a plain pipe run (order alternating); medians,\n", runs)
	fmt.Printf("ratios: median of the pairs' ratios [lowest–highest pair]; cpu/MiB and cs/MiB (context switches):\n")
	fmt.Printf("the tap's own (plain pipe: the echo's)\n\n")
	var plain []result
	pairs := map[string][]pair{}
	for run := range runs {
		for _, s := range setups[1:] {
			if !strings.Contains(s.name, only) {
				continue
			}
			prof := ""
			if profileDir != "" && run == 0 {
				prof = filepath.Join(profileDir, strings.NewReplacer(" ", "-", ",", "").Replace(s.name))
			}
			var base, r result
			var err error
			measurePlain := func() error {
				base, err = measure(setups[0], runtimeDir, mib, samples, "")
				if err != nil {
					return fmt.Errorf("%s: %w", setups[0].name, err)
				}
				return nil
			}
			measureTapped := func() error {
				r, err = measure(s, runtimeDir, mib, samples, prof)
				if err != nil {
					return fmt.Errorf("%s: %w", s.name, err)
				}
				return nil
			}
			order := []func() error{measurePlain, measureTapped}
			if run%2 == 1 {
				order[0], order[1] = order[1], order[0]
			}
			for _, m := range order {
				if err := m(); err != nil {
					return err
				}
			}
			plain = append(plain, base)
			pairs[s.name] = append(pairs[s.name], pair{base, r})
		}
	}
	const row = "%-22s %9s %9s %8s %-18s %8s %-18s %9s %9s %8s %8s %8s %s\n"
	fmt.Printf(row, "setup", "rtt p50", "rtt p99", "1 KiB", "ratio", "1 MiB", "ratio", "cpu/MiB", "cpu/MiB", "cs/MiB", "cs/MiB", "tap peak", "host view")
	fmt.Printf(row, "", "(added)", "(added)", "MB/s", "[range]", "MB/s", "[range]", "1 KiB", "1 MiB", "1 KiB", "1 MiB", "", "")
	p := summarize(plain)
	fmt.Printf(row, setups[0].name, p.p50, p.p99, mbps(p.small), "1x", mbps(p.large), "1x",
		perMiB(p.cpuSmall, mib), perMiB(p.cpuLarge, mib), switchesPerMiB(p.switchSmall, mib), switchesPerMiB(p.switchLarge, mib), "-", "identical")
	for _, s := range setups[1:] {
		ps := pairs[s.name]
		if len(ps) == 0 {
			continue
		}
		var rs []result
		var addP50, addP99 []time.Duration
		var ratioSmall, ratioLarge []float64
		peak, identical := 0, true
		for _, pr := range ps {
			rs = append(rs, pr.tapped)
			addP50 = append(addP50, pr.tapped.p50-pr.plain.p50)
			addP99 = append(addP99, pr.tapped.p99-pr.plain.p99)
			ratioSmall = append(ratioSmall, pr.tapped.small/pr.plain.small)
			ratioLarge = append(ratioLarge, pr.tapped.large/pr.plain.large)
			peak = max(peak, pr.tapped.peakKiB)
			identical = identical && pr.tapped.identical && pr.plain.identical
		}
		r := summarize(rs)
		view := "identical"
		if !identical {
			view = "DIFFERENT"
		}
		peakText := fmt.Sprintf("%d MiB", peak>>10)
		if !s.tapped {
			peakText = "-"
		}
		fmt.Printf(row, s.name, r.p50, r.p99, mbps(r.small), ratioText(ratioSmall), mbps(r.large), ratioText(ratioLarge),
			perMiB(r.cpuSmall, mib), perMiB(r.cpuLarge, mib), switchesPerMiB(r.switchSmall, mib), switchesPerMiB(r.switchLarge, mib),
			peakText, view)
		fmt.Printf(row, "", "+"+median(addP50).String(), "+"+median(addP99).String(), "", "", "", "", "", "", "", "", "", ps[len(ps)-1].tapped.viewer)
	}
	return nil
}

// ratioText is the median ratio and the range of the pairs'.
func ratioText(rs []float64) string {
	return fmt.Sprintf("%.2fx [%.2f–%.2f]", median(rs), slices.Min(rs), slices.Max(rs))
}

// mbps is a rate in MB/s.
func mbps(r float64) string { return fmt.Sprintf("%.0f", r) }

// perMiB is CPU time per MiB streamed, in microseconds.
func perMiB(d time.Duration, mib int) string {
	if d <= 0 {
		return "?"
	}
	return fmt.Sprintf("%.0f µs", float64(d.Microseconds())/float64(mib))
}

// switchesPerMiB is context switches per MiB streamed.
func switchesPerMiB(n, mib int) string { return fmt.Sprintf("%.1f", float64(n)/float64(mib)) }

// pair is a tapped run and the plain pipe run beside it.
type pair struct{ plain, tapped result }

// summarize is the median of each figure.
func summarize(rs []result) result {
	var p50, p99, cpuSmall, cpuLarge []time.Duration
	var small, large, swSmall, swLarge []float64
	for _, r := range rs {
		swSmall, swLarge = append(swSmall, float64(r.switchSmall)), append(swLarge, float64(r.switchLarge))
		p50, p99 = append(p50, r.p50), append(p99, r.p99)
		cpuSmall, cpuLarge = append(cpuSmall, r.cpuSmall), append(cpuLarge, r.cpuLarge)
		small, large = append(small, r.small), append(large, r.large)
	}
	return result{p50: median(p50), p99: median(p99), small: median(small), large: median(large),
		cpuSmall: median(cpuSmall), cpuLarge: median(cpuLarge), switchSmall: int(median(swSmall)), switchLarge: int(median(swLarge))}
}

func median[T time.Duration | float64](xs []T) T {
	s := slices.Clone(xs)
	slices.Sort(s)
	return s[len(s)/2]
}

type result struct {
	p50, p99     time.Duration
	small, large float64 // MB/s
	// cpuSmall and cpuLarge are the tap's own CPU time (the echo's on a
	// plain pipe) over the stream of 1 KiB and of 1 MiB lines.
	cpuSmall, cpuLarge time.Duration
	// switchSmall and switchLarge are its context switches over them.
	switchSmall, switchLarge int
	peakKiB                  int
	identical                bool
	viewer                   string
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
	if s.viewer == "grown" {
		cmd.Env = append(cmd.Env, "TAPBENCH_GROW_PIPES=1")
	}
	cmd.Stderr = os.Stderr
	var stdin io.WriteCloser
	var stdout io.Reader
	started := func() {}
	if os.Getenv("TAPBENCH_SOCKETPAIR") != "" {
		w, r, done, err := socketStdio(cmd)
		if err != nil {
			return result{}, err
		}
		defer r.Close()
		stdin, stdout, started = w, r, done
	} else {
		if stdin, err = cmd.StdinPipe(); err != nil {
			return result{}, err
		}
		if stdout, err = cmd.StdoutPipe(); err != nil {
			return result{}, err
		}
	}
	if err := cmd.Start(); err != nil {
		return result{}, err
	}
	started()
	defer func() { _ = cmd.Process.Kill(); _ = cmd.Wait() }()
	out := bufio.NewReaderSize(stdout, 4<<20)
	var r result
	var viewerDone chan string
	// The first round trip proves the server (and the tap) is up.
	if err := roundTrip(stdin, out, []byte("hello\n")); err != nil {
		return r, err
	}
	if s.tapped && (s.viewer == "reading" || s.viewer == "stalled") {
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
	if r.p50, r.p99, err = latency(stdin, out, samples); err != nil {
		return r, err
	}
	// The process whose CPU counts: the tap, or the bare echo.
	pid := cmd.Process.Pid
	var same1, same2 bool
	before := usageOf(pid)
	if r.small, same1, err = throughput(stdin, out, 1<<10, mib); err != nil {
		return r, err
	}
	mid := usageOf(pid)
	if r.large, same2, err = throughput(stdin, out, 1<<20, mib); err != nil {
		return r, err
	}
	after := usageOf(pid)
	r.cpuSmall, r.cpuLarge = mid.cpu-before.cpu, after.cpu-mid.cpu
	r.switchSmall, r.switchLarge = mid.switches-before.switches, after.switches-mid.switches
	if before.cpu < 0 || mid.cpu < 0 || after.cpu < 0 {
		r.cpuSmall, r.cpuLarge = -1, -1
	}
	r.identical = same1 && same2
	if s.tapped {
		r.peakKiB = peakKiB(pid)
	}
	stdin.Close()
	_, _ = io.Copy(io.Discard, out)
	_ = cmd.Wait()
	if viewerDone != nil {
		select {
		case r.viewer = <-viewerDone:
		case <-time.After(10 * time.Second):
			r.viewer = "still reading"
		}
	}
	return r, nil
}

// usage is what a process's threads have used: time on a CPU (the sum of
// /proc/PID/task/*/schedstat) and context switches (voluntary: a wait;
// forced: preempted); cpu is -1 when unknown. A thread that ended takes
// its figures with it: the tap's threads live as long as the relay.
type usage struct {
	cpu      time.Duration
	switches int
}

func usageOf(pid int) usage {
	dir := fmt.Sprintf("/proc/%d/task", pid)
	tasks, err := os.ReadDir(dir)
	if err != nil {
		return usage{cpu: -1}
	}
	var u usage
	for _, t := range tasks {
		b, err := os.ReadFile(filepath.Join(dir, t.Name(), "schedstat"))
		if err != nil {
			continue // it just ended
		}
		f := strings.Fields(string(b))
		if len(f) == 0 {
			continue
		}
		ns, err := strconv.ParseInt(f[0], 10, 64)
		if err != nil {
			return usage{cpu: -1}
		}
		u.cpu += time.Duration(ns)
		st, err := os.ReadFile(filepath.Join(dir, t.Name(), "status"))
		if err != nil {
			continue
		}
		for _, l := range strings.Split(string(st), "\n") {
			if k, v, ok := strings.Cut(l, ":"); ok && strings.HasSuffix(k, "ctxt_switches") {
				n, _ := strconv.Atoi(strings.TrimSpace(v))
				u.switches += n
			}
		}
	}
	return u
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
	line := newNumbered(1 << 10).line
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

// throughput streams mib MiB of numbered lines of size bytes through the
// echo, one line a write, and reports MB/s, and whether the host read
// exactly what it wrote (every line whole, in order).
func throughput(w io.Writer, r *bufio.Reader, size, mib int) (float64, bool, error) {
	n := (mib << 20) / size
	total := n * size
	start := time.Now()
	errc := make(chan error, 1)
	go func() {
		out := newNumbered(size)
		for i := range n {
			if _, err := w.Write(out.number(i)); err != nil {
				errc <- err
				return
			}
		}
		errc <- nil
	}()
	want := newNumbered(size)
	same := true
	for i := range n {
		got, err := r.ReadSlice('\n')
		if err != nil {
			return 0, false, fmt.Errorf("line %d of %d: %w", i, n, err)
		}
		same = same && want.is(got, i)
	}
	elapsed := time.Since(start)
	if err := <-errc; err != nil {
		return 0, false, err
	}
	return float64(total) / elapsed.Seconds() / 1e6, same, nil
}

// numbered is a JSON-RPC notification of a fixed size (newline included)
// that carries a sequence number (a string of digits: valid JSON, as the
// feed and the recorder see in real traffic).
type numbered struct {
	line []byte
	at   int // where the number's digits are
}

const seqDigits = 12

func newNumbered(size int) *numbered {
	head := `{"jsonrpc":"2.0","method":"bench","params":{"seq":"`
	mid := `","pad":"`
	tail := "\"}}\n"
	pad := strings.Repeat("x", size-len(head)-seqDigits-len(mid)-len(tail))
	return &numbered{line: []byte(head + strings.Repeat("0", seqDigits) + mid + pad + tail), at: len(head)}
}

// number writes i into the line and returns it.
func (l *numbered) number(i int) []byte {
	d := l.line[l.at : l.at+seqDigits]
	for k := seqDigits - 1; k >= 0; k-- {
		d[k] = byte('0' + i%10)
		i /= 10
	}
	return l.line
}

// is reports whether got is line i.
func (l *numbered) is(got []byte, i int) bool {
	return len(got) == len(l.line) && bytes.Equal(got[:l.at], l.line[:l.at]) &&
		bytes.Equal(got[l.at+seqDigits:], l.line[l.at+seqDigits:]) && bytes.Equal(got[l.at:l.at+seqDigits], l.number(i)[l.at:l.at+seqDigits])
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
			_, _ = fmt.Sscanf(strings.TrimSpace(strings.TrimPrefix(l, "VmHWM:")), "%d", &kib)
			return kib
		}
	}
	return 0
}
