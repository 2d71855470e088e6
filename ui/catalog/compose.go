package catalog

import (
	"github.com/mcptui/mcptui/internal/schemaform"
	"github.com/mcptui/mcptui/mcp"
)

// The forms of the catalog, for the composer (package ui), so that a
// request composed by hand fills the same fields the catalog shows.

// PromptForm is the form of a prompt's arguments: one string per
// argument, required as the prompt says.
func PromptForm(p *mcp.Prompt) *schemaform.Form { return promptSchema(p) }

// Template is a parsed resource template: its variables as a form, and
// the URI they expand to.
type Template struct{ t *uriTemplate }

// ParseTemplate parses an RFC 6570 resource template.
func ParseTemplate(s string) (*Template, error) {
	t, err := parseTemplate(s)
	if err != nil {
		return nil, err
	}
	return &Template{t: t}, nil
}

// Form is the form of the template's variables (required unless the
// template can leave them out).
func (t *Template) Form() *schemaform.Form { return templateSchema(t.t) }

// Expand is the URI the variables make.
func (t *Template) Expand(vals map[string]string) string { return t.t.expand(vals) }
