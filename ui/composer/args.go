package composer

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/mcptui/mcptui/internal/jsonscan"
	"github.com/mcptui/mcptui/internal/schemaform"
	"github.com/mcptui/mcptui/keymap"
	"github.com/mcptui/mcptui/mcp"
	"github.com/mcptui/mcptui/themes"
	"github.com/mcptui/mcptui/ui/catalog"
	"github.com/mcptui/mcptui/ui/catalog/argstore"
	"github.com/mcptui/mcptui/ui/form"
)

// composerArgs is the form the composer's params are filled through once
// a target is chosen: a tool's arguments (its inputSchema), a prompt's
// arguments, a resource template's variables. The params sent are built
// from it (see params); the raw JSON mode shows those params whole, and
// going back fills the form from what was typed.
type composerArgs struct {
	// method and target are what the form was opened for: it stands for
	// the params only while the composer's fields still say so.
	method, target string
	// kind is the argstore kind (tool, prompt, template) that remembers
	// the arguments across runs.
	kind string
	tpl  *catalog.Template
	form *form.Model
	// extra are the params' other members (such as _meta), in order, kept
	// from a raw edit and sent after the form's.
	extra []paramMember
	// raw is set while the params are edited as JSON (in the composer's
	// params field); rawFrom is the text they started from.
	raw     bool
	rawFrom string
	// sent is the arguments of the last send, remembered once it is sent.
	sent json.RawMessage
	// setup gives a form the composer's styles, keys and clock.
	setup func(*form.Model)
}

// paramMember is one member of a params object, raw.
type paramMember struct{ key, value []byte }

// argForms are the forms of the catalog's entries, compiled with the offer
// off the UI goroutine (a server's schema can be large): by tool name,
// by prompt name, by template.
type argForms struct {
	tools     map[string]*schemaform.Form
	prompts   map[string]*schemaform.Form
	templates map[string]*catalog.Template
}

// compileArgForms compiles the forms of what the offer lists; an entry
// whose schema does not compile has none (its params stay a skeleton).
func (o *composerOffer) compileArgForms() {
	o.forms = argForms{tools: map[string]*schemaform.Form{}, prompts: map[string]*schemaform.Form{}, templates: map[string]*catalog.Template{}}
	for i := range o.tools {
		if f, err := schemaform.Compile(o.tools[i].InputSchema); err == nil {
			o.forms.tools[o.tools[i].Name] = f
		}
	}
	for i := range o.prompts {
		o.forms.prompts[o.prompts[i].Name] = catalog.PromptForm(&o.prompts[i])
	}
	for _, t := range o.templates {
		if tpl, err := catalog.ParseTemplate(t.URITemplate); err == nil {
			o.forms.templates[t.URITemplate] = tpl
		}
	}
}

// argsFor opens the form for method on target, filled with the arguments
// last sent to it (from the catalog or the composer, this run or an
// earlier one; marked ↺); nil when method on target has no form.
func (c *Composer[H]) argsFor(method, target string) *composerArgs {
	o := c.offer
	if o == nil || target == "" {
		return nil
	}
	a := &composerArgs{method: method, target: target}
	var f *schemaform.Form
	switch method {
	case mcp.MethodCallTool:
		a.kind, f = argstore.Tool, o.forms.tools[target]
	case mcp.MethodGetPrompt:
		a.kind, f = argstore.Prompt, o.forms.prompts[target]
	case mcp.MethodReadResource:
		if a.tpl = o.forms.templates[target]; a.tpl != nil {
			a.kind, f = argstore.Template, a.tpl.Form()
		}
	}
	if f == nil {
		return nil
	}
	var value *schemaform.Value
	if prev, ok := c.store.Get(o.key, a.kind, target); ok {
		if fresh := f.New(); fresh.Fill(prev) == nil {
			value = fresh
		}
	}
	st, keys, now := c.st, c.keys, c.now
	a.setup = func(m *form.Model) {
		m.SetStyles(st)
		m.SetKeys(keys, keys.Overlay.Submit)
		if now != nil {
			m.SetClock(now)
		}
	}
	a.form = form.New(f, value, st)
	if value != nil {
		a.form.Remember()
	}
	a.setup(a.form)
	a.form.First()
	return a
}

// params are the request's params for the form's arguments inst: the
// target and the arguments (a template's expanded URI), then the members
// kept from a raw edit.
func (a *composerArgs) params(inst json.RawMessage) json.RawMessage {
	var b bytes.Buffer
	b.WriteByte('{')
	if a.tpl != nil {
		uri, _ := json.Marshal(a.tpl.Expand(a.templateValues()))
		b.WriteString(`"uri":`)
		b.Write(uri)
	} else {
		name, _ := json.Marshal(a.target)
		b.WriteString(`"name":`)
		b.Write(name)
		b.WriteString(`,"arguments":`)
		b.Write(inst)
	}
	for _, m := range a.extra {
		b.WriteByte(',')
		b.Write(m.key)
		b.WriteByte(':')
		b.Write(m.value)
	}
	b.WriteByte('}')
	return compactJSON(b.Bytes())
}

// templateValues are the template form's values, by variable.
func (a *composerArgs) templateValues() map[string]string {
	vals := map[string]string{}
	for _, p := range a.form.Value().Props {
		if p.Set {
			vals[p.Field.Name] = p.Text
		}
	}
	return vals
}

// submit validates the form and returns the params to send; on errors
// they are shown on their fields.
func (a *composerArgs) submit(keys keymap.KeyMap) (json.RawMessage, error) {
	inst, ok := a.form.Submit()
	if !ok {
		return nil, fmt.Errorf("%d problem(s): fix the fields marked ✗ (%s)", max(len(a.form.Errors()), 1),
			keymap.Hint(keymap.Described(keys.Form.Raw, "edits the raw JSON params")))
	}
	a.sent = inst
	return a.params(inst), nil
}

// toRaw is the params as the raw editor shows them; it fails (and the form
// stays) when a field holds what JSON cannot say, such as "abc" in a number,
// which the raw text would lose.
func (a *composerArgs) toRaw() (string, error) {
	inst, errs := a.form.Value().JSON()
	if len(errs) > 0 {
		return "", fmt.Errorf("the form has a value JSON cannot hold (%s): fix it first", errs.Error())
	}
	text := indentJSON(string(a.params(inst)))
	a.raw, a.rawFrom = true, text
	return text, nil
}

// errNotTheForm is why raw params that name another target cannot go back
// to this form.
var errNotTheForm = errors.New("not this form's")

// fromRaw fills the form from the raw params text. On an error nothing
// changes: the text stays in the raw editor, to fix or to send as it is.
func (a *composerArgs) fromRaw(text string) error {
	if text == a.rawFrom {
		a.raw = false
		return nil
	}
	b := bytes.TrimSpace([]byte(text))
	if !json.Valid(b) || len(b) == 0 || b[0] != '{' {
		return errors.New("the params are not a JSON object: fix them here (the form keeps its values until they fit)")
	}
	var target, args []byte
	var extra []paramMember
	_ = jsonscan.EachMember(b, func(name, rawKey, value []byte) error {
		switch {
		case a.tpl == nil && string(name) == "name":
			target = value
		case a.tpl == nil && string(name) == "arguments":
			args = value
		case a.tpl != nil && string(name) == "uri":
			target = value
		default:
			extra = append(extra, paramMember{key: bytes.Clone(rawKey), value: bytes.Clone(value)})
		}
		return nil
	})
	if a.tpl != nil {
		// A URI cannot be read back into the template's variables: the
		// form goes back only while the URI is the one it made.
		if uri, _ := json.Marshal(a.tpl.Expand(a.templateValues())); !bytes.Equal(target, uri) {
			return fmt.Errorf("the uri is %w (%s): it stays JSON", errNotTheForm, a.target)
		}
		a.extra, a.raw = extra, false
		return nil
	}
	if target == nil || jsonscan.Unquote(target) != a.target {
		return fmt.Errorf("the name is %w (%s)", errNotTheForm, a.target)
	}
	if len(args) == 0 || string(args) == "null" {
		args = []byte(`{}`)
	}
	fresh := a.form.Form().New()
	if err := fresh.Fill(args); err != nil {
		return fmt.Errorf("the form cannot show these arguments (%v): fix them, or send them as they are", err)
	}
	next := form.New(a.form.Form(), fresh, nil)
	a.setup(next)
	a.form, a.extra, a.raw = next, extra, false
	a.form.First()
	return nil
}

// extraNames names the members kept besides the form's, for the line
// that says so.
func (a *composerArgs) extraNames() string {
	names := make([]string, 0, len(a.extra))
	for _, m := range a.extra {
		names = append(names, jsonscan.Unquote(m.key))
	}
	return strings.Join(names, ", ")
}

// setStyles follows the theme.
func (a *composerArgs) setStyles(st *themes.Styles) { a.form.SetStyles(st) }

// compactJSON removes insignificant whitespace from valid JSON.
func compactJSON(b []byte) json.RawMessage {
	var out bytes.Buffer
	if err := json.Compact(&out, b); err != nil {
		return b
	}
	return out.Bytes()
}
