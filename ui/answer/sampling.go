package answer

import (
	"encoding/json"
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textarea"
	tea "charm.land/bubbletea/v2"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/mcptui/mcptui/internal/inert"
	"github.com/mcptui/mcptui/internal/schemaform"
	"github.com/mcptui/mcptui/keymap"
	"github.com/mcptui/mcptui/model"
	"github.com/mcptui/mcptui/ui/form"
	"github.com/mcptui/mcptui/ui/kit"
)

// The stop reasons a reply can give.
var stopReasons = []string{"endTurn", "stopSequence", "maxTokens", "toolUse"}

// Regions of the sampling editor, in tab order.
const (
	regionReply = iota
	regionSettings
	regionConversation
	regions
)

// Settings rows.
const (
	settingModel = iota
	settingStop
	settingKind
	settingTool
)

// Sampling answers sampling/createMessage: the person is the model.
type Sampling struct {
	q    *model.Question
	opts Options
	req  samplingRequest

	region  int
	setting int
	scroll  int

	modelName kit.LineEdit
	stop      int
	toolUse   bool
	tool      int
	forms     map[int]*form.Model
	text      textarea.Model

	raw    bool
	rawTA  textarea.Model
	err    string
	asking bool

	outcome *Outcome

	// conv is the request drawn as far as the window has reached.
	conv lazyTranscript
}

// NewSampling opens a sampling request.
func NewSampling(q *model.Question, opts Options) *Sampling {
	s := &Sampling{q: q, opts: opts, modelName: kit.NewLineEdit(model.HumanModel), forms: map[int]*form.Model{}}
	_ = json.Unmarshal(q.Params, &s.req)
	s.text = kit.NewTextArea("", opts.Styles, false)
	s.text.Placeholder = "Write the model's reply…"
	return s
}

// Title implements Editor.
func (s *Sampling) Title() string {
	return "Sampling " + inert.Fit(questionID(s.q), 24) + " — you are the model"
}

// Done implements Editor.
func (s *Sampling) Done() (Outcome, bool) {
	if s.outcome == nil {
		return Outcome{}, false
	}
	return *s.outcome, true
}

// Keys implements Editor.
func (s *Sampling) Keys() []key.Binding {
	a := s.opts.keys().Answer
	switch {
	case s.asking:
		return []key.Binding{keymap.Described(a.Confirm, "reject the request (error -1)"), keymap.Described(a.Close, "back (any other key too)")}
	case s.raw:
		return []key.Binding{keymap.Described(a.Send, "sends this JSON"), keymap.Described(a.Raw, "back to the reply"), a.Close}
	}
	keys := []key.Binding{a.Send, a.NextPart}
	if len(s.req.Tools) > 0 {
		keys = append(keys, a.ToolUse)
	}
	return append(keys, a.Raw, a.Reject, a.Close)
}

// SetText sets the reply text (a host's draft).
func (s *Sampling) SetText(text string) { s.text.SetValue(text) }

// Text is the reply typed so far (kept as a draft when the editor closes).
func (s *Sampling) Text() string { return s.text.Value() }

// Update implements Editor.
func (s *Sampling) Update(msg tea.Msg) tea.Cmd {
	if p, ok := msg.(tea.PasteMsg); ok {
		return s.paste(p)
	}
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return nil
	}
	a := s.opts.keys().Answer
	if s.asking {
		s.asking = false
		if key.Matches(k, a.Confirm) {
			e := model.DefaultRejection(s.q)
			s.outcome = &Outcome{Error: &e}
		}
		return nil
	}
	switch {
	case key.Matches(k, a.Close):
		s.outcome = &Outcome{Closed: true}
		return nil
	case key.Matches(k, a.Send):
		s.send()
		return nil
	case key.Matches(k, a.Reject):
		s.asking = true
		return nil
	case key.Matches(k, a.Raw):
		s.toggleRaw()
		return nil
	}
	if s.raw {
		var cmd tea.Cmd
		s.rawTA, cmd = s.rawTA.Update(msg)
		return cmd
	}
	switch {
	case key.Matches(k, a.NextPart):
		s.focus((s.region + 1) % regions)
		return nil
	case key.Matches(k, a.PrevPart):
		s.focus((s.region + regions - 1) % regions)
		return nil
	case key.Matches(k, a.ToolUse):
		if len(s.req.Tools) > 0 {
			s.setToolUse(!s.toolUse)
		}
		return nil
	}
	switch s.region {
	case regionConversation:
		switch {
		case key.Matches(k, a.ScrollUp):
			s.scroll = max(s.scroll-1, 0)
		case key.Matches(k, a.ScrollDown):
			s.scroll++
		case key.Matches(k, a.PageUp):
			s.scroll = max(s.scroll-10, 0)
		case key.Matches(k, a.PageDown):
			s.scroll += 10
		}
	case regionSettings:
		s.settingKey(k)
	case regionReply:
		if s.toolUse {
			return s.toolForm().Update(msg)
		}
		var cmd tea.Cmd
		s.text, cmd = s.text.Update(msg)
		return cmd
	}
	return nil
}

func (s *Sampling) paste(p tea.PasteMsg) tea.Cmd {
	var cmd tea.Cmd
	switch {
	case s.raw:
		s.rawTA, cmd = s.rawTA.Update(p)
	case s.region == regionReply && s.toolUse:
		cmd = s.toolForm().Update(p)
	case s.region == regionReply:
		s.text, cmd = s.text.Update(p)
	case s.region == regionSettings && s.setting == settingModel:
		s.modelName.Insert(p.Content)
	}
	return cmd
}

// focus moves to a region.
func (s *Sampling) focus(r int) {
	s.region = r
	if r == regionReply && !s.toolUse {
		s.text.Focus()
	} else {
		s.text.Blur()
	}
}

// settingRows are the settings shown: the tool ones only when tools are
// offered.
func (s *Sampling) settingRows() int {
	switch {
	case len(s.req.Tools) == 0:
		return 2
	case s.toolUse:
		return 4
	}
	return 3
}

func (s *Sampling) settingKey(k tea.KeyPressMsg) {
	km := s.opts.keys()
	a := km.Answer
	switch {
	case key.Matches(k, km.List.Up) && k.Text == "":
		s.setting = max(s.setting-1, 0)
		return
	case key.Matches(k, km.List.Down, km.Composer.Choose) && k.Text == "":
		s.setting = min(s.setting+1, s.settingRows()-1)
		return
	}
	step := 0
	switch {
	case key.Matches(k, a.StepBack):
		step = -1
	case key.Matches(k, a.Step):
		step = 1
	}
	switch s.setting {
	case settingModel:
		s.modelName.Key(k, km.Text)
	case settingStop:
		if step != 0 {
			s.stop = (s.stop + step + len(stopReasons)) % len(stopReasons)
		}
	case settingKind:
		if step != 0 {
			s.setToolUse(!s.toolUse)
		}
	case settingTool:
		if step != 0 {
			s.tool = (s.tool + step + len(s.req.Tools)) % len(s.req.Tools)
		}
	}
}

// setToolUse switches between a text reply and a tool use; the stop reason
// follows.
func (s *Sampling) setToolUse(on bool) {
	s.toolUse = on
	if on {
		s.stop = 3
	} else if s.stop == 3 {
		s.stop = 0
	}
	s.focus(s.region)
}

// toolForm is the input form of the chosen tool.
func (s *Sampling) toolForm() *form.Model {
	if f, ok := s.forms[s.tool]; ok {
		return f
	}
	sf, err := schemaform.Compile(s.req.Tools[s.tool].InputSchema)
	if err != nil {
		sf, _ = schemaform.Compile(nil)
	}
	f := form.New(sf, nil, s.opts.Styles)
	f.SetKeys(s.opts.keys(), s.opts.keys().Answer.Send)
	f.SetClock(s.opts.Now)
	s.forms[s.tool] = f
	return f
}

// build makes the result from the reply.
func (s *Sampling) build() (json.RawMessage, error) {
	name := strings.TrimSpace(s.modelName.Value())
	if name == "" {
		return nil, fmt.Errorf("the model name is empty")
	}
	res := struct {
		Role       string `json:"role"`
		Content    any    `json:"content"`
		Model      string `json:"model"`
		StopReason string `json:"stopReason"`
	}{Role: "assistant", Model: name, StopReason: stopReasons[s.stop]}
	if s.toolUse {
		input, ok := s.toolForm().Submit()
		if !ok {
			return nil, fmt.Errorf("the tool input has problems: see the fields marked ✗")
		}
		res.Content = []any{map[string]any{"type": "tool_use", "id": s.toolUseID(),
			"name": s.req.Tools[s.tool].Name, "input": input}}
	} else {
		if strings.TrimSpace(s.text.Value()) == "" {
			return nil, fmt.Errorf("the reply is empty")
		}
		res.Content = map[string]string{"type": "text", "text": s.text.Value()}
	}
	b, err := json.Marshal(res)
	return b, err
}

// toolUseID numbers tool uses after those already in the conversation.
func (s *Sampling) toolUseID() string {
	n := 1
	for _, m := range s.req.Messages {
		for _, b := range blocks(m.Content) {
			if b.Type == "tool_use" {
				n++
			}
		}
	}
	return fmt.Sprintf("mcptui_call_%d", n)
}

// send checks and sends the reply (or the raw JSON).
func (s *Sampling) send() {
	var ans json.RawMessage
	if s.raw {
		ans = json.RawMessage(s.rawTA.Value())
	} else {
		b, err := s.build()
		if err != nil {
			s.err = err.Error()
			return
		}
		ans = b
	}
	if err := model.ValidateAnswer(s.q, ans); err != nil {
		s.err = err.Error()
		return
	}
	s.err = ""
	s.outcome = &Outcome{Answer: ans}
}

// toggleRaw opens the raw JSON of the reply, or goes back to the reply.
func (s *Sampling) toggleRaw() {
	if s.raw {
		s.raw, s.err = false, ""
		return
	}
	b, err := s.build()
	if err != nil {
		b = model.SamplingAnswer(s.text.Value())
	}
	v := jsontext.Value(b)
	_ = v.Indent(jsontext.WithIndent("  "))
	s.rawTA = kit.NewTextArea(kit.JSONSafe(string(v)), s.opts.Styles, true)
	s.raw, s.err = true, ""
}
