package timeline

import (
	"github.com/mcptui/mcptui/model"
)

// A step back rebuilds the inspector; without checkpoints it would fold
// the recording from its start again, reading the whole file up to the
// new cursor. As the recording is first folded, the timeline keeps
// checkpoints: at a chunk's boundary, every so many events or bytes of
// the file, a copy of the session and of the lint there. A step back
// resumes from the last checkpoint at or before its cursor, so it reads
// at most one interval of the file.
//
// Their memory is bounded (CheckpointBudget): a copy shares the lines
// with the session it was made from (a checkpoint keeps alive the lines
// its history held, which the live session may have dropped since), and
// is accounted as what the copy allocated plus the lines of its history
// that the checkpoint before it does not hold. Once the checkpoints are more than
// maxCheckpoints or their memory more than the budget, every other one
// is dropped and the interval doubles, so that they stay evenly spread
// over what has been read.

// Where the checkpoints start: every firstEveryEvents events or
// firstEveryBytes bytes of the file, whichever comes first.
const (
	firstEveryEvents = 4 * feedChunk
	firstEveryBytes  = 4 << 20
	maxCheckpoints   = 64
)

// CheckpointBudget is the memory the checkpoints of a replay under this
// history cap may take by default (Options.CheckpointBytes 0): the cap
// (0: the model's default). The first checkpoint of a full history costs
// about the history; each next one a copy of its tables and ring (some
// 200 bytes an entry) and the lines read since the one before.
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
	sess *model.Session
	pre  *model.Prelinter
	// copied is what the copies allocated; cost adds the lines only this
	// checkpoint keeps (see account).
	copied, cost int
}

// checkpoints are a timeline's, oldest first.
type checkpoints struct {
	list []*checkpoint
	// budget bounds their cost (0: none are kept); everyEvents and
	// everyBytes are the interval.
	budget                  int
	everyEvents, everyBytes int
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
	sess, copied := t.inner.Session().Clone()
	c.list = append(c.list, &checkpoint{at: at, off: t.feeder.src.Offset(at), sess: sess, pre: pre, copied: copied + preBytes})
	c.account(len(c.list) - 1)
	for len(c.list) > 0 && (len(c.list) > maxCheckpoints || c.total() > c.budget) {
		c.thin()
	}
}

// account sets the cost of checkpoint i: its copies, and its history's
// lines that the checkpoint before it does not hold (a history only
// drops its oldest entries, so those are the ones after the other's).
func (c *checkpoints) account(i int) {
	cp := c.list[i]
	var from uint64
	if i > 0 {
		from = c.list[i-1].sess.History().NextSeq()
	}
	cp.cost = cp.copied + cp.sess.History().LineBytesFrom(from)
}

// total is the checkpoints' cost.
func (c *checkpoints) total() int {
	n := 0
	for _, cp := range c.list {
		n += cp.cost
	}
	return n
}

// thin drops every other checkpoint (the first, the third...) but the
// newest (a step back from where the cursor is, the commonest, resumes
// near it), and doubles the interval; a lone checkpoint over the budget
// goes too.
func (c *checkpoints) thin() {
	kept := c.list[:0]
	for i, cp := range c.list {
		if i%2 == 1 || i == len(c.list)-1 && len(c.list) > 1 {
			kept = append(kept, cp)
		}
	}
	clear(c.list[len(kept):])
	c.list = kept
	for i := range c.list {
		c.account(i)
	}
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
