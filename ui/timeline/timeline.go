// Package timeline is the replay program: the inspector, read-only, on a
// recording, with a timeline under the panes to step through it.
package timeline

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
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
	// CheckpointBytes bounds the memory of the checkpoints a step back
	// resumes from (see checkpoints); 0 means CheckpointBudget of the
	// history cap, < 0 keeps none (a step back folds the recording from
	// its start).
	CheckpointBytes int

	// chunk and every are feedChunk and firstEveryEvents when 0 (tests
	// set them smaller).
	chunk, every int
}

// Timeline is the replay program: the inspector (ui.Model) showing the
// recording up to a cursor, and a status line with the timeline. Stepping
// forward feeds the next events to the inspector; stepping back rebuilds it
// from the last checkpoint before the new cursor (see checkpoints; the
// panes' scroll and focus start afresh). The inspector's clock is the time of the event at the cursor.
// With a fold budget the events are folded a slice at a time: the cursor
// moves at once, the inspector catches up behind it, and the status line
// says how far it is.
//
// The events are read from their source a chunk at a time as the
// inspector takes them, and judged by the live lint before they are
// handed over (with a fold budget, off the UI goroutine): a recording
// file's are re-read from the file (replay.Index), so that what the
// timeline holds is the inspector (within its history cap), 8 bytes an
// event, two chunks and the checkpoints (within their budget), and while
// a step back restores a checkpoint its scratch history (within the cap),
// whatever the recording's size.
type Timeline struct {
	src     source
	header  record.Entry
	cfg     model.Config
	cursor  int // events shown: the first cursor events
	fed     int // events handed to the inspector (fed <= cursor)
	sends   []int
	pre     *model.Prelinter
	readErr error
	// feeder reads and judges the chunks handed to the inspector: with a
	// fold budget in a Cmd, off the UI goroutine (see pump).
	feeder *feeder
	// next is where the next chunk to read starts (fed <= next <=
	// cursor); reading says a chunk is being read, ready is one read and
	// not handed over yet; gen counts the inspectors built (a chunk read
	// for one thrown away is dropped).
	next    int
	reading bool
	ready   *chunkMsg
	gen     int
	// cps are the checkpoints a step back resumes from. restoring is the
	// one a step back is restoring (off the UI goroutine, with a fold
	// budget), from the events after restoreFrom; the inspector shown
	// meanwhile is the one it replaces, fed nothing more. live is gen, for
	// the restore to give up once its inspector is thrown away.
	cps         checkpoints
	restoring   *checkpoint
	restoreFrom int
	live        *atomic.Int64
	// at is the event before the cursor, read when atIdx != cursor-1.
	at      model.Event
	atIdx   int
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

// feedChunk is how many events are read and handed to the inspector at
// once (the most a backend batch holds).
const feedChunk = 4096

// source is where a timeline's events come from.
type source interface {
	Len() int
	// Events are the events from..to, in a slice the caller may modify.
	Events(from, to int) ([]model.Event, error)
	// Offset is where event i is in the recording file (-1: unknown).
	Offset(i int) int64
	Close() error
}

// memSource is a recording's events in memory.
type memSource struct{ evs []model.Event }

func (m *memSource) Len() int { return len(m.evs) }
func (m *memSource) Events(from, to int) ([]model.Event, error) {
	return slices.Clone(m.evs[from:to]), nil
}
func (m *memSource) Offset(int) int64 { return -1 }
func (m *memSource) Close() error     { return nil }

// fileSource is a recording's events read again from its file.
type fileSource struct {
	x *replay.Index
	r *replay.IndexReader
}

func (f *fileSource) Len() int                                   { return f.x.Len() }
func (f *fileSource) Events(from, to int) ([]model.Event, error) { return f.r.Events(from, to) }
func (f *fileSource) Offset(i int) int64                         { return f.x.Offset(i) }
func (f *fileSource) Close() error                               { return f.r.Close() }

// NewTimeline builds the replay program for rec, at the end of the
// recording. It holds rec's events; NewTimelineIndex holds none.
func NewTimeline(rec *record.Recording, opts Options) *Timeline {
	evs := replay.Events(rec)
	var sends []int
	for i, ev := range evs {
		if w, ok := ev.(model.Wire); ok && w.Dir == model.Out {
			sends = append(sends, i)
		}
	}
	src := &memSource{evs: evs}
	return newTimeline(src, src, rec.Header, replay.Config(rec, opts.HistoryBytes), sends, opts)
}

// NewTimelineIndex builds the replay program for the recording x indexes,
// at its end, reading its events from the file as they are shown. Close
// it when done.
func NewTimelineIndex(x *replay.Index, opts Options) (*Timeline, error) {
	// Two readers: the UI's (the event at the cursor) and the feeder's.
	r, err := x.Open()
	if err != nil {
		return nil, err
	}
	fr, err := x.Open()
	if err != nil {
		r.Close()
		return nil, err
	}
	return newTimeline(&fileSource{x: x, r: r}, &fileSource{x: x, r: fr}, x.Header, x.Config(opts.HistoryBytes), x.Sends, opts), nil
}

// newTimeline builds the timeline of src's events; feed is the same
// events, read by the feeder (a reader of its own, used by one goroutine
// at a time).
func newTimeline(src, feed source, header record.Entry, cfg model.Config, sends []int, opts Options) *Timeline {
	t := &Timeline{src: src, feeder: &feeder{src: feed}, header: header, cfg: cfg, sends: sends, opts: opts, backend: replay.NewBackend(nil), title: opts.Title, keys: opts.keys().Timeline, whatAt: -1, atIdx: -1, live: new(atomic.Int64)}
	if t.title == "" {
		t.title = "recording"
	}
	t.cps = newCheckpoints(opts.CheckpointBytes, opts.every, cfg)
	t.inner = t.newInner(nil, nil)
	t.start = t.feed(src.Len())
	t.folding = "loading"
	return t
}

// Close lets the recording go (its file, for NewTimelineIndex).
func (t *Timeline) Close() error {
	t.backend.Close()
	err := t.src.Close()
	if t.feeder.src != t.src {
		t.feeder.mu.Lock()
		defer t.feeder.mu.Unlock()
		if ferr := t.feeder.src.Close(); err == nil {
			err = ferr
		}
	}
	return err
}

// Cursor is how many events are shown; Len how many there are.
func (t *Timeline) Cursor() int { return t.cursor }

// Len is the number of events of the recording.
func (t *Timeline) Len() int { return t.src.Len() }

// event is event i (nil, and readErr set, if it could not be read).
func (t *Timeline) event(i int) model.Event {
	evs, err := t.src.Events(i, i+1)
	if err != nil || len(evs) == 0 {
		t.readErr = err
		return nil
	}
	return evs[0]
}

// atCursor is the event before the cursor (nil at the start), read once
// per cursor.
func (t *Timeline) atCursor() model.Event {
	if t.cursor == 0 {
		return nil
	}
	if t.atIdx != t.cursor-1 {
		t.at, t.atIdx = t.event(t.cursor-1), t.cursor-1
	}
	return t.at
}

// Inspector is the inspector model showing the recording.
func (t *Timeline) Inspector() *ui.Model { return t.inner }

// newInner builds the inspector at checkpoint cp (nil: the start): its
// session is sess, restored from the checkpoint, and its lint goes on
// from a copy of the checkpoint's. A chunk being read, or a checkpoint
// being restored, for the inspector it replaces will be dropped.
func (t *Timeline) newInner(cp *checkpoint, sess *model.Session) *ui.Model {
	title := t.header.Command
	if len(t.header.Args) > 0 {
		title += " " + strings.Join(t.header.Args, " ")
	}
	t.newGen()
	// A new inspector judges the lines afresh, from the start.
	t.pre, t.fed = t.newPrelinter(), 0
	if cp != nil {
		t.pre, _ = cp.pre.Clone()
		t.fed = cp.at
	} else {
		sess = model.New(t.cfg)
	}
	t.next = t.fed
	return ui.New(ui.Options{
		// A recording: nothing can be sent to its server.
		ReadOnly: true,

		Backend: t.backend,
		Session: sess,
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

// newGen throws away what is being read or restored for the inspector
// shown: the next one is coming.
func (t *Timeline) newGen() {
	t.gen++
	t.live.Store(int64(t.gen))
	t.reading, t.ready, t.restoring = false, nil, nil
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
	if ev := t.atCursor(); ev != nil {
		return ev.When()
	}
	return t.header.Time
}

// feed shows events up to n (n > cursor): the cursor moves there at once,
// and the events are handed to the inspector's budgeted fold a chunk at a
// time, behind whatever it is still folding.
func (t *Timeline) feed(n int) tea.Cmd {
	if n <= t.cursor {
		return nil
	}
	if t.waiting() == 0 {
		t.foldSpan, t.folding = 0, "catching up"
	}
	t.foldSpan += n - t.cursor
	t.cursor = n
	return t.topUp()
}

// waiting is how many events up to the cursor the inspector has not
// folded yet (marks included); while a checkpoint is restored, every
// event its restore folds too.
func (t *Timeline) waiting() int {
	if t.restoring != nil {
		return t.cursor - t.restoreFrom
	}
	return t.inner.Backlog() + t.cursor - t.fed
}

// topUp hands the inspector the next chunk of events once it has folded
// what it was given. Without a fold budget every chunk up to the cursor
// is read, judged and folded at once. With one, reading and judging a
// chunk are the feeder's, in a Cmd (a chunkMsg brings it back): the UI
// goroutine only folds, a slice at a time, while the next chunk is read.
func (t *Timeline) topUp() tea.Cmd {
	if t.restoring != nil {
		return nil
	}
	if t.opts.FoldBudget <= 0 {
		for t.fed < t.cursor && t.inner.Backlog() == 0 && t.readErr == nil {
			c := t.feeder.chunk(t, t.gen, t.fed, min(t.fed+t.chunk(), t.cursor), t.pre, t.wantCheckpoint(t.fed))
			t.next = c.to
			t.handOver(&c)
		}
		return nil
	}
	var cmds []tea.Cmd
	if t.ready != nil && t.inner.Backlog() == 0 {
		c := t.ready
		t.ready = nil
		cmds = append(cmds, t.handOver(c))
	}
	if !t.reading && t.ready == nil && t.next < t.cursor && t.readErr == nil {
		from, to := t.next, min(t.next+t.chunk(), t.cursor)
		t.reading, t.next = true, to
		f, gen, pre, cp := t.feeder, t.gen, t.pre, t.wantCheckpoint(from)
		cmds = append(cmds, func() tea.Msg {
			c := f.chunk(t, gen, from, to, pre, cp)
			return c
		})
	}
	return tea.Batch(cmds...)
}

// chunk is how many events are read and handed over at once.
func (t *Timeline) chunk() int {
	if t.opts.chunk > 0 {
		return t.opts.chunk
	}
	return feedChunk
}

// handOver gives the inspector the chunk read (the events right after
// those it has, all folded), first keeping a checkpoint of its state if
// the chunk brought the lint's for one.
func (t *Timeline) handOver(c *chunkMsg) tea.Cmd {
	if c.err != nil {
		t.readErr = c.err
		t.next = t.fed
		return nil
	}
	if c.pre != nil && c.from == t.fed {
		t.cps.add(t, c.from, c.pre, c.preBytes)
	}
	t.fed = c.to
	t.foldSpan += 2 // the marks around them
	_, cmd := t.inner.Update(ui.EventsMsg{Events: model.Judged(c.evs), Budgeted: true})
	return cmd
}

// chunkMsg is a chunk of events read and judged for timeline t's
// inspector number gen: events from..to, and, when a checkpoint was
// asked for at from, a copy of the lint before them.
type chunkMsg struct {
	t        *Timeline
	gen      int
	from, to int
	evs      []model.Event
	pre      *model.Prelinter
	preBytes int
	err      error
}

// feeder reads chunks of events and judges them: in a Cmd of its own
// each, one after the other (mu keeps a chunk of a thrown-away inspector,
// still being read, from sharing the reader with the next).
type feeder struct {
	mu  sync.Mutex
	src source
}

// chunk reads events from..to and judges them with pre (which it copies
// first when cp).
func (f *feeder) chunk(t *Timeline, gen, from, to int, pre *model.Prelinter, cp bool) chunkMsg {
	c := chunkMsg{t: t, gen: gen, from: from, to: to}
	if cp {
		c.pre, c.preBytes = pre.Clone()
	}
	f.mu.Lock()
	c.evs, c.err = f.src.Events(from, to)
	f.mu.Unlock()
	if c.err == nil {
		pre.Lint(c.evs)
	}
	return c
}

// Seek moves the cursor to n events (clamped). A step back rebuilds the
// inspector from the last checkpoint at or before n (restoring it: see
// checkpoints), or from the start. With a fold budget the restore is a
// Cmd's, off the UI goroutine; the inspector it replaces is shown until
// it is done (a restoredMsg brings it back).
func (t *Timeline) Seek(n int) tea.Cmd {
	n = max(0, min(n, t.Len()))
	if n >= t.cursor {
		return t.feed(n)
	}
	cp := t.cps.before(n)
	if cp == nil {
		return t.resume(nil, nil, n)
	}
	if cp.full != nil {
		// The checkpoint restored last: a copy of what it restored.
		sess, _ := cp.full.Clone()
		return t.resume(cp, sess, n)
	}
	if t.restoring == cp {
		// Its restore is under way: the cursor moves, the restore goes
		// on (a key held down does not start it again at every press).
		t.foldSpan -= t.cursor - n
		t.cursor = n
		return nil
	}
	base := t.cps.base(cp)
	from := 0
	if base != nil {
		from = base.at
	}
	if t.opts.FoldBudget <= 0 {
		sess, full, bytes, err := t.feeder.restoreFull(t.cfg, base, cp, t.chunk(), nil, 0)
		if err != nil {
			// Not expected: fold from the start instead.
			return t.resume(nil, nil, n)
		}
		t.cps.keepHot(cp, full, bytes)
		return t.resume(cp, sess, n)
	}
	t.newGen()
	t.restoring, t.restoreFrom = cp, from
	t.cursor, t.fed, t.next = n, cp.at, cp.at
	t.foldSpan, t.folding = n-from, "rebuilding"
	f, gen, live, cfg, chunk := t.feeder, t.gen, t.live, t.cfg, t.chunk()
	return func() tea.Msg {
		sess, full, bytes, err := f.restoreFull(cfg, base, cp, chunk, live, int64(gen))
		return restoredMsg{t: t, gen: gen, cp: cp, sess: sess, full: full, fullBytes: bytes, err: err}
	}
}

// restoredMsg is checkpoint cp restored (sess, and full a copy of it of
// fullBytes, for keepHot) for timeline t's step back number gen.
type restoredMsg struct {
	t         *Timeline
	gen       int
	cp        *checkpoint
	sess      *model.Session
	full      *model.Session
	fullBytes int
	err       error
}

// restored builds the inspector on the checkpoint restored, and feeds it
// the events up to the cursor.
func (t *Timeline) restored(m restoredMsg) tea.Cmd {
	n, from := t.cursor, t.restoreFrom
	if m.err != nil {
		// A read error, or not expected: fold from the start instead.
		return t.resume(nil, nil, n)
	}
	t.cps.keepHot(m.cp, m.full, m.fullBytes)
	cmd := t.resume(m.cp, m.sess, n)
	// The status line's percentage counts the events restored.
	t.foldSpan += m.cp.at - from
	return cmd
}

// resume builds the inspector at checkpoint cp (nil: the start), on
// sess (cp's restored), and feeds it the events up to n.
func (t *Timeline) resume(cp *checkpoint, sess *model.Session, n int) tea.Cmd {
	t.inner = t.newInner(cp, sess)
	t.cursor = t.fed
	if t.width > 0 {
		t.inner.Update(tea.WindowSizeMsg{Width: t.width, Height: max(t.height-1, 1)})
	}
	if t.bg != nil {
		t.inner.Update(*t.bg)
	}
	if cp != nil {
		// Its panes take in the session it starts with (the traffic
		// pane follows its newest line).
		t.inner.Update(ui.EventsMsg{})
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
	case restoredMsg:
		if m.t != t || m.gen != t.gen || t.restoring != m.cp {
			return t, nil
		}
		return t, t.restored(m)
	case chunkMsg:
		if m.t != t || m.gen != t.gen {
			return t, nil
		}
		t.reading = false
		t.ready = &m
		return t, t.topUp()
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
			return t, t.Seek(t.Len())
		}
	}
	_, cmd := t.inner.Update(msg)
	if more := t.topUp(); more != nil {
		cmd = tea.Batch(cmd, more)
	}
	return t, cmd
}

// nextSend is the cursor just after the next line we sent.
func (t *Timeline) nextSend() int {
	if k, _ := slices.BinarySearch(t.sends, t.cursor); k < len(t.sends) {
		return t.sends[k] + 1
	}
	return t.Len()
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
	elapsed := at.Sub(t.header.Time).Round(time.Millisecond)
	what := t.progress()
	if what == "" {
		what = t.describeCursor()
	}
	if t.readErr != nil {
		what = "reading the recording: " + inert.Line(t.readErr.Error())
	}
	left := fmt.Sprintf("REPLAY %s %d/%d +%s %s ", inert.Fit(t.title, 24), t.cursor, t.Len(), elapsed, at.Format("15:04:05.000"))
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
	waiting := t.waiting()
	if waiting == 0 || t.foldSpan < waiting {
		return ""
	}
	return fmt.Sprintf("%s… %d%%", t.folding, (t.foldSpan-waiting)*100/t.foldSpan)
}

// describeCursor describes the event before the cursor, once per cursor.
func (t *Timeline) describeCursor() string {
	if t.whatAt != t.cursor {
		t.what = "start"
		if ev := t.atCursor(); ev != nil {
			t.what = Describe(ev)
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

// newPrelinter is the live lint that judges the lines as they are handed
// over: Options.Linter's, or the model's default.
func (t *Timeline) newPrelinter() *model.Prelinter {
	if t.opts.Linter != nil {
		return model.NewPrelinterWith(t.opts.Linter())
	}
	return model.NewPrelinter()
}
