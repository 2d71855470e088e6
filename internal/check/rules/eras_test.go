package rules

import "testing"

// The number of rules on each era (docs/check.md states
// them): a rule added or dropped changes one here on purpose.
func TestRulesPerEra(t *testing.T) {
	want := map[string]int{"2024-11-05": 79, "2025-03-26": 82, "2025-06-18": 96, "2025-11-25": 102, "2026-07-28": 125}
	for _, e := range Eras {
		if got := len(ForEra(e)); got != want[e] {
			t.Errorf("%s: %d rules, want %d", e, got, want[e])
		}
	}
	if got := len(All()); got != 155 {
		t.Errorf("%d rules in all, want 155", got)
	}
}
