package main

import (
	"bufio"
	"bytes"
	"fmt"
	"os/exec"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// Budgets of the heap the package initializers allocate before main runs
// (GODEBUG=inittrace=1), which every run pays, --version as much as the
// inspector. What is heavy and rarely used (regular expressions of the
// checks, redaction and the doctor, tables of patterns) is built on first
// use (sync.OnceValue), not at start.
const (
	// ownInitBudget is for this module's packages: about 32 KiB when the
	// budget was last set (internal/record's and internal/cli's tables
	// most of it); 64 KiB when the check rules' table was put together
	// at init, 650 KiB when the regular expressions were compiled at init.
	ownInitBudget = 48 << 10
	// totalInitBudget is for every package linked in: about 0.5 MiB when
	// set; 2.2 MiB while santhosh-tekuri/jsonschema compiled its
	// metaschemas in its init (third_party/jsonschema compiles them on
	// first use). A new dependency that does heavy work at init shows here.
	totalInitBudget = 1 << 20
)

type initCost struct {
	pkg    string
	bytes  int
	allocs int
}

// initCosts parses the "init PKG @0.1 ms, 0.2 ms clock, 123 bytes, 4 allocs"
// lines of GODEBUG=inittrace=1.
func initCosts(t *testing.T, trace []byte) []initCost {
	t.Helper()
	var out []initCost
	sc := bufio.NewScanner(bytes.NewReader(trace))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) != 11 || f[0] != "init" || f[8] != "bytes," || f[10] != "allocs" {
			continue
		}
		b, err1 := strconv.Atoi(f[7])
		a, err2 := strconv.Atoi(f[9])
		if err1 != nil || err2 != nil {
			t.Fatalf("unparsable inittrace line %q", sc.Text())
		}
		out = append(out, initCost{f[1], b, a})
	}
	if len(out) == 0 {
		t.Fatalf("no inittrace lines in:\n%s", trace)
	}
	return out
}

func heaviest(costs []initCost, n int) string {
	costs = append([]initCost(nil), costs...)
	sort.Slice(costs, func(i, j int) bool { return costs[i].bytes > costs[j].bytes })
	var b strings.Builder
	for i, c := range costs {
		if i == n {
			break
		}
		fmt.Fprintf(&b, "\n  %8d bytes %6d allocs  %s", c.bytes, c.allocs, c.pkg)
	}
	return b.String()
}

// TestInitAllocationBudget runs the real binary with GODEBUG=inittrace=1
// and fails when its package initializers allocate more than the budgets.
func TestInitAllocationBudget(t *testing.T) {
	bin := mcptuiBinary(t)
	cmd := exec.Command(bin, "--version")
	cmd.Env = append(cmd.Environ(), "GODEBUG=inittrace=1")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("mcptui --version: %v\n%s", err, stderr.Bytes())
	}
	costs := initCosts(t, stderr.Bytes())
	var own, total int
	var ours []initCost
	for _, c := range costs {
		total += c.bytes
		if c.pkg == modulePath || strings.HasPrefix(c.pkg, modulePath+"/") {
			own += c.bytes
			ours = append(ours, c)
		}
	}
	t.Logf("init allocations: %d bytes in this module's packages, %d in all", own, total)
	if own > ownInitBudget {
		t.Errorf("this module's package initializers allocate %d bytes, over the budget of %d: build what they build on first use (sync.OnceValue); the heaviest:%s",
			own, ownInitBudget, heaviest(ours, 8))
	}
	if total > totalInitBudget {
		t.Errorf("package initializers allocate %d bytes, over the budget of %d; the heaviest:%s",
			total, totalInitBudget, heaviest(costs, 8))
	}
}
