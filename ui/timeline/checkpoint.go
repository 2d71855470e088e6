package timeline

import (
	"errors"
	"slices"
	"sync/atomic"

	"github.com/mcptui/mcptui/model"
)

// A step back rebuilds the inspector; without checkpoints it would fold
// the recording from its start again, reading the whole file up to the
// new cursor. As the recording is first folded, the timeline keeps
// checkpoints: at a chunk's boundary, every so many events or bytes of
// the file, a copy of the session and of the lint there, but for the
// history's entries (model.Checkpoint), so that a checkpoint costs the
// tables beside the history (a few hundred KiB at most), not the history
// (up to its cap). A step back resumes from the last checkpoint at or
// before its cursor: it rebuilds that checkpoint's history by folding,
// into a scratch session, the events from the newest checkpoint before
// the oldest of those entries (model.Checkpoint.Covers; the start when
// none is), then folds the events from the checkpoint to the cursor into
// the inspector. So it reads the history's window of the file (what the
// cap holds, and at most one interval more) and at most one interval
// after it, never the recording from its start once the history has
// filled. The checkpoint restored last keeps a copy of the session
// restored (keepHot), within the budget, so that stepping back key by
// key, which resumes from it again and again, copies that instead.
//
// Their memory is bounded (CheckpointBudget): each is accounted as what
// its copies allocated and the strings and lines they share with the
// session (which a checkpoint keeps alive once the session has dropped
// them). Once the checkpoints are more than maxCheckpoints or their
// memory more than the budget, the hot copy goes, then every other one,
// and the interval doubles, so that they stay evenly spread over what has been
// read.

// Where the checkpoints start: every firstEveryEvents events or
// firstEveryBytes bytes of the file, whichever comes first.
const (
	firstEveryEvents = 4 * feedChunk
	firstEveryBytes  = 4 << 20
	maxCheckpoints   = 256
)

// CheckpointBudget is the memory the checkpoints of a replay under this
// history cap may take by default (Options.CheckpointBytes 0): the cap
// (0: the model's default). A checkpoint costs the tables beside the
// history, far less; the room left is for a step back's scratch session,
// whose history (within the cap) is alive beside the inspector's until
// the new inspector takes its place.
func CheckpointBudget(historyBytes int) int {
	if historyBytes <= 0 {
		return model.DefaultHistoryBytes
	}
	return historyBytes
}

// checkpoint is the state of the inspector after the first at events.
type checkpoint struct {
	at   int
	off  int64 // where event at is in the file (-1: unknown)
	sess *model.Checkpoint
	pre  *model.Prelinter
	// cost is what the copies allocated and the strings and lines they
	// share.
	cost int
	// full is, for the checkpoint a step back restored last (the hot
	// one), a copy of the session it restored, history and all, that
	// the next step back to it copies instead of restoring it again
	// (stepping back key by key resumes from the same checkpoint);
	// fullCost is what that copy allocated.
	full     *model.Session
	fullCost int
}

// checkpoints are a timeline's, oldest first.
type checkpoints struct {
	list []*checkpoint
	// budget bounds their cost (0: none are kept); everyEvents and
	// everyBytes are the interval.
	budget                  int
	everyEvents, everyBytes int
	// hot is the checkpoint with a full copy, nil when none has.
	hot *checkpoint
}

// newCheckpoints are the checkpoints of a timeline with these options
// and session configuration, every events apart at first (0:
// firstEveryEvents).
func newCheckpoints(bytes, every int, cfg model.Config) checkpoints {
	budget := bytes
	if bytes == 0 {
		budget = CheckpointBudget(cfg.HistoryBytes)
	}
	if every <= 0 {
		every = firstEveryEvents
	}
	return checkpoints{budget: max(budget, 0), everyEvents: every, everyBytes: firstEveryBytes}
}

// last is the newest checkpoint's position: 0 and the file offset of the
// first event when there is none.
func (c *checkpoints) last(t *Timeline) (int, int64) {
	if len(c.list) == 0 {
		return 0, t.feeder.src.Offset(0)
	}
	cp := c.list[len(c.list)-1]
	return cp.at, cp.off
}

// wantCheckpoint says a checkpoint is due at event from (a chunk's
// start): past the newest one by an interval, in events or in bytes.
func (t *Timeline) wantCheckpoint(from int) bool {
	c := &t.cps
	if c.budget <= 0 || from <= 0 {
		return false
	}
	at, off := c.last(t)
	if from <= at {
		return false
	}
	if from-at >= c.everyEvents {
		return true
	}
	o := t.feeder.src.Offset(from)
	return off >= 0 && o >= 0 && o-off >= int64(c.everyBytes)
}

// add keeps a checkpoint at event at: the inspector's session (which has
// folded the first at events) and pre, the lint before event at (a copy
// already, made by the feeder, of preBytes).
func (c *checkpoints) add(t *Timeline, at int, pre *model.Prelinter, preBytes int) {
	if last, _ := c.last(t); at <= last && len(c.list) > 0 {
		return
	}
	sess, bytes := t.inner.Session().Checkpoint()
	c.list = append(c.list, &checkpoint{at: at, off: t.feeder.src.Offset(at), sess: sess, pre: pre, cost: bytes + preBytes})
	if c.hot != nil && c.total() > c.budget {
		c.dropHot()
	}
	for len(c.list) > 0 && (len(c.list) > maxCheckpoints || c.total() > c.budget) {
		c.thin()
	}
}

// keepHot keeps full, a copy of the session restored at cp, of bytes,
// as cp's while the checkpoints stay within their budget with it; it
// replaces the one kept before.
func (c *checkpoints) keepHot(cp *checkpoint, full *model.Session, bytes int) {
	c.dropHot()
	if full == nil || !slices.Contains(c.list, cp) || c.total()+bytes > c.budget {
		return
	}
	cp.full, cp.fullCost, c.hot = full, bytes, cp
}

// dropHot lets the hot checkpoint's full copy go.
func (c *checkpoints) dropHot() {
	if c.hot != nil {
		c.hot.full, c.hot.fullCost, c.hot = nil, 0, nil
	}
}

// total is the checkpoints' cost.
func (c *checkpoints) total() int {
	n := 0
	for _, cp := range c.list {
		n += cp.cost + cp.fullCost
	}
	return n
}

// thin drops every other checkpoint (the first, the third...) but the
// newest (a step back from where the cursor is, the commonest, resumes
// near it), and doubles the interval; a lone checkpoint over the budget
// goes too.
func (c *checkpoints) thin() {
	c.dropHot()
	kept := c.list[:0]
	for i, cp := range c.list {
		if i%2 == 1 || i == len(c.list)-1 && len(c.list) > 1 {
			kept = append(kept, cp)
		}
	}
	clear(c.list[len(kept):])
	c.list = kept
	c.everyEvents *= 2
	c.everyBytes *= 2
}

// before is the newest checkpoint at or before event n, nil when none.
func (c *checkpoints) before(n int) *checkpoint {
	for i := len(c.list) - 1; i >= 0; i-- {
		if c.list[i].at <= n {
			return c.list[i]
		}
	}
	return nil
}

// base is the checkpoint a step back to cp rebuilds cp's history from:
// the newest at or before it whose scratch starts at or before the
// oldest entry cp's history held; nil for the start.
func (c *checkpoints) base(cp *checkpoint) *checkpoint {
	for i := len(c.list) - 1; i >= 0; i-- {
		if b := c.list[i]; b.at <= cp.at && b.sess.Covers(cp.sess) {
			return b
		}
	}
	return nil
}

// errStale says a restore was given up: the inspector it was for was
// thrown away.
var errStale = errors.New("restore given up")

// restoreFull is restore, and a copy of the session restored for
// keepHot (its bytes).
func (f *feeder) restoreFull(cfg model.Config, base, cp *checkpoint, chunk int, live *atomic.Int64, gen int64) (sess, full *model.Session, bytes int, err error) {
	sess, err = f.restore(cfg, base, cp, chunk, live, gen)
	if err != nil {
		return nil, nil, 0, err
	}
	full, bytes = sess.Clone()
	return sess, full, bytes, nil
}

// restore is the session at checkpoint cp: its history's entries are
// rebuilt by folding the events from base (nil: the start) to cp into
// base's scratch session (the lines judged already: no lint), a chunk at
// a time; live, when not nil, is read between chunks, and the restore
// gives up once it is no longer gen.
func (f *feeder) restore(cfg model.Config, base, cp *checkpoint, chunk int, live *atomic.Int64, gen int64) (*model.Session, error) {
	scratch, from := model.New(cfg), 0
	if base != nil {
		scratch, from = base.sess.Scratch(), base.at
	}
	for from < cp.at {
		if live != nil && live.Load() != gen {
			return nil, errStale
		}
		to := min(from+chunk, cp.at)
		f.mu.Lock()
		evs, err := f.src.Events(from, to)
		f.mu.Unlock()
		if err != nil {
			return nil, err
		}
		scratch.ApplyAll(model.Judged(evs))
		from = to
	}
	return cp.sess.Restore(scratch.History())
}
