package ui

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/mcptui/mcptui/internal/testkit/uitest"
	"github.com/mcptui/mcptui/model"
	"github.com/mcptui/mcptui/ui/kit"
	"github.com/mcptui/mcptui/ui/viewer"
)

// sgr matches the only escape sequences the program itself draws with.
var sgr = regexp.MustCompile(`\x1b\[[0-9;:]*m`)

// checkOnlySGR fails when a frame carries anything but text, newlines and
// SGR styling: no cursor movement, OSC (title, clipboard, hyperlink), C1
// control, or bidi override from the server.
func checkOnlySGR(t *testing.T, frame string) {
	t.Helper()
	rest := sgr.ReplaceAllString(frame, "")
	for i, r := range rest {
		switch {
		case r == '\n':
		case r < 0x20, r == 0x7f, r >= 0x80 && r <= 0x9f, r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069:
			start := max(i-40, 0)
			t.Fatalf("frame carries %U near %q", r, rest[start:min(i+40, len(rest))])
		}
	}
}

// graphemes are emoji ZWJ sequences, VS16 after text-default characters,
// a skin tone, a keycap and a Thai spacing mark: each measured one way as a
// grapheme cluster and another code point by code point.
const graphemes = "family 👨\u200d👩\u200d👧 heart ❤\ufe0f smile ☺\ufe0f thumb 👍🏽 key 1\ufe0f\u20e3 thai กำลัง end"

// hostileEvents puts escape sequences, C1 controls and bidi overrides in
// every place a server controls.
func hostileEvents() []model.Event {
	evil := `\u001b[2J\u001b[H\u001b]0;pwned\u0007\u001b]52;c;cm0gLXJmIC8=\u0007\u001b]8;;https://evil\u001b\\click\u001b]8;;\u001b\\\u009b31m\u202eexe.txt`
	evs := uitest.Session()
	evs = append(evs,
		model.Ready{Stamp: model.Stamp{Time: uitest.At(1)}, ServerName: "srv\x1b[2J", ServerVersion: "1\x07", Protocol: "2025-11-25\x1b]0;t\x07"},
		model.Stderr{Stamp: model.Stamp{Time: uitest.At(29)}, Line: "\x1b[2J\x1b]52;c;AAAA\x07\u009b1m\u202eboom\r\n"},
		model.Wire{Stamp: model.Stamp{Time: uitest.At(29)}, Dir: model.In, Line: []byte("\x1b[2Jnot json\x07"), Size: 14, Discarded: true, Reason: "not JSON \x1b[5m"},
		// Clusters terminals without mode 2027 (tmux 3.3) draw wider or
		// narrower than grapheme widths say.
		model.Stderr{Stamp: model.Stamp{Time: uitest.At(29)}, Line: graphemes},
	)
	for i, line := range []string{
		`{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"` + graphemes + `"}}`,
		`{"jsonrpc":"2.0","id":"` + evil + `","method":"tools/call","params":{"name":"` + evil + `"}}`,
		`{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"` + evil + `","data":"` + evil + `"}}`,
		`{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":4,"progress":5,"total":10,"message":"` + evil + `"}}`,
	} {
		evs = append(evs, model.Wire{Stamp: model.Stamp{Time: uitest.At(29 + float64(i)/10)}, Dir: model.In, Line: []byte(line), Size: len(line)})
	}
	params := `{"message":"` + evil + `","requestedSchema":{"type":"object","properties":{"` + evil + `":{"type":"string","default":"` + evil + `"}}}}`
	evs = append(evs, model.QuestionAsked{Stamp: model.Stamp{Time: uitest.At(29.5)}, RequestID: []byte(`"` + evil + `"`), Method: "elicitation/create", Params: []byte(params)})
	return evs
}

func TestHostileServerLeavesTheScreenIntact(t *testing.T) {
	for _, size := range [][2]int{{100, 30}, {160, 48}} {
		m, _ := newTest(t, size[0], size[1], hostileEvents()...)
		frames := map[string]string{"panes": m.render()}
		// Every pane zoomed, with its last row selected, then every overlay.
		for p := range paneCount {
			m.focus, m.zoom = p, true
			frames[fmt.Sprintf("pane %d", p)] = m.render()
		}
		m.zoom = false
		press(m, "2", "G")
		frames["pending detail"] = m.render()
		press(m, "e")
		frames["editor"] = m.render()
		press(m, "esc", "x")
		frames["reject"] = m.render()
		press(m, "esc", "o")
		frames["params viewer"] = m.render()
		press(m, "esc", "3", "G", "enter")
		frames["traffic viewer"] = m.render()
		for name, f := range frames {
			t.Run(fmt.Sprintf("%dx%d %s", size[0], size[1], name), func(t *testing.T) {
				checkOnlySGR(t, f)
				for i, l := range strings.Split(f, "\n") {
					if w := lineWidth(l); w != size[0] {
						t.Errorf("line %d is %d cells wide, want %d: %q", i, w, size[0], l)
					}
					// As tmux without mode 2027 draws it, too.
					if w := ansi.StringWidthWc(l); w != size[0] {
						t.Errorf("line %d is %d cells wide code point by code point, want %d: %q", i, w, size[0], l)
					}
				}
			})
		}
		if v := m.View(); strings.ContainsAny(v.WindowTitle, "\x1b\x07") {
			t.Errorf("window title %q", v.WindowTitle)
		}
	}
}

func TestEditorKeepsServerTextInert(t *testing.T) {
	q := &model.Question{Kind: model.AskElicitForm}
	got := kit.JSONSafe("{\"a\": \"x\u202ey\U000E0041\"}")
	if got != `{"a": "x\u202ey\udb40\udc41"}` {
		t.Errorf("JSONSafe = %s", got)
	}
	if err := model.ValidateAnswer(q, []byte(`{"action":"decline"}`)); err != nil {
		t.Fatal(err)
	}
}

func TestViewerFormatsOnlyWhatIsVisible(t *testing.T) {
	// An array of 300,000 elements on one line: opening it must not
	// format them all.
	var b strings.Builder
	b.WriteString(`{"jsonrpc":"2.0","id":1,"result":{"items":[`)
	for i := range 300_000 {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, "%d", i)
	}
	b.WriteString(`]}}`)
	line := b.String()
	m, _ := newTest(t, 100, 30, model.Wire{Stamp: model.Stamp{Time: uitest.At(1)}, Dir: model.In, Line: []byte(line), Size: len(line)})
	press(m, "3", "enter")
	_ = m.render()
	if n := topAs[*viewer.Viewer[*Model]](m).LinesRead(); n > 30 {
		t.Errorf("opening formatted %d lines for a 26-line view", n)
	}
	press(m, "j", "j", "j")
	_ = m.render()
	if n := topAs[*viewer.Viewer[*Model]](m).LinesRead(); n > 33 {
		t.Errorf("scrolling 3 lines formatted %d lines", n)
	}
	if !strings.Contains(screen(m), "line 4 of ") || !strings.Contains(screen(m), "+") {
		t.Errorf("position line:\n%s", screen(m))
	}
	press(m, "G")
	if !strings.Contains(screen(m), "299999") {
		t.Errorf("G did not reach the end:\n%s", screen(m))
	}
}

func TestTrafficDrawsOnlyVisibleRows(t *testing.T) {
	m, _ := newTest(t, 100, 30)
	evs := make([]model.Event, 0, 100000)
	for i := range 100000 {
		line := fmt.Sprintf(`{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"n %d"}}`, i)
		evs = append(evs, model.Wire{Stamp: model.Stamp{Time: uitest.At(1)}, Dir: model.In, Line: []byte(line), Size: len(line)})
	}
	m.Update(EventsMsg{Events: evs})
	m.focus = paneTraffic
	body := m.drawTraffic(98, 10)
	if len(body) != 10 || !strings.Contains(strings.Join(body, "\n"), "n 99999") {
		t.Errorf("last rows not shown: %q", body)
	}
	// The filter is kept up to date incrementally as lines arrive.
	m.traffic.setFilter("1999", m.sess.History())
	want := 0
	for i := range 100000 {
		if strings.Contains(fmt.Sprint(i), "1999") {
			want++
		}
	}
	if n := m.traffic.len(m.sess.History()); n != want {
		t.Errorf("%d matches, want %d", n, want)
	}
	m.Update(EventsMsg{Events: []model.Event{model.Wire{Stamp: model.Stamp{Time: uitest.At(2)}, Dir: model.In, Line: []byte(`{"jsonrpc":"2.0","method":"x","params":{"data":"n 1999 again"}}`), Size: 60}}})
	if n := m.traffic.len(m.sess.History()); n != want+1 {
		t.Errorf("%d matches after one more line", n)
	}
}

func TestEvictionKeepsTheSelection(t *testing.T) {
	fb := uitest.New()
	m := New(Options{Backend: fb, Now: now, Tick: -1, Theme: "dark", NoBell: true, Session: model.New(model.Config{HistoryBytes: 16 << 10})})
	m.Update(tea.WindowSizeMsg{Width: 100, Height: 30})
	push := func(from, n int) {
		evs := make([]model.Event, n)
		for i := range n {
			line := fmt.Sprintf(`{"jsonrpc":"2.0","method":"m","params":{"i":%d}}`, from+i)
			evs[i] = model.Wire{Stamp: model.Stamp{Time: uitest.At(1)}, Dir: model.In, Line: []byte(line), Size: len(line)}
		}
		m.Update(EventsMsg{Events: evs})
	}
	push(0, 100)
	press(m, "3", "k", "k")
	sel := m.selectedEntry().Seq
	push(100, 30) // evicts some of the oldest, not the selected one
	if m.sess.History().Evicted() == 0 {
		t.Fatal("nothing evicted")
	}
	if got := m.selectedEntry(); got == nil || got.Seq != sel {
		t.Errorf("selection moved from #%d to %+v", sel, got)
	}
	if !strings.Contains(screen(m), "older lines evicted") {
		t.Errorf("eviction not shown:\n%s", screen(m))
	}
}

func lineWidth(s string) int { return ansi.StringWidth(s) }
