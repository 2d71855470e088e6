package rules

import (
	"os"
	"slices"
	"strings"
	"testing"
)

// CITATIONS.md, written by tools/speccheck from the specification's text,
// is in step with the rule table: the same rules, revisions, sections and
// keywords, row for row, and every citation the checker could read was
// confirmed. (It needs neither the network nor the specification: a rule
// changed without running tools/speccheck fails here.)
func TestCitationsInStep(t *testing.T) {
	b, err := os.ReadFile(CitationsFile)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for ln := range strings.SplitSeq(string(b), "\n") {
		if !strings.HasPrefix(ln, "| `") {
			continue
		}
		// The row without its result (the last cell).
		cut := strings.LastIndex(strings.TrimSuffix(ln, " |"), " | ")
		got = append(got, ln[:cut+2])
		if res := ln[cut+3:]; strings.HasPrefix(res, "✗") {
			t.Errorf("not confirmed: %s", ln)
		}
	}
	var want []string
	for _, r := range All() {
		for _, c := range r.Cites() {
			want = append(want, c.Row(r))
		}
	}
	slices.Sort(got)
	slices.Sort(want)
	for _, w := range want {
		if _, ok := slices.BinarySearch(got, w); !ok {
			t.Errorf("no row %s (run tools/speccheck: see its doc)", w)
		}
	}
	for _, g := range got {
		if _, ok := slices.BinarySearch(want, g); !ok {
			t.Errorf("stale row %s", g)
		}
	}
	if len(got) != len(want) {
		t.Errorf("%d rows, want %d", len(got), len(want))
	}
}

// Every MUST and SHOULD rule cites MCP text; robustness ones cite none
// of it as a MUST or SHOULD.
func TestCitationKeywords(t *testing.T) {
	for _, r := range All() {
		for _, c := range r.Cites() {
			switch {
			case r.Level == Robustness && (c.Keyword != "" || c.Era != "" && !strings.Contains(r.Section, "/")):
				t.Errorf("%s: robustness cited as %+v", r.ID, c)
			case (r.Level == Must || r.Level == Should) && c.Keyword == "":
				t.Errorf("%s: %s without a keyword: %+v", r.ID, r.Level, c)
			}
		}
	}
}
