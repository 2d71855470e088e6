package explorer

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
	n := len(m.lists[Tools].rows(""))
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
