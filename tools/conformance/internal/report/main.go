// Command report prints the table of a conformance run (tools/conformance/run.sh):
// one row per scenario and protocol version, with the checks passed,
// failed and warned, and the verdict against the baseline.
//
// Usage:
//
//	report -baseline tools/conformance/baseline.yml RUNS.tsv
//
// RUNS.tsv has one line per suite run: scenario, version, the suite's exit
// status and the run's output directory (which holds checks.json),
// separated by tabs. It exits 1 when any run failed (the suite's exit
// status was not 0), else 0.
package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"text/tabwriter"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// row is one scenario at one version.
type row struct {
	Scenario, Version string
	Exit              int
	Dir               string
	Passed, Failed    int
	Warnings          int
	HasChecks         bool
	Baselined         bool
}

// verdict says what the row means.
func (r row) verdict() string {
	bad := r.Failed + r.Warnings
	switch {
	case !r.HasChecks && r.Exit == 0:
		return "skipped (not applicable)"
	case !r.HasChecks:
		return "FAIL (no checks recorded)"
	case r.Exit == 0 && r.Passed+bad == 0 && r.Baselined:
		return "not exercised (baseline)"
	case r.Exit == 0 && r.Passed+bad == 0:
		return "not exercised"
	case r.Exit == 0 && bad == 0:
		return "pass"
	case r.Exit == 0 && r.Baselined:
		return "expected failure (baseline)"
	case r.Baselined && bad == 0:
		return "STALE baseline entry (now passes)"
	default:
		return "FAIL"
	}
}

func run(args []string, stdout, stderr io.Writer) int {
	flags := flag.NewFlagSet("report", flag.ContinueOnError)
	flags.SetOutput(stderr)
	baselinePath := flags.String("baseline", "", "the expected-failures file")
	if err := flags.Parse(args); err != nil || flags.NArg() != 1 {
		fmt.Fprintln(stderr, "usage: report -baseline FILE RUNS.tsv")
		return 2
	}
	baseline := map[string]bool{}
	if *baselinePath != "" {
		var err error
		if baseline, err = readBaseline(*baselinePath); err != nil {
			fmt.Fprintf(stderr, "report: %v\n", err)
			return 2
		}
	}
	rows, err := readRuns(flags.Arg(0), baseline)
	if err != nil {
		fmt.Fprintf(stderr, "report: %v\n", err)
		return 2
	}
	return printTable(stdout, rows)
}

// printTable writes the table and a summary; it returns 1 when a run
// failed.
func printTable(w io.Writer, rows []row) int {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "SCENARIO\tVERSION\tPASSED\tFAILED\tWARNINGS\tRESULT")
	counts := map[string]int{}
	status := 0
	for _, r := range rows {
		v := r.verdict()
		fmt.Fprintf(tw, "%s\t%s\t%d\t%d\t%d\t%s\n", r.Scenario, r.Version, r.Passed, r.Failed, r.Warnings, v)
		switch {
		case v == "pass":
			counts["pass"]++
		case strings.HasPrefix(v, "expected") || v == "not exercised (baseline)":
			counts["baseline"]++
		case strings.HasPrefix(v, "skipped") || v == "not exercised":
			counts["skipped"]++
		default:
			counts["fail"]++
		}
		if r.Exit != 0 {
			status = 1
		}
	}
	tw.Flush()
	fmt.Fprintf(w, "\n%d passed, %d failed (and %d expected failures from the baseline, %d not applicable or not exercised)\n",
		counts["pass"], counts["fail"], counts["baseline"], counts["skipped"])
	return status
}

// readRuns reads RUNS.tsv and each run's checks.
func readRuns(path string, baseline map[string]bool) ([]row, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("reading the runs: %w", err)
	}
	defer f.Close()
	var rows []row
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" {
			continue
		}
		fields := strings.Split(line, "\t")
		if len(fields) != 4 {
			return nil, fmt.Errorf("%s:%d: want 4 tab-separated fields, got %d", path, n, len(fields))
		}
		exit, err := strconv.Atoi(fields[2])
		if err != nil {
			return nil, fmt.Errorf("%s:%d: exit status %q: %w", path, n, fields[2], err)
		}
		r := row{Scenario: fields[0], Version: fields[1], Exit: exit, Dir: fields[3], Baselined: baseline[fields[0]]}
		if err := r.count(); err != nil {
			return nil, err
		}
		rows = append(rows, r)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("reading the runs: %w", err)
	}
	return rows, nil
}

// check is the part of a checks.json entry the table needs.
type check struct {
	ID     string `json:"id"`
	Status string `json:"status"`
}

// count finds the run's checks.json and counts its verdicts, each check id
// once at its most severe (as the suite's baseline does).
func (r *row) count() error {
	var found string
	err := filepath.WalkDir(r.Dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && d.Name() == "checks.json" {
			found = p
			return fs.SkipAll
		}
		return nil
	})
	if errors.Is(err, fs.ErrNotExist) || (err == nil && found == "") {
		return nil
	}
	if err != nil {
		return fmt.Errorf("looking for checks.json under %s: %w", r.Dir, err)
	}
	b, err := os.ReadFile(found)
	if err != nil {
		return fmt.Errorf("reading %s: %w", found, err)
	}
	var checks []check
	if err := json.Unmarshal(b, &checks); err != nil {
		return fmt.Errorf("reading %s: %w", found, err)
	}
	r.HasChecks = true
	severity := map[string]int{"SUCCESS": 1, "WARNING": 2, "FAILURE": 3}
	worst := map[string]string{}
	var order []string
	for _, c := range checks {
		if _, ok := severity[c.Status]; !ok {
			continue // INFO, SKIPPED
		}
		prev, seen := worst[c.ID]
		if !seen {
			order = append(order, c.ID)
		}
		if !seen || severity[c.Status] >= severity[prev] {
			worst[c.ID] = c.Status
		}
	}
	for _, id := range order {
		switch worst[id] {
		case "SUCCESS":
			r.Passed++
		case "WARNING":
			r.Warnings++
		case "FAILURE":
			r.Failed++
		}
	}
	return nil
}

// readBaseline reads the scenario names of the client list of an
// expected-failures file: the "- name" items under "client:" (comments
// and per-check entries, "scenario:check", are understood).
func readBaseline(path string) (map[string]bool, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("reading the baseline: %w", err)
	}
	out := map[string]bool{}
	inClient := false
	for _, line := range strings.Split(string(b), "\n") {
		if i := strings.Index(line, "#"); i >= 0 {
			line = line[:i]
		}
		if strings.TrimSpace(line) == "" {
			continue
		}
		if !strings.HasPrefix(line, " ") && !strings.HasPrefix(line, "-") {
			inClient = strings.TrimSpace(line) == "client:"
			continue
		}
		item, ok := strings.CutPrefix(strings.TrimSpace(line), "- ")
		if !inClient || !ok {
			continue
		}
		name := strings.Trim(strings.TrimSpace(item), `"'`)
		if scenario, _, per := strings.Cut(name, ":"); per {
			name = scenario
		}
		out[name] = true
	}
	return out, nil
}
