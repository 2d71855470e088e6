package catalog

import (
	"fmt"
	"github.com/mcptui/mcptui/apps"
	"github.com/mcptui/mcptui/keymap"
	"strings"

	"github.com/mcptui/mcptui/internal/inert"
	"github.com/mcptui/mcptui/mcp"
	"github.com/mcptui/mcptui/model"
	"github.com/mcptui/mcptui/themes"
	"github.com/mcptui/mcptui/ui/catalog/marks"
	"github.com/mcptui/mcptui/ui/kit"
)

// badges are a tool's annotations, and its task support, as short words.
func badges(t *mcp.Tool) []string {
	var out []string
	if a := t.Annotations; a != nil {
		flag := func(p *bool, yes, no string) {
			if p == nil {
				return
			}
			if *p {
				out = append(out, yes)
			} else if no != "" {
				out = append(out, no)
			}
		}
		flag(a.ReadOnlyHint, "read-only", "writes")
		flag(a.DestructiveHint, "destructive", "")
		flag(a.IdempotentHint, "idempotent", "")
		flag(a.OpenWorldHint, "open world", "closed world")
	}
	if ts := taskSupport(t); ts != "" && ts != "forbidden" {
		out = append(out, "task: "+ts)
	}
	if len(t.OutputSchema) > 0 {
		out = append(out, "structured output")
	}
	return out
}

// laterToolFields names the fields of t that the session's version
// predates — "not in 2024-11-05: tool annotations, title" — or "".
func laterToolFields(t *mcp.Tool, version string) string {
	var names []string
	mark := ""
	for _, f := range []struct {
		feature string
		present bool
	}{
		{mcp.FeatureToolAnnotations, t.Annotations != nil},
		{mcp.FeatureTitle, t.Title != ""},
		{mcp.FeatureOutputSchema, len(t.OutputSchema) > 0},
	} {
		if m := mcp.NotIn(version, f.feature); f.present && m != "" {
			names, mark = append(names, f.feature), m
		}
	}
	if len(names) == 0 {
		return ""
	}
	return strings.TrimSuffix(strings.TrimPrefix(mark, "("), ")") + ": " + strings.Join(names, ", ")
}

// badgeRow draws badges.
func badgeRow(st *themes.Styles, w int, bs []string) string {
	segs := []kit.Seg{kit.Txt(" ", st.Text)}
	for _, b := range bs {
		bst := st.Info
		switch b {
		case "destructive", "writes":
			bst = st.Warn
		case "read-only", "idempotent":
			bst = st.OK
		}
		segs = append(segs, kit.Txt("["+inert.Line(b)+"]", bst), kit.Txt(" ", st.Text))
	}
	return kit.Row(st, w, false, segs...)
}

// detailsCache is the last entry's details as drawn: a description or a
// schema can be megabytes, too much to render again on every frame.
type detailsCache struct {
	raw   *byte // the entry's JSON, which identifies it across frames
	w     int
	st    *themes.Styles
	mark  mark
	ms    *marks.Set
	lines []string
}

// cachedDetails is details, drawn again only when the entry, the width,
// the theme or the entry's mark changed.
func (m *Model) cachedDetails(r *listRow, w int) []string {
	if len(r.it.raw) == 0 {
		return m.details(r, w)
	}
	c := &m.detailsCache
	ms := m.lists[min(m.tab, Skills)].ms
	if c.raw != &r.it.raw[0] || c.w != w || c.st != m.st || c.mark != r.mark || c.ms != ms {
		*c = detailsCache{raw: &r.it.raw[0], w: w, st: m.st, mark: r.mark, ms: ms, lines: m.details(r, w)}
	}
	return c.lines
}

// details draws the selected entry's details in w cells (every line).
func (m *Model) details(r *listRow, w int) []string {
	st := m.st
	it := r.it
	var out []string
	line := func(segs ...kit.Seg) { out = append(out, kit.Row(st, w, false, segs...)) }
	field := func(label, value string) {
		if value != "" {
			line(kit.Own(" "+label, 12, st.Muted), kit.SrvFree(value, w-12, st.Text))
		}
	}
	title := it.title
	if title == "" {
		title = it.name
	}
	line(kit.Txt(" ", st.Text), kit.SrvFree(title, w-2, st.Bold.Foreground(st.Accent.GetForeground())))
	switch r.mark {
	case added:
		line(kit.Own(" + added since the last listing", w, st.OK))
	case changed:
		line(kit.Own(" ~ changed since the last listing", w, st.Warn))
	case removed:
		line(kit.Own(" − removed from the server's list", w, st.Error))
	}
	if m.marking(m.tab) {
		out = append(out, m.markDetails(m.lists[m.tab], it.key, w)...)
	}
	switch {
	case it.tool != nil:
		field("name", it.tool.Name)
		if bs := badges(it.tool); len(bs) > 0 {
			out = append(out, badgeRow(st, w, bs))
		}
		if ui := apps.ForTool(*it.tool); ui.ResourceURI != "" {
			field("App", ui.ResourceURI)
			line(kit.Own(" "+keymap.Hint(keymap.Described(m.keys.Catalog.App, "calls it and opens its MCP App in your browser")), w, st.Accent))
		}
		if later := laterToolFields(it.tool, m.srv.Info().Version); later != "" {
			line(kit.Own(" "+later, w, st.Muted))
		}
		if ts := taskSupport(it.tool); ts != "" && ts != "forbidden" && !tasksOffered(m.srv.Info()) {
			why := " not offered as a task: the server declares no tasks.requests.tools.call"
			if mcp.Before(m.srv.Info().Version, mcp.Version20251125) {
				why = " not offered as a task: tasks arrived in 2025-11-25"
			}
			line(kit.Own(why, w, st.Muted))
		}
	case it.res != nil:
		field("uri", it.res.URI)
		field("name", it.res.Name)
		field("mime type", it.res.MIMEType)
		if it.res.Size != nil {
			field("size", model.FormatSize(int(*it.res.Size)))
		}
		if a := it.res.Annotations; a != nil {
			if len(a.Audience) > 0 {
				field("audience", strings.Join(a.Audience, ", "))
			}
			if a.Priority != nil {
				field("priority", fmt.Sprint(*a.Priority))
			}
			field("modified", a.LastModified)
		}
	case it.tmpl != nil:
		field("template", it.tmpl.URITemplate)
		field("name", it.tmpl.Name)
		field("mime type", it.tmpl.MIMEType)
		if tpl, err := parseTemplate(it.tmpl.URITemplate); err == nil {
			field("variables", strings.Join(tpl.names(), ", "))
		}
	case it.prompt != nil:
		field("name", it.prompt.Name)
	case it.skill != nil:
		out = append(out, m.skillDetails(it.skill, w)...)
	}
	if it.desc != "" {
		out = append(out, kit.Blank(w))
		for _, l := range kit.Markdown(it.desc, max(w-2, 1), st) {
			out = append(out, kit.Row(st, w, false, kit.Txt(" ", st.Text), kit.Seg{S: l, St: st.Text}))
		}
	}
	if it.prompt != nil && len(it.prompt.Arguments) > 0 {
		out = append(out, kit.Blank(w))
		line(kit.Own(" arguments", w, st.Muted))
		for _, a := range it.prompt.Arguments {
			req := ""
			if a.Required {
				req = " *"
			}
			line(kit.Txt("   ", st.Text), kit.SrvFree(a.Name, w/3, st.Accent), kit.Txt(req, st.Warn), kit.Txt("  ", st.Text),
				kit.SrvFree(a.Description, max(w-w/3-8, 1), st.Muted))
		}
	}
	if it.tool != nil {
		out = append(out, m.schemaLines("input schema", it.tool.InputSchema, w)...)
		if len(it.tool.OutputSchema) > 0 {
			out = append(out, m.schemaLines("output schema", it.tool.OutputSchema, w)...)
		}
	}
	out = append(out, kit.Blank(w))
	c := m.keys.Catalog
	hint := " " + keymap.Hint(keymap.Described(c.Open, "calls it"), keymap.Described(c.Copy, "copies the entry as JSON"))
	switch {
	case it.res != nil:
		hint = " " + keymap.Hint(keymap.Described(c.Open, "reads it"), keymap.Described(c.Subscribe, "subscribes to its updates"), keymap.Described(c.Copy, "copies the entry"))
	case it.tmpl != nil:
		hint = " " + keymap.Hint(keymap.Described(c.Open, "fills it in (with completion) and reads it"), keymap.Described(c.Copy, "copies the entry"))
	case it.prompt != nil:
		hint = " " + keymap.Hint(keymap.Described(c.Open, "fills in the arguments (with completion) and gets it"), keymap.Described(c.Copy, "copies the entry"))
	case it.skill != nil:
		hint = " " + keymap.Hint(keymap.Described(c.Open, "reads every file and checks its digest"), keymap.Described(c.Copy, "copies the entry"))
	}
	line(kit.Own(hint, w, st.Subtle))
	return out
}

// schemaLines draws a schema as a JSON tree, all open.
func (m *Model) schemaLines(label string, schema []byte, w int) []string {
	st := m.st
	out := []string{kit.Blank(w), kit.Row(st, w, false, kit.Own(" "+label, w, st.Muted))}
	if len(schema) == 0 {
		return append(out, kit.Row(st, w, false, kit.Own("   (none)", w, st.Muted)))
	}
	jv, err := kit.NewJSONView(schema)
	if err != nil {
		return append(out, kit.Row(st, w, false, kit.Own("   not JSON: "+inert.Line(err.Error()), w, st.Error)))
	}
	for k := range min(jv.Len(), 400) {
		out = append(out, kit.Row(st, w, false, kit.Txt(" ", st.Text), kit.Seg{S: jv.DrawLine(st, k, w-1, false), St: st.Text}))
	}
	return out
}
