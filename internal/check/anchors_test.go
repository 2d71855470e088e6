package check

import (
	"os"
	"strings"
	"testing"

	"github.com/mcptui/mcptui/internal/check/rules"
)

// anchorTests is how many server tests @yawlabs/mcp-compliance 0.16.4 has
// for 2025-11-25.
const anchorTests = 88

// anchors.md maps every test of the anchor onto rules that exist and
// apply on 2025-11-25; a test mapped onto none says why.
func TestAnchorMapping(t *testing.T) {
	b, err := os.ReadFile("anchors.md")
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	status := map[string]int{}
	for _, line := range strings.Split(string(b), "\n") {
		if !strings.HasPrefix(line, "| ") || strings.HasPrefix(line, "| anchor test") || strings.HasPrefix(line, "| ---") {
			continue
		}
		cells := strings.Split(strings.Trim(line, "| "), " | ")
		if len(cells) < 3 {
			t.Errorf("a row without test, rules and status: %q", line)
			continue
		}
		test, ruleCell, st := cells[0], cells[1], cells[2]
		note := ""
		if len(cells) > 3 {
			note = cells[3]
		}
		if seen[test] {
			t.Errorf("%s is mapped twice", test)
		}
		seen[test] = true
		status[st]++
		var ids []string
		if ruleCell != "—" {
			for _, id := range strings.Split(ruleCell, ", ") {
				ids = append(ids, strings.Trim(id, "`"))
			}
		}
		switch st {
		case "covered", "wider":
			if len(ids) == 0 {
				t.Errorf("%s is %s by no rule", test, st)
			}
		case "not covered", "rules26":
			if len(ids) != 0 || note == "" {
				t.Errorf("%s is %s: it names rules %v or gives no reason", test, st, ids)
			}
		default:
			t.Errorf("%s: unknown status %q", test, st)
		}
		for _, id := range ids {
			r, ok := rules.Get(id)
			if !ok {
				t.Errorf("%s: no rule %s", test, id)
			} else if !r.Applies("2025-11-25") {
				t.Errorf("%s: rule %s does not apply on 2025-11-25 (%s)", test, id, r.EraRange())
			}
		}
	}
	if len(seen) != anchorTests {
		t.Errorf("%d anchor tests mapped, want %d", len(seen), anchorTests)
	}
	t.Logf("anchor tests: %v", status)
}
