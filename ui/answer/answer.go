package answer

import (
	"encoding/json"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/mcptui/mcptui/keymap"
	"github.com/mcptui/mcptui/model"
	"github.com/mcptui/mcptui/themes"
)

// Outcome is what the person decided.
type Outcome struct {
	// Answer is the result to send (an elicitation's accept, decline or
	// cancel is an Answer too).
	Answer json.RawMessage
	// Error is a JSON-RPC error to send instead (a rejected sampling
	// request).
	Error *model.RPCError
	// Closed means the editor was closed without deciding (esc): the
	// question keeps waiting.
	Closed bool
}

// Editor is an answer editor.
type Editor interface {
	// Update handles a message (a key, a paste, the result of its own
	// Cmds).
	Update(msg tea.Msg) tea.Cmd
	// View draws the editor in exactly h lines of w cells.
	View(w, h int) []string
	// Title says what is being answered, for the host's frame.
	Title() string
	// Done returns the outcome once the person has decided.
	Done() (Outcome, bool)
	// Keys are the bindings that work now, most useful first (the
	// editor's hint line and the ? help).
	Keys() []key.Binding
}

// Options are what the editors need besides the question.
type Options struct {
	Styles *themes.Styles
	// Roots is the client's list of roots, shared with whoever else edits
	// it; nil means an empty list.
	Roots *RootList
	// Open opens a URL with the system opener; nil means OpenURL.
	Open func(url string) error
	// Now is the clock (dates in forms); nil means time.Now.
	Now func() time.Time
	// Keys are the bindings (the user's); nil means keymap.Default().
	Keys *keymap.KeyMap
}

// keys is the key map of opts.
func (o Options) keys() keymap.KeyMap {
	if o.Keys != nil {
		return *o.Keys
	}
	return keymap.Default()
}

// New opens the editor for a question's kind, or nil for a kind that has
// none (ping, unknown methods).
func New(q *model.Question, opts Options) Editor {
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.Open == nil {
		opts.Open = OpenURL
	}
	if opts.Roots == nil {
		opts.Roots = NewRootList(nil)
	}
	if opts.Keys == nil {
		k := keymap.Default()
		opts.Keys = &k
	}
	switch q.Kind {
	case model.AskElicitForm:
		return NewElicit(q, opts)
	case model.AskElicitURL:
		return NewURL(q, opts)
	case model.AskSampling:
		return NewSampling(q, opts)
	case model.AskRoots:
		return NewRoots(q, opts)
	}
	return nil
}

// questionID is how a question is named in titles.
func questionID(q *model.Question) string {
	if q.RequestID != nil {
		return "#" + string(q.RequestID)
	}
	return "input " + q.InputKey
}

// Action is an elicitation answer's action ("" when it has none).
func Action(ans []byte) string {
	var a struct {
		Action string `json:"action"`
	}
	_ = json.Unmarshal(ans, &a)
	return a.Action
}
