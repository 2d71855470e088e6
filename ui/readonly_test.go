package ui

import (
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/mcptui/mcptui/internal/backend"
	"github.com/mcptui/mcptui/internal/testkit/uitest"
	"github.com/mcptui/mcptui/model"
	"github.com/mcptui/mcptui/ui/viewer"
)

// newWatching is newTest's model, live or read-only.
func newWatching(t *testing.T, readOnly bool, w, h int, evs ...model.Event) (*Model, *uitest.Backend) {
	t.Helper()
	fb := uitest.New()
	m := New(Options{Backend: fb, Now: now, Tick: -1, Theme: "dark", NoBell: true, ReadOnly: readOnly,
		Session: model.New(model.Config{Timeout: 30 * time.Second})})
	m.Update(tea.WindowSizeMsg{Width: w, Height: h})
	if len(evs) > 0 {
		m.Update(EventsMsg{Events: evs})
	}
	return m, fb
}

// footerOf is the last row of the screen: the keys.
func footerOf(m *Model) string {
	rows := strings.Split(strings.TrimRight(screen(m), "\n"), "\n")
	return rows[len(rows)-1]
}

// TestReadOnlyFooterAndHelpLeaveOutSending: the same session, live and
// read-only, at 160 and 80 columns: live, the footer of pane 1 offers
// cancel, extend (where it fits) and a new request, and the help every
// sending key; read-only, neither names one, and both keep the viewing
// keys.
func TestReadOnlyFooterAndHelpLeaveOutSending(t *testing.T) {
	sending := []string{"c cancel", "+ extend", "n new request", "E catalog"}
	helpSending := []string{"cancel", "extend 60s", "new request", "restart server", "other version", "log level", "catalog"}
	for _, w := range []int{160, 80} {
		for _, readOnly := range []bool{false, true} {
			m, _ := newWatching(t, readOnly, w, 40, uitest.Session()...)
			foot := footerOf(m)
			for _, s := range sending {
				want := !readOnly && (w == 160 || s != "+ extend")
				if strings.Contains(foot, s) != want {
					t.Errorf("read-only %v at %d: footer has %q: %v, want %v\n%s", readOnly, w, s, !want, want, foot)
				}
			}
			if strings.Contains(foot, "•  ") {
				t.Errorf("read-only %v at %d: a separator with no key after it:\n%s", readOnly, w, foot)
			}
			for _, s := range []string{"enter outcome", "? help", "q quit"} {
				if !strings.Contains(foot, s) {
					t.Errorf("read-only %v at %d: footer lost %q\n%s", readOnly, w, s, foot)
				}
			}
			press(m, "?")
			help := screen(m)
			for _, s := range helpSending {
				if strings.Contains(help, s) == readOnly {
					t.Errorf("read-only %v at %d: help has %q: %v\n%s", readOnly, w, s, !readOnly, help)
				}
			}
			if !strings.Contains(help, "response") || !strings.Contains(help, "zoom") {
				t.Errorf("read-only %v at %d: help lost the viewing keys\n%s", readOnly, w, help)
			}
		}
	}
}

// TestReadOnlyPanesLeaveOutSending: the footers of the questions and the
// subscriptions, and the hint lines of empty panes, name no sending key
// when read-only.
func TestReadOnlyPanesLeaveOutSending(t *testing.T) {
	m, _ := newWatching(t, true, 160, 40, uitest.Session()...)
	press(m, "2")
	if s := screen(m); !strings.Contains(s, "2 Server asks ● 2 waiting ") || strings.Contains(s, "waiting for you") {
		t.Errorf("pane 2's title, read-only, does not say the questions wait for someone else:\n%s", s)
	}
	if foot := footerOf(m); strings.Contains(foot, "answer") || strings.Contains(foot, "reject") || strings.Contains(foot, "approve") ||
		strings.Contains(foot, "policies") || !strings.Contains(foot, "o open request") {
		t.Errorf("pane 2's footer, read-only:\n%s", foot)
	}
	press(m, "?")
	if help := screen(m); !strings.Contains(help, "┃ o open request") {
		t.Errorf("pane 2's help, read-only, pads for the keys it left out:\n%s", help)
	}
	press(m, "esc", "4")
	if foot := footerOf(m); strings.Contains(foot, "•  ") || strings.Contains(foot, "subscribe") || strings.Contains(foot, "close subscription") || !strings.Contains(foot, "open request") {
		t.Errorf("pane 4's footer, read-only:\n%s", foot)
	}
	for _, readOnly := range []bool{false, true} {
		empty, _ := newWatching(t, readOnly, 160, 40)
		s := screen(empty)
		hints := []string{"no requests yet: n composes one", "no subscriptions: s opens"}
		if readOnly {
			hints = []string{"no requests yet  ", "no subscriptions  "}
		}
		for _, h := range hints {
			if !strings.Contains(s, h) {
				t.Errorf("read-only %v: the empty panes do not say %q:\n%s", readOnly, h, s)
			}
		}
		// A recording that ends with the server gone, its log level set.
		stopped, _ := newWatching(t, readOnly, 160, 40, append(uitest.Session()[:8],
			model.LogLevelSet{Stamp: model.Stamp{Time: uitest.At(1)}, Level: "debug"},
			model.Exited{Stamp: model.Stamp{Time: uitest.At(2)}, Status: "exit status 1"})...)
		press(stopped, "7")
		s = screen(stopped)
		want := []string{"r restarts it · the traffic pane (3) shows", "(level debug; L changes it)"}
		if readOnly {
			want = []string{"   the traffic pane (3) shows", "(level debug)"}
		}
		for _, h := range want {
			if !strings.Contains(s, h) {
				t.Errorf("read-only %v: the stopped server's hints do not say %q:\n%s", readOnly, h, s)
			}
		}
		var doc strings.Builder
		for _, l := range stopped.serverLines(150) {
			doc.WriteString(l.text + "\n")
		}
		s = ansi.Strip(doc.String())
		level := map[bool]string{false: "debug (L changes it)", true: "debug  "}[readOnly]
		if !strings.Contains(s, level) {
			t.Errorf("read-only %v: the server view's log level is not %q:\n%s", readOnly, level, s)
		}
	}
}

// TestReadOnlyKeysSayWhyAndOpenNothing: read-only, every sending key where
// it works opens nothing, sends nothing and says the one sentence on the
// status line; the viewing keys that share a letter elsewhere (f follows
// in traffic) and the viewing keys of the same pane still work.
func TestReadOnlyKeysSayWhyAndOpenNothing(t *testing.T) {
	m, fb := newWatching(t, true, 160, 40, uitest.Session()...)
	refused := map[string][]string{
		"1": {"c", "+", "n", "r", "V", "L", "E", "6"},
		"2": {"enter", "a", "e", "x", "f", "p"},
		"4": {"s", "x"},
	}
	for _, p := range []string{"1", "2", "4"} {
		for _, k := range refused[p] {
			press(m, p)
			if p == "1" {
				press(m, "down") // an in-flight request of ours
			}
			cmd := press(m, k)
			run(t, m, cmd)
			if m.top() != nil || m.focus == paneCatalog {
				t.Errorf("pane %s, %s: opened overlay %T (focus %d)", p, k, m.top(), m.focus)
				m.overlays = nil
			}
			if m.notice != backend.ErrReadOnly.Error() || !m.noticeErr {
				t.Errorf("pane %s, %s: status %q, want %q", p, k, m.notice, backend.ErrReadOnly)
			}
			if !strings.Contains(screen(m), "read-only: mcptui only watches this session") {
				t.Errorf("pane %s, %s: the status line does not say it:\n%s", p, k, screen(m))
			}
		}
	}
	if calls := fb.Calls(); len(calls) > 0 {
		t.Errorf("the backend was called: %+v", calls)
	}
	press(m, "3", "f")
	if m.notice != "" {
		t.Errorf("f in traffic (follow) was refused: %q", m.notice)
	}
	press(m, "1", "i")
	if !topIs[*viewer.Viewer[*Model]](m) {
		t.Errorf("i on pane 1 did not open the request: overlay %T, status %q", m.top(), m.notice)
	}
}
