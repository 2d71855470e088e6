package explorer

import (
	"bytes"
	"strings"
	"time"

	"github.com/mcptui/mcptui/mcp"
	"github.com/mcptui/mcptui/skills"
)

// Kind is one of the explorer's lists.
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
}

// diff is how many items were added, removed and changed by the last
// refresh.
func (l *listing) diff() (add, rem, chg int) {
	for _, m := range l.marks {
		switch m {
		case added:
			add++
		case changed:
			chg++
		}
	}
	return add, len(l.removed), chg
}

// replace installs a new listing and computes the diff with the old one
// (not for the first listing). A listing that changes nothing keeps the
// previous diff, so a burst of list-changed notifications does not wipe
// what the person has not seen yet.
func (l *listing) replace(items []item, at time.Time) {
	first := !l.listed
	old := map[string]item{}
	for _, it := range l.items {
		old[it.key] = it
	}
	if !first {
		marks, gone := map[string]mark{}, []item(nil)
		seen := map[string]bool{}
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
		} else {
			l.quiet++
		}
	}
	l.items, l.loaded, l.listed, l.loading, l.err, l.at = items, true, true, false, "", at
}

// rows are what the list shows: the items that match the filter, then the
// removed ones (dim), in order.
type listRow struct {
	it      item
	mark    mark
	removed bool
}

func (l *listing) rows(filter string) []listRow {
	f := strings.ToLower(strings.TrimSpace(filter))
	// rank orders the matches: the name itself, then names starting with
	// the filter, then names containing it, then other text.
	rank := func(it item) int {
		if f == "" {
			return 0
		}
		name := strings.ToLower(it.name)
		switch {
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
	var out []listRow
	for r := 0; r <= 3; r++ {
		for _, it := range l.items {
			if rank(it) == r {
				out = append(out, listRow{it: it, mark: l.marks[it.key]})
			}
		}
		for _, it := range l.removed {
			if rank(it) == r {
				out = append(out, listRow{it: it, mark: removed, removed: true})
			}
		}
		if f == "" {
			break // unfiltered: in order, the removed ones last
		}
	}
	return out
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
