package catalog

import (
	"charm.land/bubbles/v2/key"
	"encoding/json"
	"fmt"
	"github.com/mcptui/mcptui/internal/backend"
	"github.com/mcptui/mcptui/keymap"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/mcptui/mcptui/internal/schemaform"
	"github.com/mcptui/mcptui/mcp"
	"github.com/mcptui/mcptui/ui/catalog/argstore"
	"github.com/mcptui/mcptui/ui/form"
)

// actionKind is what a form is for.
type actionKind int

const (
	actTool actionKind = iota
	actPrompt
	actTemplate
)

// action is a form being filled before a call: a tool's arguments, a
// prompt's arguments, a template's variables.
type action struct {
	kind actionKind
	it   item
	form *form.Model
	tpl  *uriTemplate
	// Tool calls only: the call options, and whether they are being
	// edited.
	opts     *form.Model
	editOpts bool
	// Completion suggestions for the focused field.
	sugg     []string
	suggMore bool
	suggFor  string
	suggSel  int
	suggSeq  int
	lastText string
	err      string
}

// storeKind is the argstore kind of an action.
func (a *action) storeKind() string {
	return [...]string{argstore.Tool, argstore.Prompt, argstore.Template}[a.kind]
}

// optionsSchema is the schema of a tool call's options.
func optionsSchema(taskSupport string, def time.Duration) string {
	task := ""
	switch taskSupport {
	case "optional":
		task = `,"task":{"type":"boolean","title":"As a task","description":"call it task-augmented: the server answers at once with a task, whose status and result the catalog follows (execution.taskSupport is optional)","default":false}`
	case "required":
		task = `,"task":{"type":"boolean","title":"As a task","description":"the tool requires task augmentation (execution.taskSupport is required)","default":true}`
	}
	return `{"type":"object","properties":{` +
		`"timeout":{"type":"string","title":"Timeout","description":"` + timeoutHelp(def) + `"},` +
		`"progress":{"type":"boolean","title":"Progress","description":"ask for progress notifications (sends a progressToken) and show them","default":true},` +
		`"resetOnProgress":{"type":"boolean","title":"Reset on progress","description":"each progress notification restarts the timer","default":true},` +
		`"meta":{"type":"object","title":"_meta","description":"a JSON object sent as params._meta (the progress token is added to it)","additionalProperties":true}` +
		task + `}}`
}

// DefaultTimeoutText names the timer of a call that sets none, the
// command line's --timeout: "5s", "none", or "" when unknown.
func DefaultTimeoutText(def time.Duration) string {
	switch {
	case def > 0:
		return def.String()
	case def < 0:
		return "none"
	}
	return ""
}

// timeoutHelp is the options form's help on its timeout field.
func timeoutHelp(def time.Duration) string {
	if t := DefaultTimeoutText(def); t != "" {
		return "the call's timer, such as 30s, 2m or none; empty for the default, " + t + " (--timeout)"
	}
	return "the call's timer, such as 30s, 2m or none; empty for the connection's default"
}

// taskSupport is a tool's execution.taskSupport ("" when absent).
func taskSupport(t *mcp.Tool) string {
	var e struct {
		TaskSupport string `json:"taskSupport"`
	}
	_ = json.Unmarshal(t.Execution, &e)
	return e.TaskSupport
}

// open starts the action for the selected item: a tool's form, a
// prompt's form, a template's form, or a resource's read.
func (m *Model) open(r *listRow) tea.Cmd {
	if r.removed {
		m.say(true, "this one is gone from the server's list")
		return nil
	}
	it := r.it
	var a *action
	switch {
	case it.res != nil:
		return m.read(it.res.URI, "read "+it.res.URI)
	case it.tool != nil:
		return m.buildForm(it)
	case it.skill != nil:
		return m.readSkill(*it.skill)
	case it.prompt != nil:
		a = &action{kind: actPrompt, it: it, form: form.New(promptSchema(it.prompt), nil, m.st)}
	case it.tmpl != nil:
		tpl, err := parseTemplate(it.tmpl.URITemplate)
		if err != nil {
			m.say(true, "the URI template does not parse: "+err.Error())
			return nil
		}
		a = &action{kind: actTemplate, it: it, tpl: tpl, form: form.New(templateSchema(tpl), nil, m.st)}
	default:
		return nil
	}
	return m.openForm(a)
}

// formMsg is a tool's form, compiled from its input schema off the UI
// goroutine: a server's schema can be large.
type formMsg struct {
	seq  int
	it   item
	form *schemaform.Form
	err  error
}

// syncSchemaBytes is the largest input schema compiled on the UI
// goroutine, so that the keys typed right after enter reach the form; a
// larger one is compiled in a Cmd.
const syncSchemaBytes = 32 << 10

// buildForm compiles a tool's input schema, in a Cmd when it is large;
// the form opens when it is ready (formReady), and keys are answered
// meanwhile.
func (m *Model) buildForm(it item) tea.Cmd {
	m.seq++
	m.building = m.seq
	seq, schema := m.seq, it.tool.InputSchema
	compile := func() tea.Msg {
		f, err := schemaform.Compile(schema)
		return formMsg{seq: seq, it: it, form: f, err: err}
	}
	if len(schema) <= syncSchemaBytes {
		return m.formReady(compile().(formMsg))
	}
	m.say(false, "building the form for "+it.name+"…")
	return compile
}

// formReady opens the form built by buildForm, unless the person moved on
// (another entry opened, or a page left) while it was being built.
func (m *Model) formReady(msg formMsg) tea.Cmd {
	if r := m.current(); msg.seq != m.building || m.page != pageList || r == nil || r.it.key != msg.it.key {
		return nil
	}
	m.building = 0
	m.say(false, "")
	f := msg.form
	switch {
	case msg.err != nil:
		m.say(true, "the input schema is not usable: "+msg.err.Error())
		f, _ = schemaform.Compile(nil)
	case f.TooLarge != "":
		m.say(true, "no form: "+f.TooLarge+"; type the arguments as JSON")
	}
	it := msg.it
	a := &action{kind: actTool, it: it, form: form.New(f, nil, m.st)}
	a.opts = form.New(schemaform.MustCompile(optionsSchema(offeredTaskSupport(m.srv.Info(), it.tool), m.opts.DefaultTimeout)), nil, m.st)
	return m.openForm(a)
}

// openForm shows a's form, filled with the arguments last used for it.
func (m *Model) openForm(a *action) tea.Cmd {
	it, info := a.it, m.srv.Info()
	if prev, ok := m.opts.Store.Get(info.Key, a.storeKind(), it.key); ok {
		fresh := a.form.Form().New()
		if err := fresh.Fill(prev); err == nil {
			a.form = form.New(a.form.Form(), fresh, m.st)
			a.form.Remember()
		}
	}
	a.form.SetClock(m.now)
	a.form.SetKeys(m.keys, m.keys.Catalog.Send)
	if a.opts != nil {
		a.opts.SetKeys(m.keys, m.keys.Catalog.Send)
	}
	m.act, m.page = a, pageForm
	return m.suggest()
}

// promptSchema is a form for a prompt's arguments: strings, required as
// the prompt says.
func promptSchema(p *mcp.Prompt) *schemaform.Form {
	props := map[string]any{}
	var order []string
	var required []string
	for _, a := range p.Arguments {
		s := map[string]any{"type": "string"}
		if a.Title != "" {
			s["title"] = a.Title
		}
		if a.Description != "" {
			s["description"] = a.Description
		}
		props[a.Name] = s
		order = append(order, a.Name)
		if a.Required {
			required = append(required, a.Name)
		}
	}
	return schemaform.MustCompile(objectSchema(order, props, required))
}

// templateSchema is a form for a template's variables.
func templateSchema(t *uriTemplate) *schemaform.Form {
	props := map[string]any{}
	var required []string
	names := t.names()
	for _, n := range names {
		props[n] = map[string]any{"type": "string", "description": "fills {" + n + "} in " + t.raw}
		if !t.optional(n) {
			required = append(required, n)
		}
	}
	return schemaform.MustCompile(objectSchema(names, props, required))
}

// objectSchema writes an object schema with properties in order.
func objectSchema(order []string, props map[string]any, required []string) string {
	var b strings.Builder
	b.WriteString(`{"type":"object","properties":{`)
	for i, n := range order {
		if i > 0 {
			b.WriteByte(',')
		}
		k, _ := json.Marshal(n)
		v, _ := json.Marshal(props[n])
		b.Write(k)
		b.WriteByte(':')
		b.Write(v)
	}
	b.WriteString("}")
	if len(required) > 0 {
		r, _ := json.Marshal(required)
		b.WriteString(`,"required":`)
		b.Write(r)
	}
	b.WriteString("}")
	return b.String()
}

// formKey handles a key on the form page.
func (m *Model) formKey(msg tea.KeyPressMsg) tea.Cmd {
	a := m.act
	c := m.keys.Catalog
	switch {
	case key.Matches(msg, c.Back):
		m.act, m.page = nil, pageList
		return nil
	case key.Matches(msg, c.Send):
		return m.submit()
	case key.Matches(msg, c.Options):
		if a.opts != nil {
			a.editOpts = !a.editOpts
		}
		return nil
	}
	if a.editOpts {
		return a.opts.Update(msg)
	}
	// Completion: alt+↓/↑ pick a suggestion, enter takes it.
	if v := a.form.Focused(); len(a.sugg) > 0 && v != nil && v.Field.Name == a.suggFor {
		switch {
		case key.Matches(msg, c.Suggest):
			a.suggSel = (a.suggSel + 1) % len(a.sugg)
			return nil
		case key.Matches(msg, c.SuggestBack):
			a.suggSel = (a.suggSel + len(a.sugg) - 1) % len(a.sugg)
			return nil
		case key.Matches(msg, c.Take):
			if pick := a.sugg[a.suggSel]; pick != a.form.Focused().Text || !a.form.Focused().Set {
				a.form.SetFocusedText(pick)
				return m.suggest()
			}
		}
	}
	cmd := a.form.Update(msg)
	return tea.Batch(cmd, m.suggest())
}

// submit validates the form and starts the call.
func (m *Model) submit() tea.Cmd {
	a := m.act
	args, ok := a.form.Submit()
	if !ok {
		a.err = fmt.Sprintf("%d problem(s): fix the fields marked ✗ (%s)", max(len(a.form.Errors()), 1), keymap.Hint(keymap.Described(m.keys.Form.Raw, "edits the raw JSON")))
		return nil
	}
	a.err = ""
	remember := m.remember(a.storeKind(), a.it.key, args)
	switch a.kind {
	case actTool:
		opts, ok := a.opts.Submit()
		if !ok {
			a.editOpts = true
			a.err = "the call options have problems"
			return nil
		}
		spec, err := callOptions(opts)
		if err != nil {
			a.err = err.Error()
			a.editOpts = true
			return nil
		}
		return tea.Batch(remember, m.callTool(a.it.tool, args, spec))
	case actPrompt:
		var vals map[string]string
		_ = json.Unmarshal(args, &vals)
		return tea.Batch(remember, m.getPrompt(a.it.prompt.Name, vals))
	default:
		var vals map[string]string
		_ = json.Unmarshal(args, &vals)
		uri := a.tpl.expand(vals)
		return tea.Batch(remember, m.read(uri, "read "+uri))
	}
}

// remember stores arguments for next time (in a Cmd: it writes a file).
func (m *Model) remember(kind, name string, args json.RawMessage) tea.Cmd {
	store := m.opts.Store
	if store == nil {
		return nil
	}
	key := m.srv.Info().Key
	return func() tea.Msg {
		if err := store.Put(key, kind, name, args); err != nil {
			return noticeMsg{text: "could not remember the arguments: " + err.Error(), err: true}
		}
		return nil
	}
}

// callSpec is how to call a tool.
type callSpec struct {
	opts     backend.CatalogCallOptions
	progress bool
	task     bool
	meta     json.RawMessage
}

// callOptions reads the options form.
func callOptions(raw json.RawMessage) (callSpec, error) {
	var o struct {
		Timeout         string          `json:"timeout"`
		Progress        bool            `json:"progress"`
		ResetOnProgress bool            `json:"resetOnProgress"`
		Task            bool            `json:"task"`
		Meta            json.RawMessage `json:"meta"`
	}
	_ = json.Unmarshal(raw, &o)
	var spec callSpec
	spec.meta = o.Meta
	switch t := strings.TrimSpace(o.Timeout); t {
	case "":
	case "none", "0":
		spec.opts.Timeout = mcp.NoTimeout
	default:
		d, err := time.ParseDuration(t)
		if err != nil || d <= 0 {
			return spec, fmt.Errorf("the timeout %q is not a duration like 30s or 2m (or none)", t)
		}
		spec.opts.Timeout = d
	}
	spec.opts.ResetOnProgress = o.ResetOnProgress
	spec.progress, spec.task = o.Progress, o.Task
	return spec, nil
}
