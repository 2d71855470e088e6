package catalog

import (
	"strconv"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// TestFilterStartsFresh: / opens the filter with the old text selected:
// typing replaces it (it appended: "/ slowlog" after "sum" filtered on
// "sumslowlog" and nothing matched); an arrow keeps it to edit.
func TestFilterStartsFresh(t *testing.T) {
	m := newTest(t, newFake("everything"), nil)
	press(m, "/")
	typeIn(m, "sum")
	press(m, "enter")
	if got := m.filters[Tools]; got != "sum" {
		t.Fatalf("filter %q; want sum", got)
	}
	press(m, "/")
	typeIn(m, "echo")
	if got := m.filters[Tools]; got != "echo" {
		t.Errorf("filter %q after / and typing; want echo (a fresh filter)", got)
	}
	mustContain(t, m, "echo")
	press(m, "enter", "/", "right")
	typeIn(m, "x")
	if got := m.filters[Tools]; got != "echox" {
		t.Errorf("filter %q after / → and typing; want echox (the arrow keeps it)", got)
	}
}

// TestLongListSaysItGoesOn: a list longer than its room ends with the
// cursor's place and arrows where it goes on (22 tools showed as 10 with
// no sign of more).
func TestLongListSaysItGoesOn(t *testing.T) {
	m := newTest(t, newFake("everything"), nil)
	n := m.lists[Tools].rows("").len()
	lastRow := func() string {
		lines := m.listView(40, 10)
		return strings.TrimSpace(ansi.Strip(lines[len(lines)-1]))
	}
	if got, want := lastRow(), "1/"+itoa(n)+" ↓"; got != want {
		t.Errorf("at the top: %q; want %q", got, want)
	}
	for range 12 {
		press(m, "down")
	}
	if got, want := lastRow(), "↑ 13/"+itoa(n)+" ↓"; n > 13+1 && got != want {
		t.Errorf("in the middle: %q; want %q", got, want)
	}
	press(m, "G")
	if got, want := lastRow(), "↑ "+itoa(n)+"/"+itoa(n); got != want {
		t.Errorf("at the bottom: %q; want %q", got, want)
	}
	if lines := m.listView(40, n+2); strings.Contains(ansi.Strip(strings.Join(lines, "\n")), "/"+itoa(n)) {
		t.Errorf("a list that fits says where it goes on:\n%s", strings.Join(lines, "\n"))
	}
}

func itoa(n int) string { return strconv.Itoa(n) }

// TestCatalogKeyCostIsTheScreen: on a list of 20,000 tools a key and its
// frame look at the rows on the screen, not at the list (a Down press
// rebuilt and lowercased the whole filtered list, ~344 ms at 50,000
// tools): moving makes only the visible rows, a keystroke that extends
// the filter searches the previous matches only, a backspace searches
// nothing. It counts the items looked at, not time.
func TestCatalogKeyCostIsTheScreen(t *testing.T) {
	const n = 20_000
	m := bigCatalog(t, n)
	l := m.lists[Tools]
	screen(m)
	do := func(keys ...string) {
		for _, k := range keys {
			if len(k) == 1 && m.filtering {
				typeIn(m, k)
			} else {
				press(m, k)
			}
		}
	}
	// cost is what keys and the frame after them looked at.
	cost := func(keys ...string) (probes, made int) {
		p0, m0 := l.probes, l.made
		do(keys...)
		screen(m)
		return l.probes - p0, l.made - m0
	}
	// The screen is 40 lines: at most that many rows are made a frame
	// (the current one besides).
	const screenRows = 2 * 40
	for _, k := range []string{"down", "down", "up", "pgdown", "G", "home"} {
		if p, made := cost(k); p != 0 || made > screenRows {
			t.Errorf("%s on %d tools looked at %d items and made %d rows; want 0 and at most %d", k, n, p, made, screenRows)
		}
	}
	do("/")
	if p, _ := cost("t"); p != n {
		t.Errorf("the first letter of the filter looked at %d items; want all %d", p, n)
	}
	cost("o", "o", "l", "_", "1")
	prev := l.rows(m.filters[Tools]).len() // tool_1xxxx: half
	if p, made := cost("2"); p > prev || made > screenRows {
		t.Errorf("a letter extending the filter looked at %d items (the previous filter matched %d) and made %d rows", p, prev, made)
	}
	if p, made := cost("backspace"); p != 0 || made > screenRows {
		t.Errorf("backspace looked at %d items and made %d rows; want 0 (the shorter filter's rows are kept)", p, made)
	}
	do("enter")
	for _, k := range []string{"down", "down", "G"} {
		if p, made := cost(k); p != 0 || made > screenRows {
			t.Errorf("%s in the filtered list looked at %d items and made %d rows", k, p, made)
		}
	}
	if got, want := m.filters[Tools], "tool_1"; got != want {
		t.Fatalf("filter %q; want %q", got, want)
	}
	mustContain(t, m, "tool_19999", "(10000 shown)")
}

// TestIncrementalFilterMatchesAFreshOne: the rows a filter reaches by
// extending, shortening and editing earlier filters are the rows a fresh
// listing gives it, in the same order (ranks, then the removed ones).
func TestIncrementalFilterMatchesAFreshOne(t *testing.T) {
	f := newFake("everything")
	m := newTest(t, f, nil)
	l := m.lists[Tools]
	// Some removed rows too: a refresh without the first three tools.
	f.tools = f.tools[3:]
	feed(m, m.refresh(Tools)())
	if len(l.removed) != 3 {
		t.Fatalf("%d removed", len(l.removed))
	}
	// fresh is the rows as the catalog ranked them before it kept
	// anything: every item looked at, ranked, the removed after the items
	// of each rank.
	fresh := func(filter string) []string {
		f := strings.ToLower(strings.TrimSpace(filter))
		rank := func(it item) int {
			name := strings.ToLower(it.name)
			switch {
			case f == "":
				return 0
			case name == f || strings.ToLower(it.key) == f:
				return 0
			case strings.HasPrefix(name, f):
				return 1
			case strings.Contains(name, f):
				return 2
			}
			for _, s := range []string{it.title, it.desc, it.key} {
				if strings.Contains(strings.ToLower(s), f) {
					return 3
				}
			}
			return -1
		}
		var out []string
		for r := 0; r <= 3; r++ {
			for _, it := range l.items {
				if rank(it) == r {
					out = append(out, it.key)
				}
			}
			for _, it := range l.removed {
				if rank(it) == r {
					out = append(out, it.key+" (removed)")
				}
			}
			if f == "" {
				break
			}
		}
		return out
	}
	for _, filter := range []string{"g", "ge", "get", "get-", "get", "ge", "e", "es", "ESS", "ess ", "essage", "", "s", "st", "str", "struct", "st", "ru", "re", "res", "resource", "zzz", "z", "o"} {
		v := l.rows(filter)
		var got []string
		for i := range v.len() {
			r := v.at(i)
			got = append(got, r.it.key+map[bool]string{true: " (removed)"}[r.removed])
		}
		if want := fresh(filter); strings.Join(got, ",") != strings.Join(want, ",") {
			t.Errorf("filter %q:\n got %v\nwant %v", filter, got, want)
		}
	}
}
