package rules

import "testing"

// The number of rules on each era (docs/check.md states
// them): a rule added or dropped changes one here on purpose.
func TestRulesPerEra(t *testing.T) {
	want := map[string]int{"2024-11-05": 73, "2025-03-26": 76, "2025-06-18": 90, "2025-11-25": 96, "2026-07-28": 112}
	for _, e := range Eras {
		if got := len(ForEra(e)); got != want[e] {
			t.Errorf("%s: %d rules, want %d", e, got, want[e])
		}
	}
	if got := len(All()); got != 142 {
		t.Errorf("%d rules in all, want 142", got)
	}
}
