package answer

import (
	"errors"
	"net/url"
	"slices"
	"strings"
	"sync"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/mcptui/mcptui/internal/inert"
	"github.com/mcptui/mcptui/keymap"
	"github.com/mcptui/mcptui/model"
	"github.com/mcptui/mcptui/ui/kit"
)

// RootList is the client's list of roots, shared by whatever edits it (the
// roots/list answer editor, the catalog). Safe for concurrent use.
type RootList struct {
	mu    sync.Mutex
	roots []model.Root
	gen   int
}

// NewRootList starts a list (the --root flags).
func NewRootList(roots []model.Root) *RootList {
	return &RootList{roots: slices.Clone(roots)}
}

// Get returns a copy of the roots.
func (l *RootList) Get() []model.Root {
	l.mu.Lock()
	defer l.mu.Unlock()
	return slices.Clone(l.roots)
}

// Set replaces the roots and reports whether they changed.
func (l *RootList) Set(roots []model.Root) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	if slices.Equal(l.roots, roots) {
		return false
	}
	l.roots = slices.Clone(roots)
	l.gen++
	return true
}

// Gen counts the changes.
func (l *RootList) Gen() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.gen
}

// CheckRoot checks a root a person typed: a file:// URI (a plain absolute
// path is turned into one).
func CheckRoot(uri string) (string, error) {
	uri = strings.TrimSpace(uri)
	if strings.HasPrefix(uri, "/") {
		uri = (&url.URL{Scheme: "file", Path: uri}).String()
	}
	u, err := url.Parse(uri)
	if err != nil || u.Scheme != "file" || u.Path == "" {
		return "", errors.New("a root is a file:// URI or an absolute path")
	}
	return uri, nil
}

// Roots answers roots/list, or edits the client's roots outside any
// question (q nil). Changes are kept in the RootList when the person
// answers (or saves).
type Roots struct {
	q       *model.Question
	opts    Options
	roots   []model.Root
	cursor  int
	adding  bool
	field   int // 0 uri, 1 name
	uri     kit.LineEdit
	name    kit.LineEdit
	err     string
	outcome *Outcome
	// Changed is set once the outcome changed the RootList: the host
	// sends notifications/roots/list_changed (initialize era).
	Changed bool
}

// NewRoots opens the roots editor on the current list.
func NewRoots(q *model.Question, opts Options) *Roots {
	if opts.Roots == nil {
		opts.Roots = NewRootList(nil)
	}
	return &Roots{q: q, opts: opts, roots: opts.Roots.Get()}
}

// Title implements Editor.
func (r *Roots) Title() string {
	if r.q == nil {
		return "Roots — the directories the client offers the server"
	}
	return "Roots " + inert.Fit(questionID(r.q), 24) + " — the server asks for the client's roots"
}

// Done implements Editor.
func (r *Roots) Done() (Outcome, bool) {
	if r.outcome == nil {
		return Outcome{}, false
	}
	return *r.outcome, true
}

// Keys implements Editor.
func (r *Roots) Keys() []key.Binding {
	a := r.opts.keys().Answer
	if r.adding {
		return []key.Binding{keymap.Described(a.NextPart, "uri/name"), keymap.Described(r.opts.keys().Composer.Choose, "adds"), keymap.Described(a.Close, "back")}
	}
	send := keymap.Described(a.Send, "sends these roots")
	if r.q == nil {
		send = keymap.Described(a.Send, "saves")
	}
	return []key.Binding{a.Add, a.Remove, send, keymap.Described(a.Close, "close")}
}

// Update implements Editor.
func (r *Roots) Update(msg tea.Msg) tea.Cmd {
	if p, ok := msg.(tea.PasteMsg); ok && r.adding {
		r.input().Insert(p.Content)
		return nil
	}
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return nil
	}
	if r.adding {
		r.addKey(k)
		return nil
	}
	km := r.opts.keys()
	a := km.Answer
	switch {
	case key.Matches(k, a.ScrollUp):
		r.cursor = max(r.cursor-1, 0)
	case key.Matches(k, a.ScrollDown):
		r.cursor = min(r.cursor+1, max(len(r.roots)-1, 0))
	case key.Matches(k, a.Add):
		r.adding, r.field, r.err = true, 0, ""
		r.uri, r.name = kit.NewLineEdit("file://"), kit.NewLineEdit("")
	case key.Matches(k, a.Remove):
		if r.cursor < len(r.roots) {
			r.roots = slices.Delete(r.roots, r.cursor, r.cursor+1)
			r.cursor = max(min(r.cursor, len(r.roots)-1), 0)
		}
	case key.Matches(k, a.Send, km.Composer.Choose):
		r.Changed = r.opts.Roots.Set(r.roots)
		if r.q == nil {
			r.outcome = &Outcome{}
		} else {
			r.outcome = &Outcome{Answer: model.RootsAnswer(r.roots)}
		}
	case key.Matches(k, a.Close):
		r.outcome = &Outcome{Closed: true}
	}
	return nil
}

func (r *Roots) input() *kit.LineEdit {
	if r.field == 0 {
		return &r.uri
	}
	return &r.name
}

func (r *Roots) addKey(k tea.KeyPressMsg) {
	km := r.opts.keys()
	a := km.Answer
	switch {
	case key.Matches(k, a.Close):
		r.adding, r.err = false, ""
	case key.Matches(k, a.NextPart, a.PrevPart, km.List.Up, km.List.Down) && k.Text == "":
		r.field = 1 - r.field
	case key.Matches(k, km.Composer.Choose):
		uri, err := CheckRoot(r.uri.Value())
		if err != nil {
			r.err = err.Error()
			return
		}
		r.roots = append(r.roots, model.Root{URI: uri, Name: strings.TrimSpace(r.name.Value())})
		r.cursor, r.adding, r.err = len(r.roots)-1, false, ""
	default:
		r.input().Key(k, km.Text)
	}
}

// View implements Editor.
func (r *Roots) View(w, h int) []string {
	st := r.opts.Styles
	var out []string
	if r.q != nil {
		out = append(out, kit.Row(st, w, false, kit.Own(" The server asks which roots (directories) the client offers. Edit the list, then send it.", w, st.Muted)))
	} else {
		out = append(out, kit.Row(st, w, false, kit.Own(" The roots the client offers; saving a change tells the server (notifications/roots/list_changed).", w, st.Muted)))
	}
	out = append(out, kit.Blank(w))
	if len(r.roots) == 0 {
		out = append(out, kit.Row(st, w, false, kit.Own("   (no roots: the answer is an empty list)", w, st.Muted)))
	}
	for i, root := range r.roots {
		name := ""
		if root.Name != "" {
			name = "  " + root.Name
		}
		out = append(out, kit.Row(st, w, i == r.cursor && !r.adding,
			kit.Txt("   • ", st.Accent), kit.SrvFree(root.URI, w*2/3, st.Text), kit.SrvFree(name, w/3, st.Muted)))
	}
	if r.adding {
		cur := st.Selected
		out = append(out, kit.Blank(w),
			kit.Row(st, w, false, kit.Own("   uri  ", 8, st.Muted), kit.Seg{S: r.uri.View(w-9, r.field == 0, st.Text, cur, st.Muted, "file:///path"), St: st.Text}),
			kit.Row(st, w, false, kit.Own("   name ", 8, st.Muted), kit.Seg{S: r.name.View(w-9, r.field == 1, st.Text, cur, st.Muted, "(optional)"), St: st.Text}))
	}
	if r.err != "" {
		out = append(out, kit.Row(st, w, false, kit.Own("   ✗ "+r.err, w, st.Error)))
	}
	out = kit.Pad(out, w, h-1)
	return append(out, kit.Row(st, w, false, kit.Own(" "+keymap.HintFit(w-1, r.Keys()...), w, st.Subtle)))
}
