package verify

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/mcptui/mcptui/internal/inert"
)

// Summary is the counts in words: "5 exchanges: 3 same, 1 changed, 1 missing".
func (r *Report) Summary() string {
	var parts []string
	for _, s := range []Status{Same, Changed, Missing} {
		if n := r.Counts[s]; n > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", n, s))
		}
	}
	return fmt.Sprintf("%d exchanges: %s", len(r.Exchanges), strings.Join(parts, ", "))
}

// WriteText writes one line per exchange and the differences under the
// changed ones. Server text is escaped.
func (r *Report) WriteText(w io.Writer) error {
	var b strings.Builder
	fmt.Fprintf(&b, "replay --verify %s -- %s\n", inert.Line(r.Recording), inert.Line(strings.Join(r.Command, " ")))
	for _, e := range r.Exchanges {
		fmt.Fprintf(&b, "  %-8s %s", e.Status, inert.Line(e.Label()))
		if e.Why != "" {
			fmt.Fprintf(&b, ": %s", inert.Line(e.Why))
		}
		b.WriteString("\n")
		for _, d := range e.Differences {
			fmt.Fprintf(&b, "           %s\n", inert.Line(d.String()))
		}
	}
	fmt.Fprintf(&b, "%s\n", r.Summary())
	_, err := io.WriteString(w, b.String())
	return err
}

// String is the difference in one line: path: before → after.
func (d Difference) String() string {
	before, after := d.Before, d.After
	if before == "" {
		before = "(absent)"
	}
	if after == "" {
		after = "(absent)"
	}
	return d.Path + ": " + before + " → " + after
}

// WriteJSON writes the report as one JSON object.
func (r *Report) WriteJSON(w io.Writer) error {
	e := json.NewEncoder(w)
	e.SetEscapeHTML(false)
	e.SetIndent("", "  ")
	return e.Encode(r)
}

// WriteMarkdown writes the report as a table for a pull request comment.
func (r *Report) WriteMarkdown(w io.Writer) error {
	var b strings.Builder
	fmt.Fprintf(&b, "### Replay verification: %s\n\n| | exchange | differences |\n|---|---|---|\n", r.Summary())
	icon := map[Status]string{Same: "✅", Changed: "🟠", Missing: "🔴"}
	cell := strings.NewReplacer("|", `\|`, "<", "&lt;", ">", "&gt;", "`", "'")
	for _, e := range r.Exchanges {
		var ds []string
		for _, d := range e.Differences {
			ds = append(ds, "`"+cell.Replace(inert.Line(d.String()))+"`")
		}
		if e.Why != "" {
			ds = append(ds, cell.Replace(inert.Line(e.Why)))
		}
		fmt.Fprintf(&b, "| %s %s | %s | %s |\n", icon[e.Status], e.Status, cell.Replace(inert.Line(e.Label())), strings.Join(ds, "<br>"))
	}
	_, err := io.WriteString(w, b.String())
	return err
}
