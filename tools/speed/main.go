// Command speed guards the performance work of issue 33: it builds a
// previous main beside the current tree and runs each case for both,
// interleaved (old, new, old, new, … -count times each), so that what
// else the machine does falls on both builds alike, then prints per case
// the medians of wall time, CPU seconds (user+sys of the process and the
// children it waited for, from its rusage), peak RSS and, for Go
// benchmarks, time per op, with new/old ratios and the load average when
// the case started and ended.
//
//	go run ./tools/speed                          # against the previous main
//	go run ./tools/speed -base HEAD~3 -count 7 -bench startup,size
//	go run ./tools/speed -json speed.json        # the table, and every run as JSON
//	go run ./tools/speed -table speed.json       # that table again
//
// The old build is a `git worktree add --detach` of -base in a temporary
// directory, removed at the end, so the tree being measured may have
// uncommitted changes. -base defaults to the first parent of the
// merge-base of HEAD and main: the main before the last merge, or before
// this branch's. Cases (-list; -bench takes a comma-separated subset):
//
//   - catalog-down-50k, catalog-filter-50k: the Go benchmarks
//     BenchmarkCatalogDown/50000 and BenchmarkCatalogFilter/50000 of
//     ui/catalog (ui/explorer in older trees; its test binary built for each side with go test -c).
//     An old tree without the benchmark's file gets the current tree's
//     copy, the same benchmark on the old code (the report says so); if
//     its package does not compile with it, the case is listed as "new",
//     without a ratio;
//   - tools-50k: `mcptui tools` against tools/manytools serving 50,000
//     tools: launch to the listed catalog, headless;
//   - launch-50k: the inspector in tmux at 80x24 on manytools, from its
//     start to the list of 50,000 tools on screen (mcptui: E typed once
//     ready, until the catalog shows the count and the first tool), then
//     its idle RSS; the peer's too (-peer-args-50k, -peer-ready-50k);
//   - result-15mib: `mcptui call large` of the demo server's 15 MiB text
//     result, headless, printed to /dev/null;
//   - result-15mib-shown: the inspector (in tmux) replaying a recording of
//     that call to its end;
//   - result-15mib-opened: the same, then Enter on the tools/call, until
//     the response's viewer shows the result's first line;
//   - replay-large: the inspector (in tmux) replaying a recording of
//     -notifications progress notifications (100,000, the demo's most: ~23 MB) to its end;
//   - startup: `mcptui tools -- mcptui demo-server`, headless;
//   - size: the size of the mcptui binary, built as a release is
//     (CGO_ENABLED=0, -trimpath, -ldflags=-s -w and the build tags of the
//     tree's .goreleaser.yaml), as every measured build is;
//   - ready: the inspector in a tmux of its own at 80×24 on the demo
//     server, from its start to its first ready screen (the header's
//     "● ready"), then its idle RSS (and the anonymous part of it) once
//     the RSS has stayed the same for a second;
//   - init: what the package initializers allocate, every run's cost
//     (GODEBUG=inittrace=1 of --version), in bytes and allocations;
//   - flood: each tree's tools/floodbench (the inspector under a flood of
//     notifications/message, -flood-rate a second for -flood-duration:
//     100,000 and 10s), its report read: the lines ingested (% of offered),
//     key→screen p50, p99 and max, the inspector process's own CPU over
//     the window in cores (getrusage, the server's apart; a floodbench
//     older than that line leaves it out) and its peak RSS; then each run's
//     p99 and how many runs met issue 33's target (p99 ≤ 33 ms with ≥ 99%
//     ingested). A tree without floodbench, or whose report lacks those
//     figures, or whose floodbench does not build, runs the case as "new".
//
// -burners N runs N CPU burners (shell busy loops, as tools/busy/run.sh)
// through the cases, to measure on a busy machine: with 2 on 2 cores the
// load is about 4 (issue 33's flood target is met "at load 4"). They are
// killed and reaped however the run ends (an interrupt, SIGTERM, SIGHUP;
// on Linux SIGKILL too, by their parent-death signal):
//
//	go run ./tools/speed -bench flood -count 5 -burners 2
//
// -peer PATH adds another inspector to the size, ready, init and
// launch-50k cases, run after each new run (old, new, peer, …), with its
// own columns and new/peer ratios: mcp-tui by default (-peer-args "--cmd
// {server} --args demo-server", ready when -peer-ready matches its
// screen: its tool tab's count; on manytools -peer-args-50k and
// -peer-ready-50k, "Tools (50000)"). A peer binary that has symbols or DWARF is compared
// stripped (strip(1) of a copy), as ours is built -s -w:
//
//	go run ./tools/speed -bench size,ready,init -peer /path/to/mcp-tui
//
// Every server is the current tree's build (the demo server, manytools),
// the same for both sides; its CPU is in the figures, as mcptui waits for
// it. The recordings are made once, by the current build, before the runs.
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"time"
)

func main() {
	if len(os.Args) > 1 && os.Args[1] == "-wrap" {
		os.Exit(wrapMain(os.Args[2:]))
	}
	base := flag.String("base", "", "the git revision to compare with (default: the first parent of merge-base HEAD main, else HEAD~1)")
	count := flag.Int("count", 5, "runs of each case per build")
	only := flag.String("bench", "", "comma-separated cases to run (default: all; see -list)")
	list := flag.Bool("list", false, "list the cases and exit")
	jsonOut := flag.String("json", "", "also write the results as JSON to this file (- : to stdout, instead of the table)")
	notes := flag.Int("notifications", 100_000, "progress notifications in replay-large's recording (the demo's burst sends at most 100,000)")
	benchtime := flag.String("benchtime", "10x", "-test.benchtime of the Go benchmarks")
	table := flag.String("table", "", "print the table of an earlier -json file, and exit")
	peer := flag.String("peer", "", "another inspector's binary to run beside the builds in the size, ready, init and launch-50k cases (mcp-tui's command line by default)")
	peerArgs := flag.String("peer-args", "--cmd {server} --args demo-server", "the peer's arguments to inspect the demo server ({server}: the mcptui build that serves it)")
	peerReady := flag.String("peer-ready", `Tools \([1-9]`, "a regular expression that matches the peer's screen once it is ready")
	peerArgs50k := flag.String("peer-args-50k", "--cmd {manytools}", "the peer's arguments to inspect manytools' 50,000 tools ({manytools}: its binary), for launch-50k")
	peerReady50k := flag.String("peer-ready-50k", `Tools \(50000\)`, "a regular expression that matches the peer's screen once it lists the 50,000 tools, for launch-50k")
	burners := flag.Int("burners", 0, "CPU burners (busy loops in child processes) to run through the cases, to measure on a busy machine; all are killed at the end, however it ends")
	floodRate := flag.Int("flood-rate", 100_000, "the flood case's notifications/message a second (floodbench -rate)")
	floodDuration := flag.Duration("flood-duration", 10*time.Second, "how long each flood run floods and measures (floodbench -duration)")
	flag.Parse()
	if *floodRate <= 0 || *floodDuration <= 0 || *burners < 0 {
		fmt.Fprintln(os.Stderr, "speed: -flood-rate and -flood-duration must be positive, -burners not negative")
		os.Exit(2)
	}
	if *table != "" {
		var rep report
		data, err := os.ReadFile(*table)
		if err == nil {
			err = json.Unmarshal(data, &rep)
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, "speed:", err)
			os.Exit(1)
		}
		printTable(os.Stdout, &rep)
		return
	}
	cases := allCases()
	if *list {
		for _, c := range cases {
			fmt.Printf("%-20s %s\n", c.name, c.what)
		}
		return
	}
	selected, err := pick(cases, *only)
	if err != nil {
		fmt.Fprintln(os.Stderr, "speed:", err)
		os.Exit(2)
	}
	ctx, stop := signalContext()
	defer stop()
	opts := options{base: *base, count: *count, notifications: *notes, benchtime: *benchtime,
		peer: *peer, peerArgs: strings.Fields(*peerArgs), peerReady: *peerReady,
		peerArgs50k: strings.Fields(*peerArgs50k), peerReady50k: *peerReady50k,
		burners: *burners, floodRate: *floodRate, floodDuration: *floodDuration}
	rep, err := run(ctx, opts, selected)
	if err != nil {
		fmt.Fprintln(os.Stderr, "speed:", err)
		os.Exit(1)
	}
	if *jsonOut != "" {
		data, err := json.MarshalIndent(rep, "", "  ")
		if err == nil && *jsonOut == "-" {
			_, err = os.Stdout.Write(append(data, '\n'))
		} else if err == nil {
			err = os.WriteFile(*jsonOut, append(data, '\n'), 0o644)
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, "speed:", err)
			os.Exit(1)
		}
		if *jsonOut == "-" {
			return
		}
	}
	printTable(os.Stdout, rep)
}

type options struct {
	base          string
	count         int
	notifications int
	benchtime     string
	peer          string   // the peer's binary ("": none)
	peerArgs      []string // its arguments; {server} is the demo server's binary
	peerReady     string   // a regular expression of its ready screen
	peerArgs50k   []string // its arguments on manytools; {manytools} is its binary
	peerReady50k  string   // a regular expression of its screen listing the 50,000 tools
	burners       int      // CPU burners to run through the cases
	floodRate     int      // the flood case's notifications a second
	floodDuration time.Duration
}

// pick is the cases named in the comma-separated list (all for "").
func pick(cases []benchCase, names string) ([]benchCase, error) {
	if names == "" {
		return cases, nil
	}
	var out []benchCase
	for _, n := range strings.Split(names, ",") {
		n = strings.TrimSpace(n)
		found := false
		for _, c := range cases {
			if c.name == n {
				out = append(out, c)
				found = true
			}
		}
		if !found {
			return nil, fmt.Errorf("no case %q (see -list)", n)
		}
	}
	return out, nil
}

// build is one side's binaries.
type build struct {
	side     side
	src      string // its source tree
	mcptui   string
	explorer string   // the catalog package's test binary
	benches  string   // the benchmarks that binary has (its -test.list output)
	ported   []string // benchFiles copied from the current tree
	// floodbench is the tree's tools/floodbench ("": none the flood case
	// can run).
	floodbench string
}

// env is what every case shares.
type env struct {
	ctx       context.Context
	self      string // this program, for -wrap
	tmp       string
	server    string // the current build of mcptui, which serves the demo
	manytools string
	burstRec  string // the recording of -notifications progress notifications
	largeRec  string // the recording of a 15 MiB result
	peerArgs  []string
	peerReady *regexp.Regexp
	// The peer on manytools (launch-50k).
	peerArgs50k  []string
	peerReady50k *regexp.Regexp
	benchtime    string
	seq          int
	// The flood case's rate (notifications a second) and duration.
	floodRate     int
	floodDuration time.Duration
}

// sample is one run of one build.
type sample struct {
	Wall   float64 `json:"wallSeconds,omitempty"`
	CPU    float64 `json:"cpuSeconds,omitempty"`
	MaxRSS float64 `json:"maxRSSBytes,omitempty"`
	// IdleRSS is the resident set once the inspector is ready and idle;
	// IdleAnon is its anonymous part (the rest is the binary's pages).
	IdleRSS    float64 `json:"idleRSSBytes,omitempty"`
	IdleAnon   float64 `json:"idleAnonBytes,omitempty"`
	InitBytes  float64 `json:"initBytes,omitempty"`  // allocated by package initializers
	InitAllocs float64 `json:"initAllocs,omitempty"` // their allocations
	NsPerOp    float64 `json:"nsPerOp,omitempty"`
	Bytes      float64 `json:"bytes,omitempty"` // the binary's size
	// The flood case's, from floodbench's report: the lines ingested, in
	// % of those offered; key→screen p50, p99 and max in seconds; the
	// inspector process's own CPU over the window, in cores.
	Ingested   float64 `json:"ingestedPercent,omitempty"`
	KeyP50     float64 `json:"keyP50Seconds,omitempty"`
	KeyP99     float64 `json:"keyP99Seconds,omitempty"`
	KeyMax     float64 `json:"keyMaxSeconds,omitempty"`
	ProgramCPU float64 `json:"programCPUCores,omitempty"`
}

// measures of a sample, in the table's order: the field, its label and
// its unit.
var measures = []struct {
	label, unit string
	get         func(sample) float64
}{
	{"per op", "s", func(s sample) float64 { return s.NsPerOp / 1e9 }},
	{"ingested", "%", func(s sample) float64 { return s.Ingested }},
	{"key p50", "s", func(s sample) float64 { return s.KeyP50 }},
	{"key p99", "s", func(s sample) float64 { return s.KeyP99 }},
	{"key max", "s", func(s sample) float64 { return s.KeyMax }},
	{"inspector CPU", "cores", func(s sample) float64 { return s.ProgramCPU }},
	{"wall", "s", func(s sample) float64 { return s.Wall }},
	{"CPU", "s", func(s sample) float64 { return s.CPU }},
	{"peak RSS", "B", func(s sample) float64 { return s.MaxRSS }},
	{"size", "B", func(s sample) float64 { return s.Bytes }},
	{"idle RSS", "B", func(s sample) float64 { return s.IdleRSS }},
	{"idle anon RSS", "B", func(s sample) float64 { return s.IdleAnon }},
	{"init bytes", "B", func(s sample) float64 { return s.InitBytes }},
	{"init allocs", "", func(s sample) float64 { return s.InitAllocs }},
}

// benchCase is one thing measured.
type benchCase struct {
	name, what string
	// has says whether the build can run the case (nil: every build can).
	has func(*build) bool
	// once: one measurement a build is enough (it does not vary).
	once bool
	// peer: the -peer program runs it too.
	peer bool
	// target: what each run should meet (the table counts the runs that
	// did); nil: none.
	target *floodTarget
	run    func(*env, *build) (sample, error)
}

// caseResult is one case's runs and their summary.
type caseResult struct {
	Name      string                `json:"name"`
	What      string                `json:"what"`
	LoadStart [3]float64            `json:"loadStart"`
	LoadEnd   [3]float64            `json:"loadEnd"`
	HasOld    bool                  `json:"hasOld"`
	Old       []sample              `json:"old,omitempty"`
	New       []sample              `json:"new"`
	Medians   map[string][3]float64 `json:"medians"` // measure → old, new, new/old
	HasPeer   bool                  `json:"hasPeer,omitempty"`
	Peer      []sample              `json:"peer,omitempty"`
	// PeerMedians: measure → the peer's, new/peer.
	PeerMedians map[string][2]float64 `json:"peerMedians,omitempty"`
	Target      *floodTarget          `json:"target,omitempty"`
	Error       string                `json:"error,omitempty"`
}

// report is the whole run.
type report struct {
	Base      string    `json:"base"`
	BaseRev   string    `json:"baseCommit"`
	NewRev    string    `json:"newCommit"`
	Dirty     bool      `json:"dirty"`
	Count     int       `json:"count"`
	Ported    []string  `json:"portedBenchmarks,omitempty"` // benchmark files the old tree got from the new
	GoVersion string    `json:"goVersion"`
	CPUs      int       `json:"cpus"`
	Started   time.Time `json:"started"`
	Peer      string    `json:"peer,omitempty"` // the peer's binary
	// PeerStripped: the peer's binary had symbols or DWARF; it ran as a
	// stripped copy.
	PeerStripped bool `json:"peerStripped,omitempty"`
	// Burners is how many CPU burners (-burners) ran through the cases.
	Burners int `json:"burners,omitempty"`
	// FloodRate and FloodDuration are the flood case's (when it ran).
	FloodRate     int          `json:"floodRate,omitempty"`
	FloodDuration string       `json:"floodDuration,omitempty"`
	Cases         []caseResult `json:"cases"`
}

func run(ctx context.Context, o options, cases []benchCase) (*report, error) {
	root, err := git(ctx, ".", "rev-parse", "--show-toplevel")
	if err != nil {
		return nil, fmt.Errorf("finding the repository: %w", err)
	}
	base := o.base
	if base == "" {
		if base, err = defaultBase(ctx, root); err != nil {
			return nil, err
		}
	}
	baseRev, err := git(ctx, root, "rev-parse", "--verify", base+"^{commit}")
	if err != nil {
		return nil, fmt.Errorf("base %q: %w", base, err)
	}
	newRev, _ := git(ctx, root, "rev-parse", "HEAD")
	status, _ := git(ctx, root, "status", "--porcelain", "--untracked-files=no")
	self, err := os.Executable()
	if err != nil {
		return nil, fmt.Errorf("finding this program: %w", err)
	}
	tmp, err := os.MkdirTemp("", "speed-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	oldSrc := filepath.Join(tmp, "old-src")
	if _, err := git(ctx, root, "worktree", "add", "--detach", oldSrc, baseRev); err != nil {
		return nil, fmt.Errorf("checking out %s: %w", base, err)
	}
	defer func() {
		// Not ctx: the worktree goes even after an interrupt.
		if _, err := git(context.Background(), root, "worktree", "remove", "--force", oldSrc); err != nil {
			fmt.Fprintln(os.Stderr, "speed: removing the old worktree:", err)
		}
	}()
	logf("building the old (%s = %.12s) and the new (%s) builds", base, baseRev, root)
	old, err := makeBuild(ctx, oldSide, oldSrc, root, filepath.Join(tmp, "old"))
	if err != nil {
		return nil, fmt.Errorf("the old build: %w", err)
	}
	cur, err := makeBuild(ctx, newSide, root, "", filepath.Join(tmp, "new"))
	if err != nil {
		return nil, fmt.Errorf("the new build: %w", err)
	}
	e := &env{ctx: ctx, self: self, tmp: tmp, server: cur.mcptui, benchtime: o.benchtime, peerArgs: o.peerArgs, peerArgs50k: o.peerArgs50k,
		floodRate: o.floodRate, floodDuration: o.floodDuration}
	var peer *build
	stripped := false
	if o.peer != "" {
		if e.peerReady, err = regexp.Compile(o.peerReady); err != nil {
			return nil, fmt.Errorf("-peer-ready: %w", err)
		}
		if e.peerReady50k, err = regexp.Compile(o.peerReady50k); err != nil {
			return nil, fmt.Errorf("-peer-ready-50k: %w", err)
		}
		if peer, stripped, err = peerBuild(ctx, o.peer, filepath.Join(tmp, "peer")); err != nil {
			return nil, err
		}
	}
	if needsRecordings(cases) {
		if err := prepare(e, root, o.notifications); err != nil {
			return nil, err
		}
	}
	rep := &report{Base: base, BaseRev: baseRev, NewRev: newRev, Dirty: status != "", Count: o.count, Ported: old.ported,
		GoVersion: runtime.Version(), CPUs: runtime.NumCPU(), Started: time.Now().UTC(), Peer: o.peer, PeerStripped: stripped}
	if hasCase(cases, "flood") {
		for _, b := range []*build{old, cur} {
			why, err := buildFlood(ctx, b, filepath.Join(tmp, b.side.String()))
			if err != nil {
				return nil, fmt.Errorf("the %s build: %w", b.side, err)
			}
			if why != "" {
				logf("the %s build has no flood case: %s", b.side, why)
			}
		}
		rep.FloodRate, rep.FloodDuration = o.floodRate, o.floodDuration.String()
	}
	if o.burners > 0 {
		// Through every case, stopped (and reaped) however run ends.
		bs, err := startBurners(o.burners)
		if err != nil {
			return nil, err
		}
		defer bs.stop()
		logf("%d CPU burners running (pids %v)", o.burners, bs.pids())
		rep.Burners = o.burners
	}
	for _, c := range cases {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		logf("case %s", c.name)
		rep.Cases = append(rep.Cases, runCase(e, c, old, cur, peer, o.count))
	}
	if ctx.Err() != nil {
		// Interrupted in the last case: not a table of what it cut short.
		return nil, ctx.Err()
	}
	return rep, nil
}

// runCase runs c for both builds (and the peer, when there is one and
// c is the peer's too), interleaved.
func runCase(e *env, c benchCase, old, cur, peer *build, count int) caseResult {
	r := caseResult{Name: c.name, What: c.what, HasOld: c.has == nil || c.has(old), HasPeer: c.peer && peer != nil, Target: c.target, LoadStart: loadavg()}
	n := count
	if c.once {
		n = 1
	}
	for _, s := range schedulePeer(n, r.HasOld, r.HasPeer) {
		b := cur
		switch s {
		case oldSide:
			b = old
		case peerSide:
			b = peer
		}
		smp, err := c.run(e, b)
		if err != nil {
			r.Error = fmt.Sprintf("%s build: %v", s, err)
			logf("  %s", r.Error)
			break
		}
		switch s {
		case oldSide:
			r.Old = append(r.Old, smp)
		case peerSide:
			r.Peer = append(r.Peer, smp)
		default:
			r.New = append(r.New, smp)
		}
	}
	r.LoadEnd = loadavg()
	r.Medians = map[string][3]float64{}
	for _, m := range measures {
		o, nw := median(values(r.Old, m.get)), median(values(r.New, m.get))
		if nw == 0 && o == 0 {
			continue
		}
		r.Medians[m.label] = [3]float64{o, nw, ratio(o, nw)}
		if p := median(values(r.Peer, m.get)); p != 0 {
			if r.PeerMedians == nil {
				r.PeerMedians = map[string][2]float64{}
			}
			r.PeerMedians[m.label] = [2]float64{p, ratio(p, nw)}
		}
	}
	return r
}

func values(ss []sample, get func(sample) float64) []float64 {
	out := make([]float64, 0, len(ss))
	for _, s := range ss {
		if v := get(s); v != 0 {
			out = append(out, v)
		}
	}
	return out
}

// defaultBase is the first parent of the merge-base of HEAD and main (the
// main before the last merge into it), else HEAD~1.
func defaultBase(ctx context.Context, root string) (string, error) {
	if mb, err := git(ctx, root, "merge-base", "HEAD", "main"); err == nil {
		if p, err := git(ctx, root, "rev-parse", "--verify", mb+"^1"); err == nil {
			return p, nil
		}
	}
	return "HEAD~1", nil
}

// benchFile is the file of the Go benchmarks the cases run, in the
// catalog's package. A build that lacks it gets the current tree's copy
// (the same benchmark, run on the old code) when its package still
// compiles with it.
const benchFile = "catalog_bench_test.go"

// catalogPackage is the catalog's package in the tree src: ui/catalog, or
// ui/explorer before it was named for what it is.
func catalogPackage(src string) (dir, name string) {
	if _, err := os.Stat(filepath.Join(src, "ui", "catalog")); err == nil {
		return "ui/catalog", "catalog"
	}
	return "ui/explorer", "explorer"
}

// makeBuild builds mcptui and the catalog's test binary from src into dir;
// from is the current tree, where benchFiles missing in src come from ("" :
// src is the current tree).
func makeBuild(ctx context.Context, s side, src, from, dir string) (*build, error) {
	b := &build{side: s, src: src, mcptui: filepath.Join(dir, "mcptui"+exe()), explorer: filepath.Join(dir, "explorer.test"+exe())}
	// As a release is built (.goreleaser.yaml, the tags its tree gives):
	// what users run, and its size.
	args := []string{"build", "-trimpath", "-ldflags=-s -w"}
	if tags := releaseTags(src); len(tags) > 0 {
		args = append(args, "-tags="+strings.Join(tags, ","))
	}
	if err := goCmd(ctx, src, append(args, "-o", b.mcptui, ".")...); err != nil {
		return nil, err
	}
	pkg, name := catalogPackage(src)
	if from != "" {
		f := pkg + "/" + benchFile
		dst := filepath.Join(src, filepath.FromSlash(f))
		if _, err := os.Stat(dst); err != nil {
			fromPkg, fromName := catalogPackage(from)
			data, err := os.ReadFile(filepath.Join(from, filepath.FromSlash(fromPkg), benchFile))
			if err != nil {
				return nil, fmt.Errorf("porting a benchmark: %w", err)
			}
			// The package's old name, where it had one.
			data = bytes.Replace(data, []byte("package "+fromName+"\n"), []byte("package "+name+"\n"), 1)
			if err := os.WriteFile(dst, data, 0o644); err != nil {
				return nil, fmt.Errorf("porting a benchmark: %w", err)
			}
			b.ported = append(b.ported, f)
		}
	}
	if err := goCmd(ctx, src, "test", "-c", "-o", b.explorer, "./"+pkg); err != nil {
		if from != "" && len(b.ported) == 0 {
			// An old tree whose ui/explorer does not build as a test:
			// the Go benchmarks are the new build's alone.
			logf("the old build's %s test binary: %v", pkg, err)
			return b, nil
		}
		if len(b.ported) == 0 {
			return nil, err
		}
		// The old code lacks what the ported benchmarks use: without them.
		logf("the old build does not compile with %v (%v): its Go benchmarks are the new build's alone", b.ported, err)
		for _, f := range b.ported {
			os.Remove(filepath.Join(src, filepath.FromSlash(f)))
		}
		b.ported = nil
		if err := goCmd(ctx, src, "test", "-c", "-o", b.explorer, "./"+pkg); err != nil {
			logf("the old build's %s test binary: %v", pkg, err)
			return b, nil
		}
	}
	return listBenches(ctx, b)
}

// listBenches fills b.benches from its test binary.
func listBenches(ctx context.Context, b *build) (*build, error) {
	if _, err := os.Stat(b.explorer); err != nil {
		// go test -c writes nothing for a package without test files.
		return b, nil
	}
	out, err := exec.CommandContext(ctx, b.explorer, "-test.list", "^Benchmark").Output()
	if err != nil {
		return nil, fmt.Errorf("listing the catalog's benchmarks: %w", err)
	}
	b.benches = string(out)
	return b, nil
}

// needsRecordings says whether a case replays a recording or serves
// manytools (prepare's work, a minute of it).
func needsRecordings(cases []benchCase) bool {
	return hasCase(cases, "tools-50k", "launch-50k", "result-15mib-shown", "result-15mib-opened", "replay-large")
}

// hasCase says whether cases holds one of names.
func hasCase(cases []benchCase, names ...string) bool {
	for _, c := range cases {
		for _, n := range names {
			if c.name == n {
				return true
			}
		}
	}
	return false
}

// prepare builds the servers and makes the recordings, with the current
// build.
func prepare(e *env, root string, notifications int) error {
	e.manytools = filepath.Join(e.tmp, "manytools"+exe())
	if err := goCmd(e.ctx, root, "build", "-o", e.manytools, "./tools/manytools"); err != nil {
		return err
	}
	logf("recording %d progress notifications and a 15 MiB result", notifications)
	e.burstRec = filepath.Join(e.tmp, "burst.jsonl")
	e.largeRec = filepath.Join(e.tmp, "large.jsonl")
	for _, args := range [][]string{
		{"call", "burst", "--arg", fmt.Sprintf("count:=%d", notifications), "--record", e.burstRec, "--", e.server, "demo-server"},
		{"call", "large", "--arg", fmt.Sprintf("bytes:=%d", 15<<20), "--record", e.largeRec, "--", e.server, "demo-server"},
	} {
		cmd := exec.CommandContext(e.ctx, e.server, args...)
		var stderr bytes.Buffer
		cmd.Stderr = &tail{buf: &stderr, max: 4096}
		if err := cmd.Run(); err != nil {
			return fmt.Errorf("mcptui %s: %w: %s", strings.Join(args[:2], " "), err, stderr.String())
		}
	}
	return nil
}

// largeFirstLine is the start of the demo's large text, as the response
// viewer shows it.
const largeFirstLine = `"text": "line 0000001`

// tail keeps the last max bytes written to it (a flood of progress lines
// on stderr).
type tail struct {
	buf *bytes.Buffer
	max int
}

func (t *tail) Write(p []byte) (int, error) {
	t.buf.Write(p)
	if over := t.buf.Len() - t.max; over > 0 {
		t.buf.Next(over)
	}
	return len(p), nil
}

// measure runs argv to its end and returns its wall time, CPU and peak
// RSS; stdout goes to /dev/null.
func measure(ctx context.Context, dir string, argv ...string) (sample, string, error) {
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.Dir = dir
	var stdout, stderr bytes.Buffer
	cmd.Stdout = &tail{buf: &stdout, max: 64 << 10}
	cmd.Stderr = &tail{buf: &stderr, max: 4096}
	start := time.Now()
	err := cmd.Run()
	wall := time.Since(start)
	if err != nil {
		return sample{}, "", fmt.Errorf("%s: %w: %s", filepath.Base(argv[0]), err, stderr.String())
	}
	ps := cmd.ProcessState
	return sample{Wall: wall.Seconds(), CPU: (ps.UserTime() + ps.SystemTime()).Seconds(), MaxRSS: float64(maxRSS(ps))}, stdout.String(), nil
}

// benchDir is where the build's catalog test binary runs: its package's
// directory in its tree (ui/catalog, or ui/explorer in older trees).
func benchDir(b *build) string {
	pkg, _ := catalogPackage(b.src)
	return filepath.Join(b.src, filepath.FromSlash(pkg))
}

func allCases() []benchCase {
	goBench := func(name, bench, what string) benchCase {
		return benchCase{
			name: name, what: what,
			has: func(b *build) bool { return strings.Contains(b.benches, strings.SplitN(bench, "/", 2)[0]+"\n") },
			run: func(e *env, b *build) (sample, error) {
				top, sub, _ := strings.Cut(bench, "/")
				s, out, err := measure(e.ctx, benchDir(b), b.explorer, "-test.run", "^$",
					"-test.bench", "^"+top+"$/^"+sub+"$", "-test.benchtime", e.benchtime, "-test.benchmem")
				if err != nil {
					return s, err
				}
				bl, err := parseBench(out, bench)
				if err != nil {
					return s, err
				}
				s.NsPerOp = bl.NsPerOp
				return s, nil
			},
		}
	}
	headless := func(e *env, b *build, args ...string) (sample, error) {
		s, _, err := measure(e.ctx, e.tmp, append([]string{b.mcptui}, args...)...)
		return s, err
	}
	return []benchCase{
		goBench("catalog-down-50k", "BenchmarkCatalogDown/50000", "one Down key and its frame, 50,000 tools (Go benchmark, per op)"),
		goBench("catalog-filter-50k", "BenchmarkCatalogFilter/50000", "a filter keystroke and its backspace with their frames, 50,000 tools (Go benchmark, per op)"),
		{name: "tools-50k", what: "mcptui tools against a server of 50,000 tools (headless)", run: func(e *env, b *build) (sample, error) {
			return headless(e, b, "tools", "--", e.manytools, "-n", "50000")
		}},
		{name: "launch-50k", what: "the inspector in tmux at 80x24 on a server of 50,000 tools: start to the list on screen (mcptui: E once ready), then the idle RSS", peer: true, run: func(e *env, b *build) (sample, error) {
			return inspectLaunch(e, b, manyToolsLaunch(e, b))
		}},
		{name: "result-15mib", what: "mcptui call of a 15 MiB text result (headless, to /dev/null)", run: func(e *env, b *build) (sample, error) {
			return headless(e, b, "call", "large", "--arg", fmt.Sprintf("bytes:=%d", 15<<20), "--", e.server, "demo-server")
		}},
		{name: "result-15mib-shown", what: "the inspector replaying a recorded 15 MiB result to its end (tmux)", run: func(e *env, b *build) (sample, error) {
			return inspectReplay(e, b, e.largeRec)
		}},
		{name: "result-15mib-opened", what: "the inspector replaying a recorded 15 MiB result to its end, then opening the response (Enter) until it is on screen (tmux)", run: func(e *env, b *build) (sample, error) {
			return inspectReplay(e, b, e.largeRec, openSelected(largeFirstLine))
		}},
		{name: "replay-large", what: "the inspector replaying a recording of many progress notifications to its end (tmux)", run: func(e *env, b *build) (sample, error) {
			return inspectReplay(e, b, e.burstRec)
		}},
		{name: "startup", what: "mcptui tools -- mcptui demo-server (headless)", run: func(e *env, b *build) (sample, error) {
			return headless(e, b, "tools", "--", e.server, "demo-server")
		}},
		{name: "ready", what: "the inspector in tmux at 80x24 on the demo server: start to the first ready screen, then the idle RSS", peer: true, run: inspectReady},
		{name: "init", what: "the package initializers' allocations (GODEBUG=inittrace=1 of --version)", peer: true, run: initTrace},
		{name: "size", what: "the mcptui binary's size", once: true, peer: true, run: func(e *env, b *build) (sample, error) {
			fi, err := os.Stat(b.mcptui)
			if err != nil {
				return sample{}, err
			}
			return sample{Bytes: float64(fi.Size())}, nil
		}},
		floodCase(),
	}
}

func git(ctx context.Context, dir string, args ...string) (string, error) {
	cmd := exec.CommandContext(ctx, "git", args...)
	cmd.Dir = dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("git %s: %w: %s", strings.Join(args, " "), err, strings.TrimSpace(stderr.String()))
	}
	return strings.TrimSpace(string(out)), nil
}

func goCmd(ctx context.Context, dir string, args ...string) error {
	cmd := exec.CommandContext(ctx, "go", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	out, err := cmd.CombinedOutput()
	if err != nil {
		return fmt.Errorf("go %s in %s: %w: %s", strings.Join(args, " "), dir, err, out)
	}
	return nil
}

func exe() string {
	if runtime.GOOS == "windows" {
		return ".exe"
	}
	return ""
}

// loadavg is the 1, 5 and 15 minute load averages (zeros where
// /proc/loadavg is not).
func loadavg() [3]float64 {
	var l [3]float64
	data, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return l
	}
	_, _ = fmt.Sscan(string(data), &l[0], &l[1], &l[2])
	return l
}

func logf(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "speed: "+format+"\n", args...)
}

// printTable writes the report as a Markdown table.
func printTable(w io.Writer, r *report) {
	dirty := ""
	if r.Dirty {
		dirty = " (with uncommitted changes)"
	}
	fmt.Fprintf(w, "old: %s (%.12s); new: %.12s%s; %d interleaved runs each; %s, %d CPUs; %s\n\n",
		r.Base, r.BaseRev, r.NewRev, dirty, r.Count, r.GoVersion, r.CPUs, r.Started.Format("2006-01-02 15:04 MST"))
	if len(r.Ported) > 0 {
		fmt.Fprintf(w, "the old build ran the new tree's %s (absent in it)\n\n", strings.Join(r.Ported, ", "))
	}
	if r.Burners > 0 {
		fmt.Fprintf(w, "%d CPU burners (busy loops) ran through the cases\n\n", r.Burners)
	}
	if r.FloodRate > 0 {
		fmt.Fprintf(w, "flood: floodbench -rate %d -duration %s\n\n", r.FloodRate, r.FloodDuration)
	}
	peer := r.Peer != ""
	if peer {
		how := ""
		if r.PeerStripped {
			how = ", run as a stripped copy (strip(1)), as ours is built -s -w"
		}
		fmt.Fprintf(w, "peer: %s%s\n\n", r.Peer, how)
		fmt.Fprintln(w, "| case | load at start → end | measure | old | new | new/old | peer | new/peer |")
		fmt.Fprintln(w, "|---|---|---|--:|--:|--:|--:|--:|")
	} else {
		fmt.Fprintln(w, "| case | load at start → end | measure | old | new | new/old |")
		fmt.Fprintln(w, "|---|---|---|--:|--:|--:|")
	}
	for _, c := range r.Cases {
		first := true
		label := ""
		row := func(measure, o, n, rt string) {
			name, load := "", ""
			if first {
				name = c.Name
				load = fmt.Sprintf("%.1f → %.1f", c.LoadStart[0], c.LoadEnd[0])
				first = false
			}
			fmt.Fprintf(w, "| %s | %s | %s | %s | %s | %s |", name, load, measure, o, n, rt)
			if peer {
				p, pr := "", ""
				if v, ok := c.PeerMedians[label]; ok {
					p, pr = human(v[0], unitOf(label)), fmtRatio(v[1])
				}
				fmt.Fprintf(w, " %s | %s |", p, pr)
			}
			fmt.Fprintln(w)
		}
		for _, m := range measures {
			v, ok := c.Medians[m.label]
			if !ok {
				continue
			}
			label = m.label
			o := "—"
			if c.HasOld && v[0] != 0 {
				o = human(v[0], m.unit)
			}
			row(m.label, o, human(v[1], m.unit), fmtRatio(v[2]))
		}
		if c.Target != nil {
			labels := targetLabels(c.Target)
			for i, v := range targetRows(c) {
				label = ""
				row(labels[i], v[0], v[1], "")
			}
		}
		if c.Error != "" {
			label = ""
			row("error", "", "", strings.ReplaceAll(c.Error, "|", "/"))
		}
	}
}

// wrapMain runs the command after "--" with this process's stdio and
// writes its wall time, CPU and peak RSS as JSON to the file named first
// (for a run inside tmux, whose processes are not our children).
func wrapMain(args []string) int {
	if len(args) < 3 || args[1] != "--" {
		fmt.Fprintln(os.Stderr, "usage: speed -wrap OUT -- command...")
		return 2
	}
	cmd := exec.Command(args[2], args[3:]...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	start := time.Now()
	err := cmd.Run()
	var ee *exec.ExitError
	if err != nil && !errors.As(err, &ee) {
		fmt.Fprintln(os.Stderr, "speed -wrap:", err)
		return 1
	}
	ps := cmd.ProcessState
	s := sample{Wall: time.Since(start).Seconds(), CPU: (ps.UserTime() + ps.SystemTime()).Seconds(), MaxRSS: float64(maxRSS(ps))}
	data, _ := json.Marshal(s)
	tmp := args[0] + ".tmp"
	if err := os.WriteFile(tmp, data, 0o600); err != nil {
		return 1
	}
	if err := os.Rename(tmp, args[0]); err != nil {
		return 1
	}
	return ps.ExitCode()
}
