package rules

import (
	"fmt"
	"os"
	"strings"
	"testing"
)

// Every rule is well-formed: a known group, level and era range, text and
// a fix, and a unique id.
func TestRuleTable(t *testing.T) {
	seen := map[string]bool{}
	for _, r := range All() {
		if seen[r.ID] || r.Text == "" || r.Fix == "" || r.Section == "" || r.Level < Must || r.Level > Robustness {
			t.Errorf("rule %+v", r)
		}
		seen[r.ID] = true
		if r.Until != "" && r.Until < r.Since {
			t.Errorf("%s: era range %s", r.ID, r.EraRange())
		}
	}
	for _, e := range Eras {
		t.Logf("%s: %d rules", e, len(ForEra(e)))
	}
	t.Logf("all: %d", len(All()))
}

// Sections moved by 2026-07-28 resolve to its pages; older revisions keep
// theirs.
func TestSectionIn(t *testing.T) {
	for _, c := range []struct{ section, era, want string }{
		{"basic/utilities/progress", "2025-11-25", "basic/utilities/progress"},
		{"basic/utilities/progress", "2026-07-28", "basic/patterns/progress"},
		{"basic/lifecycle#discovery", "2026-07-28", "server/discover"},
		{"basic/transports#stdio", "2026-07-28", "basic/transports/stdio"},
		{"server/tools#tool", "2026-07-28", "server/tools#tool"},
	} {
		if got := (Rule{Section: c.section}).SectionIn(c.era); got != c.want {
			t.Errorf("%s on %s: %s, want %s", c.section, c.era, got, c.want)
		}
	}
}

// The check page (docs/check.md) states the rule table's counts: all rules,
// per era and the Live ones; they follow the rule table.
func TestReadmeCounts(t *testing.T) {
	b, err := os.ReadFile("../../../docs/check.md")
	if err != nil {
		t.Fatalf("the check page: %v", err)
	}
	text := strings.Join(strings.Fields(string(b)), " ")
	want := map[string]int{fmt.Sprintf("%d rules in `internal/check/rules`", len(All())): 1}
	live := 0
	for _, r := range All() {
		if r.Live {
			live++
		}
	}
	want[fmt.Sprintf("the %d marked Live", live)] = 1
	for _, e := range Eras {
		want[fmt.Sprintf("%d on %s", len(ForEra(e)), e)] = 1
	}
	for phrase := range want {
		if !strings.Contains(text, phrase) {
			t.Errorf("docs/check.md does not say %q", phrase)
		}
	}
}

// An extension's section is addressed on the extension's site.
func TestExtensionURL(t *testing.T) {
	r, _ := Get("tasks.unknown-task")
	if got := r.URL("2026-07-28"); got != "https://modelcontextprotocol.github.io/ext-tasks/specification/2026-07-28/tasks#protocol-errors" {
		t.Errorf("URL %s", got)
	}
}
