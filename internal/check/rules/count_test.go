package rules

import "testing"

// Every rule is well-formed: a known group, level and era range, text and
// a fix, and a unique id.
func TestCatalogue(t *testing.T) {
	seen := map[string]bool{}
	for _, r := range All() {
		if seen[r.ID] || r.Text == "" || r.Fix == "" || r.Section == "" || r.Level < Must || r.Level > Practice {
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
