// Package timeline is the replay program: the inspector, read-only, on a
// recording, with a timeline under the panes to step through it.
package timeline

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"

	bubkey "charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/mcptui/mcptui/internal/inert"
	"github.com/mcptui/mcptui/internal/record"
	"github.com/mcptui/mcptui/internal/replay"
	"github.com/mcptui/mcptui/keymap"
	"github.com/mcptui/mcptui/model"
	"github.com/mcptui/mcptui/ui"
)

// Options configure Inspect.
type Options struct {
	// Theme is a --theme value; NoColor forces mono.
	Theme   string
	NoColor bool
	// HistoryBytes caps the traffic history (0: the model's default).
	HistoryBytes int
	// Title names the recording in the timeline (its file name).
	Title string
	// MaxLineBytes is the wire line limit the recording is read with (0:
	// conn's default); see record.ReadLimited.
	MaxLineBytes int
	// Keys are the bindings (the user's); nil means keymap.Default().
	Keys *keymap.KeyMap
	// FoldBudget bounds the time one Update folds events into the
	// inspector (ui.Options.FoldBudget): the recording's load, a step
	// back's rebuild and a long step forward are folded a slice at a
	// time, keys handled between slices; 0 folds them at once.
	FoldBudget time.Duration
	// Linter makes the live lint that judges the recording's lines (nil:
	// model.DefaultLinter, without a schema validator).
	Linter func() model.Linter
}

// Timeline is the replay program: the inspector (ui.Model) showing the
// recording up to a cursor, and a status line with the timeline. Stepping
// forward feeds the next events to the inspector; stepping back rebuilds it
// from the start up to the new cursor (the panes' scroll and focus start
// afresh). The inspector's clock is the time of the event at the cursor.
// With a fold budget the events are folded a slice at a time: the cursor
// moves at once, the inspector catches up behind it, and the status line
// says how far it is.
type Timeline struct {
	rec     *record.Recording
	evs     []model.Event
	cursor  int // events shown: evs[:cursor]
	sends   []int
	opts    Options
	backend *replay.Backend
	inner   *ui.Model
	title   string

	width, height int
	bg            *tea.BackgroundColorMsg
	// keys are the timeline's own (control keys, so that they never
	// reach a text field of the inspector).
	keys keymap.Timeline
	// start is the fold of the recording's load, for Init.
	start tea.Cmd
	// foldSpan is how many events were handed to the inspector since it
	// last had nothing to fold, and folding what the status line calls
	// that fold (see progress).
	foldSpan int
	folding  string
	// what is the description of the event before the cursor whatAt
	// (a line can be megabytes: not read again for every frame).
	what   string
	whatAt int
}

// NewTimeline builds the replay program for rec, at the end of the
// recording.
func NewTimeline(rec *record.Recording, opts Options) *Timeline {
	t := &Timeline{rec: rec, evs: replay.Events(rec), opts: opts, backend: replay.NewBackend(nil), title: opts.Title, keys: opts.keys().Timeline, whatAt: -1}
	if t.title == "" {
		t.title = "recording"
	}
	// Judged once, here: a step back rebuilds the inspector from the start,
	// and its Session keeps the findings instead of judging every line again.
	pre := model.NewPrelinter()
	if opts.Linter != nil {
		pre = model.NewPrelinterWith(opts.Linter())
	}
	pre.Lint(t.evs)
	for i, ev := range t.evs {
		if w, ok := ev.(model.Wire); ok && w.Dir == model.Out {
			t.sends = append(t.sends, i)
		}
	}
	t.inner = t.newInner()
	t.cursor = 0
	t.start = t.feed(len(t.evs))
	t.folding = "loading"
	return t
}

// Cursor is how many events are shown; Len how many there are.
func (t *Timeline) Cursor() int { return t.cursor }

// Len is the number of events of the recording.
func (t *Timeline) Len() int { return len(t.evs) }

// Inspector is the inspector model showing the recording.
func (t *Timeline) Inspector() *ui.Model { return t.inner }

func (t *Timeline) newInner() *ui.Model {
	title := t.rec.Header.Command
	if len(t.rec.Header.Args) > 0 {
		title += " " + strings.Join(t.rec.Header.Args, " ")
	}
	return ui.New(ui.Options{
		// A recording: nothing can be sent to its server.
		ReadOnly: true,

		Backend: t.backend,
		Session: model.New(replay.Config(t.rec, t.opts.HistoryBytes)),
		Theme:   t.opts.Theme,
		NoColor: t.opts.NoColor,
		Now:     t.now,
		Tick:    -1,
		NoBell:  true,
		Title:   "replay: " + title,
		Keys:    t.opts.Keys,
		// A rebuild is folded like a backend batch: keys go first.
		FoldBudget: t.opts.FoldBudget,
	})
}

// keys are the bindings the options name, else the default ones.
func (o Options) keys() keymap.KeyMap {
	if o.Keys != nil {
		return *o.Keys
	}
	return keymap.Default()
}

// now is the time of the newest event shown.
func (t *Timeline) now() time.Time {
	if t.cursor == 0 {
		return t.rec.Header.Time
	}
	return t.evs[t.cursor-1].When()
}

// feed shows events up to n (n > cursor): they are handed to the
// inspector's budgeted fold, behind whatever it is still folding.
func (t *Timeline) feed(n int) tea.Cmd {
	if n <= t.cursor {
		return nil
	}
	if t.inner.Backlog() == 0 {
		t.foldSpan, t.folding = 0, "catching up"
	}
	evs := model.Judged(t.evs[t.cursor:n])
	t.cursor = n
	t.foldSpan += len(evs)
	_, cmd := t.inner.Update(ui.EventsMsg{Events: evs, Budgeted: true})
	return cmd
}

// Seek moves the cursor to n events (clamped).
func (t *Timeline) Seek(n int) tea.Cmd {
	n = max(0, min(n, len(t.evs)))
	if n >= t.cursor {
		return t.feed(n)
	}
	t.inner = t.newInner()
	t.cursor = 0
	if t.width > 0 {
		t.inner.Update(tea.WindowSizeMsg{Width: t.width, Height: max(t.height-1, 1)})
	}
	if t.bg != nil {
		t.inner.Update(*t.bg)
	}
	// The inspector being thrown away drops its rebuild's backlog, if it
	// was still folding one: the new rebuild starts at once.
	cmd := t.feed(n)
	t.folding = "rebuilding"
	return cmd
}

// Init starts the inspector, and the fold of the recording.
func (t *Timeline) Init() tea.Cmd { return tea.Batch(t.inner.Init(), t.start) }

// Update handles the timeline keys and passes everything else to the
// inspector.
func (t *Timeline) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch m := msg.(type) {
	case tea.WindowSizeMsg:
		t.width, t.height = m.Width, m.Height
		msg = tea.WindowSizeMsg{Width: m.Width, Height: max(m.Height-1, 1)}
	case tea.BackgroundColorMsg:
		t.bg = &m
	case tea.KeyPressMsg:
		k := t.keys
		switch {
		case bubkey.Matches(m, k.Next):
			return t, t.Seek(t.cursor + 1)
		case bubkey.Matches(m, k.Prev):
			return t, t.Seek(t.cursor - 1)
		case bubkey.Matches(m, k.NextSend):
			return t, t.Seek(t.nextSend())
		case bubkey.Matches(m, k.PrevSend):
			return t, t.Seek(t.prevSend())
		case bubkey.Matches(m, k.Start):
			return t, t.Seek(0)
		case bubkey.Matches(m, k.End):
			return t, t.Seek(len(t.evs))
		}
	}
	_, cmd := t.inner.Update(msg)
	return t, cmd
}

// nextSend is the cursor just after the next line we sent.
func (t *Timeline) nextSend() int {
	if k, _ := slices.BinarySearch(t.sends, t.cursor); k < len(t.sends) {
		return t.sends[k] + 1
	}
	return len(t.evs)
}

// prevSend is the cursor just after the previous line we sent.
func (t *Timeline) prevSend() int {
	if k, _ := slices.BinarySearch(t.sends, t.cursor-1); k > 0 {
		return t.sends[k-1] + 1
	}
	return 0
}

// View is the inspector with the timeline under it.
func (t *Timeline) View() tea.View {
	v := t.inner.View()
	v.Content += "\n" + t.StatusLine(t.width)
	return v
}

// StatusLine is the timeline: where the cursor is, the event there (or,
// while the inspector is still folding the events up to it, how far it
// is), and the keys.
func (t *Timeline) StatusLine(width int) string {
	if width <= 0 {
		width = 80
	}
	at := t.now()
	elapsed := at.Sub(t.rec.Header.Time).Round(time.Millisecond)
	what := t.progress()
	if what == "" {
		what = t.describeCursor()
	}
	left := fmt.Sprintf("REPLAY %s %d/%d +%s %s ", inert.Fit(t.title, 24), t.cursor, len(t.evs), elapsed, at.Format("15:04:05.000"))
	keys := " " + keymap.Hint(t.keys.Next, t.keys.NextSend, t.keys.End) + "  (read-only)"
	room := width - inert.Width(left) - inert.Width(keys)
	if room < 8 {
		return inert.Fit(left+what, width)
	}
	return left + inert.FitPad(what, room) + keys
}

// progress is how far the inspector is in folding the events up to the
// cursor ("rebuilding… 40%"), or "" once they are all shown.
func (t *Timeline) progress() string {
	waiting := t.inner.Backlog()
	if waiting == 0 || t.foldSpan < waiting {
		return ""
	}
	return fmt.Sprintf("%s… %d%%", t.folding, (t.foldSpan-waiting)*100/t.foldSpan)
}

// describeCursor describes the event before the cursor, once per cursor.
func (t *Timeline) describeCursor() string {
	if t.whatAt != t.cursor {
		t.what = "start"
		if t.cursor > 0 {
			t.what = Describe(t.evs[t.cursor-1])
		}
		t.whatAt = t.cursor
	}
	return t.what
}

// Describe is one line about an event, for the timeline (server text is
// escaped).
func Describe(ev model.Event) string {
	switch e := ev.(type) {
	case model.Wire:
		dir := "→"
		if e.Dir == model.In {
			dir = "←"
		}
		if e.Discarded {
			return fmt.Sprintf("%s discarded %d B: %s", dir, e.Size, inert.Line(e.Reason))
		}
		var env struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
			Error  json.RawMessage `json:"error"`
		}
		_ = json.Unmarshal(e.Line, &env)
		switch {
		case env.Method != "" && env.ID != nil:
			return fmt.Sprintf("%s %s #%s (%s)", dir, inert.Line(env.Method), inert.Line(string(env.ID)), model.FormatSize(e.Size))
		case env.Method != "":
			return fmt.Sprintf("%s %s (%s)", dir, inert.Line(env.Method), model.FormatSize(e.Size))
		case env.Error != nil:
			return fmt.Sprintf("%s error #%s (%s)", dir, inert.Line(string(env.ID)), model.FormatSize(e.Size))
		}
		return fmt.Sprintf("%s result #%s (%s)", dir, inert.Line(string(env.ID)), model.FormatSize(e.Size))
	case model.Stderr:
		return "stderr: " + inert.Line(e.Line)
	case model.Started:
		return fmt.Sprintf("started pid %d", e.PID)
	case model.Negotiating:
		return "negotiating: " + inert.Line(e.Step)
	case model.Ready:
		return fmt.Sprintf("ready: %s %s, %s", inert.Line(e.ServerName), inert.Line(e.ServerVersion), inert.Line(e.Protocol))
	case model.Exited:
		if e.Status == "" {
			return "exited"
		}
		return "exited: " + inert.Line(e.Status)
	case model.Failed:
		return "failed: " + inert.Line(e.Err)
	case model.QuestionAsked:
		return "asked: " + inert.Line(e.Method)
	case model.QuestionResolved:
		return "answered: " + e.State.String()
	case model.Lost:
		return fmt.Sprintf("%d entries lost", e.N)
	}
	return fmt.Sprintf("%T", ev)
}
