// Package keymap holds every key binding of the inspector in one place,
// each with its help text, grouped by where it works (gh-dash style): the
// ui matches keys against these bindings and the footer and the ? overlay
// show their help. Bindings can be changed by name with Rebind.
package keymap

import (
	"fmt"
	"reflect"
	"sort"
	"strings"

	"charm.land/bubbles/v2/key"
)

// Global keys work everywhere outside text entry.
type Global struct {
	Quit, Help, NextPane, PrevPane, Zoom, Restart, Compose key.Binding
	// Catalog focuses the catalog (tools, resources, templates, prompts,
	// its Log tab), pane 6. A keymap file may still name it by its old
	// name, global.explorer (see Rebind).
	Catalog key.Binding
	// Version reconnects at another protocol version (history kept).
	Version key.Binding
	// Pane1..Pane6 focus a pane directly.
	Pane1, Pane2, Pane3, Pane4, Pane5, Pane6 key.Binding
	// Pane7 focuses the server's log, Pane8 the server view.
	Pane7, Pane8 key.Binding
	// LogLevel picks the log level asked of the server, from anywhere.
	LogLevel key.Binding
}

// List keys move the selection of the focused pane.
type List struct {
	Up, Down, PageUp, PageDown, Top, Bottom, Left, Right key.Binding
}

// InFlight keys act on the selected request (pane 1, Requests).
type InFlight struct {
	Cancel, Extend key.Binding
	// Open shows the outcome rendered (in the catalog); OpenRequest and
	// OpenResponse the raw lines.
	Open, OpenRequest, OpenResponse key.Binding
	// PostMortem writes the request's redacted Markdown post-mortem to a
	// file and copies its path.
	PostMortem key.Binding
}

// Pending keys answer the selected question.
type Pending struct {
	Reply, Approve, Edit, Reject, Open key.Binding
	// Form opens the question's own editor (a form for elicitation, the
	// sampling reply, the roots list).
	Form key.Binding
	// Policies opens the answer policies (ask, answer, reject per kind of
	// question); PolicyCycle changes the selected one there.
	Policies, PolicyCycle key.Binding
}

// Traffic keys act on the traffic log.
type Traffic struct {
	Filter, ClearFilter, Open, Jump, Copy, Follow key.Binding
	// KeepFilter ends typing the filter and keeps it.
	KeepFilter key.Binding
}

// Subscriptions keys act on the selected subscription.
type Subscriptions struct {
	Listen, Close, Open key.Binding
}

// Viewer keys fold and copy in the JSON viewer.
type Viewer struct {
	Fold, FoldAll, UnfoldAll, CopyValue key.Binding
}

// Listen keys pick a new subscription's filter.
type Listen struct {
	Toggle key.Binding
}

// Overlay keys work in the viewer, editors and dialogs.
type Overlay struct {
	Close, Submit, NextField, External key.Binding
}

// Tap keys work in mcptui attach: breakpoints on a tapped session. They
// are control keys, so that they never reach a text field of the inspector.
type Tap struct {
	// Break sets (or clears) the breakpoint filter.
	Break key.Binding
	// Forward, Drop, Edit and Answer resolve the oldest held line.
	Forward, Drop, Edit, Answer key.Binding
}

// KeyMap is every binding.
type KeyMap struct {
	Global        Global
	List          List
	InFlight      InFlight
	Pending       Pending
	Traffic       Traffic
	Subscriptions Subscriptions
	Viewer        Viewer
	Listen        Listen
	Overlay       Overlay
	Tap           Tap
	// Log and Server are the keys of the log view (pane 7) and the
	// server view (pane 8); see views.go.
	Log    Log
	Server Server
	// Network is the network view's (pane 5 of an HTTP server).
	Network Network
	// The screens inside panes and overlays, each in its own file.
	Catalog  Catalog
	Result   Result
	Form     Form
	Answer   Answer
	Text     Text
	Composer Composer
	Timeline Timeline
	Picker   Picker
}

func b(keys []string, help, desc string) key.Binding {
	return key.NewBinding(key.WithKeys(keys...), key.WithHelp(help, desc))
}

func k(keys ...string) []string { return keys }

// Default is the default key map: vim-style movement, arrows and the mouse
// welcome.
func Default() KeyMap {
	return KeyMap{
		Global: Global{
			Quit:     b(k("q", "ctrl+c"), "q", "quit"),
			Help:     b(k("?", "f1"), "?", "help"),
			NextPane: b(k("tab"), "tab", "next pane"),
			PrevPane: b(k("shift+tab"), "shift+tab", "previous pane"),
			Zoom:     b(k("z"), "z", "zoom"),
			Restart:  b(k("r"), "r", "restart server"),
			Version:  b(k("V"), "V", "other version"),
			Compose:  b(k("n"), "n", "new request"),
			Catalog:  b(k("E"), "E", "catalog"),
			Pane1:    b(k("1"), "1", "requests"),
			Pane2:    b(k("2"), "2", "server asks"),
			Pane3:    b(k("3"), "3", "traffic"),
			Pane4:    b(k("4"), "4", "subscriptions"),
			Pane5:    b(k("5"), "5", "stderr/network"),
			Pane6:    b(k("6"), "6", "catalog"),
			Pane7:    b(k("7"), "7", "log"),
			Pane8:    b(k("8"), "8", "server"),
			LogLevel: b(k("L"), "L", "log level"),
		},
		List: List{
			Up:       b(k("up", "k"), "↑/k", "up"),
			Down:     b(k("down", "j"), "↓/j", "down"),
			PageUp:   b(k("pgup", "ctrl+u"), "pgup", "page up"),
			PageDown: b(k("pgdown", "ctrl+d"), "pgdn", "page down"),
			Top:      b(k("home", "g"), "g", "top"),
			Bottom:   b(k("end", "G"), "G", "bottom"),
			Left:     b(k("left", "h"), "←/h", "scroll left"),
			Right:    b(k("right", "l"), "→/l", "scroll right"),
		},
		InFlight: InFlight{
			Cancel:       b(k("c"), "c", "cancel"),
			Extend:       b(k("+"), "+", "extend 60s"),
			Open:         b(k("enter"), "enter", "outcome"),
			OpenRequest:  b(k("i"), "i", "request"),
			OpenResponse: b(k("o"), "o", "response"),
			PostMortem:   b(k("m"), "m", "post-mortem file"),
		},
		Pending: Pending{
			Reply:   b(k("enter"), "enter", "answer"),
			Approve: b(k("a"), "a", "approve prepared"),
			Edit:    b(k("e"), "e", "edit raw JSON"),
			Reject:  b(k("x"), "x", "reject"),
			Open:    b(k("o"), "o", "open request"),
			Form:    b(k("f"), "f", "answer"),
			// The answer policies (issue 18 item 4).
			Policies:    b(k("p"), "p", "answer policies"),
			PolicyCycle: b(k("space", "enter"), "space", "ask/answer/reject"),
		},
		Traffic: Traffic{
			Filter:      b(k("/"), "/", "filter"),
			ClearFilter: b(k("esc"), "esc", "clear filter"),
			KeepFilter:  b(k("enter"), "enter", "apply"),
			Open:        b(k("enter"), "enter", "open"),
			Jump:        b(k("%"), "%", "request ↔ response"),
			Copy:        b(k("y"), "y", "copy line"),
			Follow:      b(k("f"), "f", "follow newest"),
		},
		Subscriptions: Subscriptions{
			Listen: b(k("s"), "s", "subscribe"),
			Close:  b(k("x"), "x", "close subscription"),
			Open:   b(k("enter"), "enter", "open request"),
		},
		Viewer: Viewer{
			Fold:      b(k("space", "enter"), "space", "fold/unfold"),
			FoldAll:   b(k("C"), "C", "fold all"),
			UnfoldAll: b(k("O"), "O", "unfold all"),
			CopyValue: b(k("Y"), "Y", "copy value"),
		},
		Listen: Listen{
			Toggle: b(k("space"), "space", "toggle"),
		},
		Overlay: Overlay{
			Close:     b(k("esc"), "esc", "close"),
			Submit:    b(k("ctrl+s"), "ctrl+s", "send"),
			NextField: b(k("tab"), "tab", "next field"),
			External:  b(k("ctrl+e"), "ctrl+e", "edit in $EDITOR"),
		},
		Tap: Tap{
			Break:   b(k("ctrl+k"), "^k", "breakpoint"),
			Forward: b(k("ctrl+f"), "^f", "forward held"),
			Drop:    b(k("ctrl+x"), "^x", "drop held"),
			Edit:    b(k("ctrl+e"), "^e", "edit held"),
			Answer:  b(k("ctrl+a"), "^a", "answer held"),
		},
		Log:      defaultLog(),
		Server:   defaultServer(),
		Network:  defaultNetwork(),
		Catalog:  defaultCatalog(),
		Result:   defaultResult(),
		Form:     defaultForm(),
		Answer:   defaultAnswer(),
		Text:     defaultText(),
		Composer: defaultComposer(),
		Timeline: defaultTimeline(),
		Picker:   DefaultPicker(),
	}
}

// Named returns every binding by its name, "group.field" in lower case
// (for example "pending.approve"), for Rebind and for listing. The names
// come from the struct fields, so a binding added to a group is named
// without another edit.
func (m *KeyMap) Named() map[string]*key.Binding {
	out := map[string]*key.Binding{}
	bindingType := reflect.TypeOf(key.Binding{})
	groups := reflect.ValueOf(m).Elem()
	for i := range groups.NumField() {
		g := groups.Field(i)
		if g.Kind() != reflect.Struct {
			continue
		}
		for j := range g.NumField() {
			f := g.Field(j)
			if f.Type() != bindingType {
				continue
			}
			name := strings.ToLower(groups.Type().Field(i).Name + "." + g.Type().Field(j).Name)
			out[name] = f.Addr().Interface().(*key.Binding)
		}
	}
	return out
}

// OldName is the name a binding was known by before it was renamed, so
// that keymap files written then still rebind it: global.explorer is
// global.catalog. It returns name itself when name is not an old one.
func OldName(name string) string {
	if name == "global.explorer" {
		return "global.catalog"
	}
	return name
}

// Rebind sets the keys of bindings by name (see Named; an old name, see
// OldName, stands for its new one); the help shows the first key. An
// unknown name, an empty key list, or a binding named twice (by its old
// and its new name) is an error and changes nothing.
func (m *KeyMap) Rebind(keys map[string][]string) error {
	named := m.Named()
	var bad []string
	seen := map[string]string{}
	names := make([]string, 0, len(keys))
	for name := range keys {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		cur, ks := OldName(name), keys[name]
		if _, ok := named[cur]; !ok || len(ks) == 0 {
			bad = append(bad, name)
		} else if other, twice := seen[cur]; twice {
			bad = append(bad, other+" and "+name+" (one binding)")
		}
		seen[cur] = name
	}
	if len(bad) > 0 {
		sort.Strings(bad)
		return fmt.Errorf("keymap: cannot rebind %s", strings.Join(bad, ", "))
	}
	for name, ks := range keys {
		bd := named[OldName(name)]
		bd.SetKeys(ks...)
		bd.SetHelp(ks[0], bd.Help().Desc)
	}
	return nil
}
