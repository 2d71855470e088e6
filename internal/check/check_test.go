package check

import (
	"context"
	"encoding/json"
	"os"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcptui/mcptui/conn"
	"github.com/mcptui/mcptui/internal/check/rules"
	"github.com/mcptui/mcptui/internal/testkit/racechild"
	"github.com/mcptui/mcptui/internal/testkit/surfaceserver"
	"github.com/mcptui/mcptui/internal/testkit/waitbound"
	"github.com/mcptui/mcptui/mcp"
)

func TestMain(m *testing.M) {
	surfaceserver.Main() // the host rules' scripted servers
	if kind := os.Getenv(hostileEnv); kind != "" {
		runHostile(kind)
		os.Exit(0)
	}
	if rule := os.Getenv(zooEnv); rule != "" {
		runZoo(rule)
		os.Exit(0)
	}
	racechild.NoExitSleep() // the servers this binary starts are itself
	// Its tests wait on their servers: a silent one's timeout, the
	// demo's slow tool cancelled after 5 s, at every era.
	waitbound.Parallel(8)
	os.Exit(m.Run())
}

// declineAll answers every question with a refusal (an elicitation is
// declined), so that the capabilities are declared.
var declineAll = mcp.AnswerFunc(func(ctx context.Context, q *mcp.Question) (json.RawMessage, error) {
	if q.Method == mcp.MethodElicit {
		return json.RawMessage(`{"action":"decline"}`), nil
	}
	return nil, &mcp.Error{Code: -1, Message: "declined by the test"}
})

// zooOptions checks the zoo server that breaks rule (or the plain demo
// for "demo") on era.
func zooOptions(rule, era string) Options {
	name := "MCPTUI_CHECK_ZOO"
	value := rule
	return Options{
		Command: os.Args[0], Args: []string{"-test.run=^$"},
		Conn: conn.Options{Env: []conn.EnvVar{{Name: name, Value: &value}}},
		Era:  era, Timeout: 30 * time.Second, // generous: under -race on a busy machine a demo call can take seconds
		Sampling: declineAll, ElicitForm: declineAll, ElicitURL: declineAll, Roots: declineAll,
	}
}

func runCheck(t *testing.T, o Options) *EraReport {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	rep := Run(ctx, o)
	if rep.Error != "" || len(rep.Eras) != 1 {
		t.Fatalf("check: %s (%d eras)", rep.Error, len(rep.Eras))
	}
	return &rep.Eras[0]
}

func resultOf(e *EraReport, id string) *Result {
	for i := range e.Results {
		if e.Results[i].ID == id {
			return &e.Results[i]
		}
	}
	return nil
}

// demoEras are the revisions the demo speaks.
var demoEras = []string{"2026-07-28", "2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"}

// TestDemoPassesEveryRule: the demo server fails no rule of any era it
// speaks, and each rule the zoo breaks is judged (passed) on it.
func TestDemoPassesEveryRule(t *testing.T) {
	t.Parallel()
	for _, era := range demoEras {
		t.Run(era, func(t *testing.T) {
			t.Parallel()
			o := zooOptions("demo", era)
			o.ExitBound = time.Minute // the demo under -race on a busy machine
			e := runCheck(t, o)
			for _, res := range e.Results {
				switch {
				case res.Status == Failed:
					t.Errorf("%s failed on the demo: %v", res.ID, res.Seen)
				case res.Status == Skipped && zooMutations[res.ID].era == era && !needsCallTools(res.ID) && !demoDeclaresAll[res.ID] && !extensionRule(res.ID):
					t.Errorf("%s was not judged on the demo (%s), yet the zoo tests it on %s", res.ID, res.Why, era)
				}
			}
		})
	}
}

// demoDeclaresAll are rules the demo cannot exercise: it declares every
// capability, so no method is undeclared.
var demoDeclaresAll = map[string]bool{"capabilities.undeclared-methods": true}

func needsCallTools(id string) bool { return zooMutations[id].callTools }

// TestZooBreaksEachRule: every rule has a broken server in the zoo, the
// rule fails on it, and (TestDemoPassesEveryRule) passes on the demo.
func TestZooBreaksEachRule(t *testing.T) {
	t.Parallel()
	var ids []string
	for _, r := range rules.All() {
		if r.Group == "http" {
			continue // an HTTP endpoint's rules: TestHTTPRules breaks each
		}
		ids = append(ids, r.ID)
		if _, ok := zooMutations[r.ID]; !ok {
			t.Errorf("rule %s has no broken server in the zoo", r.ID)
		}
	}
	sort.Strings(ids)
	// The checks mostly wait on their servers: run them 8 at a time
	// whatever -test.parallel says, then judge each in its own subtest.
	reports := make(map[string]*Report, len(ids))
	var lock sync.Mutex
	var wg sync.WaitGroup
	sem := make(chan struct{}, 8)
	for _, id := range ids {
		mu, ok := zooMutations[id]
		if !ok {
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			o := zooOptions(id, mu.era)
			o.Rules = []string{id}
			o.CallTools = mu.callTools
			if mu.noRoots {
				o.Roots = nil
			}
			if mu.noURL {
				o.ElicitURL = nil
			}
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()
			rep := Run(ctx, o)
			lock.Lock()
			reports[id] = rep
			lock.Unlock()
		}()
	}
	wg.Wait()
	for _, id := range ids {
		mu, ok := zooMutations[id]
		if !ok {
			continue
		}
		t.Run(id, func(t *testing.T) {
			rule, _ := rules.Get(id)
			if !rule.Applies(mu.era) || !slices.Contains(demoEras, mu.era) {
				t.Fatalf("the zoo tests %s on %s, where it does not apply (%s)", id, mu.era, rule.EraRange())
			}
			rep := reports[id]
			if rep.Error != "" || len(rep.Eras) != 1 {
				t.Fatalf("check: %s (%d eras)", rep.Error, len(rep.Eras))
			}
			t.Logf("checked in %d ms", rep.Millis)
			res := resultOf(&rep.Eras[0], id)
			if res == nil || res.Status != Failed {
				t.Fatalf("%s did not fail on its broken server: %+v", id, res)
			}
			if len(res.Seen) == 0 || strings.TrimSpace(res.Seen[0]) == "" {
				t.Errorf("%s failed without saying what was seen", id)
			}
		})
	}
}
