package catalog

import (
	"bytes"
	"strings"
	"time"

	"github.com/mcptui/mcptui/mcp"
	"github.com/mcptui/mcptui/skills"
	"github.com/mcptui/mcptui/ui/catalog/marks"
)

// Kind is one of the catalog's lists.
type Kind int

// The lists, in tab order; Log is the log messages and events.
const (
	Tools Kind = iota
	Resources
	Templates
	Prompts
	// Skills are the skills of a server declaring the Skills extension
	// (its tab is hidden on any other server).
	Skills
	Log
	kinds
)

// String names the list.
func (k Kind) String() string {
	return [...]string{"Tools", "Resources", "Templates", "Prompts", "Skills", "Log"}[k]
}

// item is one entry of a list.
type item struct {
	key, name, title, desc string
	raw                    []byte
	tool                   *mcp.Tool
	res                    *mcp.Resource
	tmpl                   *mcp.ResourceTemplate
	prompt                 *mcp.Prompt
	skill                  *skills.Skill
	// The lowercased texts the filter searches, prepared once when the
	// list arrives (off the UI goroutine), never per key or frame.
	lkey, lname, ltitle, ldesc string
}

// prepare lowercases what the filter searches, once per listing.
func prepare(items []item) []item {
	for i := range items {
		it := &items[i]
		it.lkey, it.lname, it.ltitle, it.ldesc = strings.ToLower(it.key), strings.ToLower(it.name), strings.ToLower(it.title), strings.ToLower(it.desc)
	}
	return items
}

// mark is how an item changed in the last refresh.
type mark int

const (
	unchanged mark = iota
	added
	changed
	removed
)

// listing is one list with its diff since the previous listing.
type listing struct {
	kind    Kind
	items   []item
	marks   map[string]mark
	removed []item
	loaded  bool
	// listed is set once a listing succeeded: the diff starts after it.
	listed  bool
	loading bool
	err     string
	at      time.Time
	// refreshes counts the listings after the first; quiet those that
	// changed nothing; changedAt is when the diff shown was made.
	refreshes int
	quiet     int
	changedAt time.Time
	cursor    int
	offset    int
	// nAdded and nChanged count the marks (diff is asked every frame).
	nAdded, nChanged int
	// filtered are the results of the filters typed since the listing,
	// each one's filter contained in the next one's: a filter that
	// extends the top one searches its matches only, and a backspace
	// finds its answer here.
	filtered []filtered
	// gen counts the listings; ms are the marks of --baseline, --host
	// and --model, worked out for listing gen (nil: none yet).
	gen int
	ms  *marks.Set
	// probes counts the items the filter looked at, made the rows made
	// for drawing or reading (the test that the cost of a key is not the
	// length of the list reads them).
	probes, made int
}

// filtered is the rows of one filter.
type filtered struct {
	f string
	// match are the rows that match f, in list order; rows are they
	// ranked.
	match, rows []int32
}

// maxFiltered bounds the filters kept.
const maxFiltered = 64

// diff is how many items were added, removed and changed by the last
// refresh.
func (l *listing) diff() (add, rem, chg int) {
	return l.nAdded, len(l.removed), l.nChanged
}

// replace installs a new listing and computes the diff with the old one
// (not for the first listing). A listing that changes nothing keeps the
// previous diff, so a burst of list-changed notifications does not wipe
// what the person has not seen yet.
func (l *listing) replace(items []item, at time.Time) {
	first := !l.listed
	if !first {
		old := make(map[string]*item, len(l.items))
		for i := range l.items {
			old[l.items[i].key] = &l.items[i]
		}
		marks, gone := map[string]mark{}, []item(nil)
		seen := make(map[string]bool, len(items))
		for _, it := range items {
			seen[it.key] = true
			prev, ok := old[it.key]
			switch {
			case !ok:
				marks[it.key] = added
			case !bytes.Equal(prev.raw, it.raw):
				marks[it.key] = changed
			}
		}
		for _, it := range l.items {
			if !seen[it.key] {
				gone = append(gone, it)
			}
		}
		l.refreshes++
		if len(marks) > 0 || len(gone) > 0 {
			l.marks, l.removed, l.changedAt = marks, gone, at
			l.nAdded, l.nChanged = 0, 0
			for _, m := range marks {
				if m == added {
					l.nAdded++
				} else {
					l.nChanged++
				}
			}
		} else {
			l.quiet++
		}
	}
	l.items, l.loaded, l.listed, l.loading, l.err, l.at = items, true, true, false, "", at
	l.filtered = nil
	l.gen++
}

// listRow is one row the list shows.
type listRow struct {
	it      item
	mark    mark
	removed bool
}

// rowView is what the list shows for a filter: the items that match it,
// then the removed ones (dim), ranked; unfiltered, every item in order
// and the removed ones last. Row i is made when it is asked for, so
// that a frame costs the rows it draws.
type rowView struct {
	l   *listing
	idx []int32 // nil: unfiltered
}

// len is the number of rows.
func (v rowView) len() int {
	if v.idx == nil {
		return len(v.l.items) + len(v.l.removed)
	}
	return len(v.idx)
}

// at is row i (0 ≤ i < len).
func (v rowView) at(i int) listRow {
	if v.idx != nil {
		i = int(v.idx[i])
	}
	l := v.l
	l.made++
	if i < len(l.items) {
		it := l.items[i]
		return listRow{it: it, mark: l.marks[it.key]}
	}
	return listRow{it: l.removed[i-len(l.items)], mark: removed, removed: true}
}

// item is the item behind index i of the rows (items, then removed).
func (l *listing) item(i int32) *item {
	if int(i) < len(l.items) {
		return &l.items[i]
	}
	return &l.removed[int(i)-len(l.items)]
}

// rank orders the matches of the lowercased filter f: the name itself, then
// names starting with f, then names containing it, then other text; -1 is
// no match.
func (l *listing) rank(it *item, f string) int {
	l.probes++
	switch {
	case it.lname == f || it.lkey == f:
		return 0
	case strings.HasPrefix(it.lname, f):
		return 1
	case strings.Contains(it.lname, f):
		return 2
	case strings.Contains(it.ltitle, f), strings.Contains(it.ldesc, f), strings.Contains(it.lkey, f):
		return 3
	}
	return -1
}

// rows are the rows shown for filter. The answer for the filter asked
// last is kept; a filter that extends a kept one (contains it) searches
// only that one's matches, since whatever contains the longer text
// contains the shorter.
func (l *listing) rows(filter string) rowView {
	f := strings.ToLower(strings.TrimSpace(filter))
	if f == "" {
		return rowView{l: l}
	}
	for len(l.filtered) > 0 && !strings.Contains(f, l.filtered[len(l.filtered)-1].f) {
		l.filtered = l.filtered[:len(l.filtered)-1]
	}
	if n := len(l.filtered); n > 0 && l.filtered[n-1].f == f {
		return rowView{l: l, idx: l.filtered[n-1].rows}
	}
	var match []int32
	var buckets [4][]int32
	look := func(i int32) {
		if r := l.rank(l.item(i), f); r >= 0 {
			match = append(match, i)
			buckets[r] = append(buckets[r], i)
		}
	}
	if n := len(l.filtered); n > 0 {
		for _, i := range l.filtered[n-1].match {
			look(i)
		}
	} else {
		for i := range int32(len(l.items) + len(l.removed)) {
			look(i)
		}
	}
	// Ranked, and within a rank the items before the removed ones, each
	// in list order: match is in list order and the items come first.
	rows := make([]int32, 0, len(match))
	nItems := int32(len(l.items))
	for _, b := range buckets {
		for _, i := range b {
			if i < nItems {
				rows = append(rows, i)
			}
		}
		for _, i := range b {
			if i >= nItems {
				rows = append(rows, i)
			}
		}
	}
	if len(l.filtered) == maxFiltered {
		l.filtered = append(l.filtered[:0], l.filtered[1:]...)
	}
	l.filtered = append(l.filtered, filtered{f: f, match: match, rows: rows})
	return rowView{l: l, idx: rows}
}

// Items from the protocol types.

func toolItems(ts []mcp.Tool) []item {
	out := make([]item, len(ts))
	for i := range ts {
		t := &ts[i]
		title := t.Title
		if title == "" && t.Annotations != nil {
			title = t.Annotations.Title
		}
		out[i] = item{key: t.Name, name: t.Name, title: title, desc: t.Description, raw: t.Raw, tool: t}
	}
	return out
}

func resourceItems(rs []mcp.Resource) []item {
	out := make([]item, len(rs))
	for i := range rs {
		r := &rs[i]
		out[i] = item{key: r.URI, name: r.Name, title: r.Title, desc: r.Description, raw: r.Raw, res: r}
	}
	return out
}

func templateItems(ts []mcp.ResourceTemplate) []item {
	out := make([]item, len(ts))
	for i := range ts {
		t := &ts[i]
		out[i] = item{key: t.URITemplate, name: t.Name, title: t.Title, desc: t.Description, raw: t.Raw, tmpl: t}
	}
	return out
}

func promptItems(ps []mcp.Prompt) []item {
	out := make([]item, len(ps))
	for i := range ps {
		p := &ps[i]
		out[i] = item{key: p.Name, name: p.Name, title: p.Title, desc: p.Description, raw: p.Raw, prompt: p}
	}
	return out
}

func skillItems(ss []skills.Skill) []item {
	out := make([]item, len(ss))
	for i := range ss {
		s := &ss[i]
		out[i] = item{key: s.URI, name: s.Name, desc: s.Description, raw: s.Raw, skill: s}
	}
	return out
}
