package ui

import "github.com/mcptui/mcptui/model"

// trafficView is the traffic pane's window on the history: the filter, the
// matching entries (kept up to date incrementally), the selection, and
// whether it follows the newest line.
type trafficView struct {
	text     string
	filter   model.Filter // the traffic filter syntax (see model.Filter)
	matches  []uint64     // seqs of matching entries, when filtering
	scanned  uint64       // entries before this seq have been matched
	firstSeq uint64       // the history's FirstSeq at the last sync
	list     listState
	follow   bool
	// editing is set while the filter is being typed.
	editing bool
}

// filtering reports whether a filter is set.
func (v *trafficView) filtering() bool { return !v.filter.Empty() }

// setFilter replaces the filter and rescans the kept history.
func (v *trafficView) setFilter(text string, h *model.History) {
	v.text = text
	v.filter, _ = model.ParseFilter(text) // a term it cannot match matches nothing: the empty list says so
	v.matches, v.scanned = nil, h.FirstSeq()
	v.list = listState{}
	v.sync(h)
	if v.follow {
		v.list.cursor = max(v.len(h)-1, 0)
	}
}

// sync folds new and evicted entries into the view: O(new entries).
func (v *trafficView) sync(h *model.History) {
	first := h.FirstSeq()
	if v.firstSeq == 0 {
		v.firstSeq = first
	}
	if v.filtering() {
		dropped := 0
		for dropped < len(v.matches) && v.matches[dropped] < first {
			dropped++
		}
		v.matches = v.matches[dropped:]
		v.list.shift(dropped)
		if v.scanned < first {
			v.scanned = first
		}
		for seq := v.scanned; seq < h.NextSeq(); seq++ {
			if v.filter.Match(h.BySeq(seq)) {
				v.matches = append(v.matches, seq)
			}
		}
		v.scanned = h.NextSeq()
	} else if first > v.firstSeq {
		v.list.shift(int(first - v.firstSeq))
	}
	v.firstSeq = first
	n := v.len(h)
	if v.follow {
		v.list.cursor = max(n-1, 0)
	}
	v.list.clamp(n)
}

// len is the number of rows the pane lists.
func (v *trafficView) len(h *model.History) int {
	if v.filtering() {
		return len(v.matches)
	}
	return h.Len()
}

// entry returns the i-th listed entry.
func (v *trafficView) entry(h *model.History, i int) *model.Entry {
	if v.filtering() {
		if i < 0 || i >= len(v.matches) {
			return nil
		}
		return h.BySeq(v.matches[i])
	}
	if i < 0 || i >= h.Len() {
		return nil
	}
	return h.At(i)
}

// indexOf is the row of the entry with seq, or -1 when it is not listed.
func (v *trafficView) indexOf(h *model.History, seq uint64) int {
	if !v.filtering() {
		return h.Index(seq)
	}
	lo, hi := 0, len(v.matches)
	for lo < hi {
		mid := (lo + hi) / 2
		if v.matches[mid] < seq {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	if lo < len(v.matches) && v.matches[lo] == seq {
		return lo
	}
	return -1
}
