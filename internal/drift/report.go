package drift

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/mcptui/mcptui/internal/inert"
)

// Summary is the counts in words: "2 breaking, 1 risky, 3 additive".
func (r *Report) Summary() string {
	if len(r.Changes) == 0 {
		return "no changes"
	}
	var parts []string
	for _, c := range Classes {
		if n := r.Counts[c]; n > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", n, c))
		}
	}
	return strings.Join(parts, ", ")
}

// groups are the changes by subject (era first), in order of first
// appearance.
func (r *Report) groups() (order []string, by map[string][]Change) {
	by = map[string][]Change{}
	for _, ch := range r.Changes {
		k := ch.Subject
		if ch.Era != "" {
			k = "[" + ch.Era + "] " + k
		}
		if _, ok := by[k]; !ok {
			order = append(order, k)
		}
		by[k] = append(by[k], ch)
	}
	return order, by
}

var colours = map[Class]string{Breaking: "\x1b[1;31m", Risky: "\x1b[33m", Additive: "\x1b[32m", Info: "\x1b[2m"}

// WriteText writes the report for people, grouped by subject; colour
// marks the classes with ANSI colours. Server text is escaped.
func (r *Report) WriteText(w io.Writer, colour bool) error {
	order, by := r.groups()
	var b strings.Builder
	for _, k := range order {
		fmt.Fprintf(&b, "%s\n", inert.Line(k))
		for _, ch := range by[k] {
			label := fmt.Sprintf("%-9s", strings.ToUpper(string(ch.Class)))
			if colour {
				label = colours[ch.Class] + label + "\x1b[0m"
			}
			fmt.Fprintf(&b, "  %s %s", label, inert.Line(ch.Message))
			if ch.Path != "" {
				fmt.Fprintf(&b, " (%s)", inert.Line(ch.Path))
			}
			if ch.Before != "" || ch.After != "" {
				fmt.Fprintf(&b, ": %s → %s", inert.Line(orNone(ch.Before)), inert.Line(orNone(ch.After)))
			}
			b.WriteString("\n")
			if ch.Words != "" {
				fmt.Fprintf(&b, "            %s\n", inert.Line(ch.Words))
			}
		}
	}
	fmt.Fprintf(&b, "%s\n", r.Summary())
	_, err := io.WriteString(w, b.String())
	return err
}

func orNone(s string) string {
	if s == "" {
		return "(none)"
	}
	return s
}

// WriteJSON writes the report as one JSON object.
func (r *Report) WriteJSON(w io.Writer) error {
	e := json.NewEncoder(w)
	e.SetEscapeHTML(false)
	e.SetIndent("", "  ")
	return e.Encode(r)
}

// WriteMarkdown writes the report as Markdown for a pull request comment:
// a summary line and a table per subject. Server text is escaped for
// Markdown tables and inline code.
func (r *Report) WriteMarkdown(w io.Writer) error {
	var b strings.Builder
	icon := map[Class]string{Breaking: "🔴", Risky: "🟠", Additive: "🟢", Info: "⚪"}
	fmt.Fprintf(&b, "### MCP surface diff: %s\n\n", r.Summary())
	order, by := r.groups()
	for _, k := range order {
		fmt.Fprintf(&b, "**%s**\n\n| | change | where |\n|---|---|---|\n", md(k))
		for _, ch := range by[k] {
			msg := md(ch.Message)
			if ch.Before != "" || ch.After != "" {
				msg += ": " + code(orNone(ch.Before)) + " → " + code(orNone(ch.After))
			}
			if ch.Words != "" {
				msg += "<br>" + md(ch.Words)
			}
			fmt.Fprintf(&b, "| %s %s | %s | %s |\n", icon[ch.Class], ch.Class, msg, code(ch.Path))
		}
		b.WriteString("\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// md escapes s for a Markdown table cell.
func md(s string) string {
	s = inert.Line(s)
	r := strings.NewReplacer("|", `\|`, "<", "&lt;", ">", "&gt;", "*", `\*`, "_", `\_`, "`", "\\`", "[", `\[`, "]", `\]`)
	return r.Replace(s)
}

// code is s as inline code in a table cell.
func code(s string) string {
	if s == "" {
		return ""
	}
	s = strings.ReplaceAll(inert.Line(s), "|", `\|`)
	s = strings.ReplaceAll(s, "`", "'")
	return "`" + s + "`"
}
