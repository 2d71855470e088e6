package kit

import (
	"fmt"
	"regexp"
	"strings"
	"sync"

	"github.com/charmbracelet/x/ansi"

	"github.com/mcptui/mcptui/internal/inert"
	"github.com/mcptui/mcptui/model"
	"github.com/mcptui/mcptui/themes"
)

// MarkdownMaxBytes is how much of a Markdown text Markdown draws.
const MarkdownMaxBytes = 64 << 10

// Markdown renders server Markdown (a tool's or a prompt's description)
// for the terminal in lines of at most width cells: headings, paragraphs,
// bullet and numbered lists, block quotes, code blocks, rules, and inline
// code, bold, italics and links (shown as text with the address after it;
// never as terminal hyperlinks). Every piece of text is escaped first.
// Only the first MarkdownMaxBytes of src are drawn, under a line saying
// how much there is: a server's description can be megabytes.
func Markdown(src string, width int, st *themes.Styles) []string {
	if width <= 0 {
		return nil
	}
	if len(src) > MarkdownMaxBytes {
		head := strings.ToValidUTF8(src[:MarkdownMaxBytes], "")
		if i := strings.LastIndexByte(head, '\n'); i > 0 {
			head = head[:i]
		}
		note := fmt.Sprintf("(%s of text; the first %s shown)", model.FormatSize(len(src)), model.FormatSize(len(head)))
		return append([]string{st.Muted.Render(ansi.Truncate(note, width, "…")), ""}, Markdown(head, width, st)...)
	}
	var out []string
	var para []string
	flush := func(prefix, hang string) {
		if len(para) == 0 {
			return
		}
		text := inline(strings.Join(para, " "), st)
		para = nil
		w := max(width-ansi.StringWidth(prefix), 1)
		for i, l := range strings.Split(ansi.Wrap(text, w, ""), "\n") {
			p := prefix
			if i > 0 {
				p = hang
			}
			out = append(out, p+l)
		}
	}
	lines := strings.Split(strings.ReplaceAll(src, "\r\n", "\n"), "\n")
	for i := 0; i < len(lines); i++ {
		line := strings.TrimRight(lines[i], " \t")
		trim := strings.TrimLeft(line, " ")
		switch {
		case strings.HasPrefix(trim, "```") || strings.HasPrefix(trim, "~~~"):
			flush("", "")
			fence := trim[:3]
			for i++; i < len(lines) && !strings.HasPrefix(strings.TrimLeft(lines[i], " "), fence); i++ {
				out = append(out, st.Info.Render("  "+inert.Fit(lines[i], max(width-2, 0))))
			}
		case trim == "":
			flush("", "")
			if len(out) > 0 && out[len(out)-1] != "" {
				out = append(out, "")
			}
		case heading().MatchString(trim):
			flush("", "")
			text := heading().ReplaceAllString(trim, "")
			for _, l := range strings.Split(ansi.Wrap(st.Bold.Render(inline(text, st)), width, ""), "\n") {
				out = append(out, st.Accent.Render(l))
			}
		case rule().MatchString(trim):
			flush("", "")
			out = append(out, Rule(st, width))
		case bullet().MatchString(trim):
			flush("", "")
			m := bullet().FindStringSubmatch(trim)
			indent := strings.Repeat(" ", min(len(line)-len(trim), 8))
			mark := "• "
			if m[1] != "-" && m[1] != "*" && m[1] != "+" {
				mark = m[1] + " "
			}
			para = []string{m[2]}
			for i+1 < len(lines) && continuation(lines[i+1]) {
				i++
				para = append(para, strings.TrimSpace(lines[i]))
			}
			flush(indent+mark, indent+strings.Repeat(" ", ansi.StringWidth(mark)))
		case strings.HasPrefix(trim, ">"):
			flush("", "")
			para = []string{strings.TrimSpace(strings.TrimPrefix(trim, ">"))}
			flush(st.Muted.Render("│ "), st.Muted.Render("│ "))
		default:
			para = append(para, trim)
		}
	}
	flush("", "")
	for len(out) > 0 && out[len(out)-1] == "" {
		out = out[:len(out)-1]
	}
	return out
}

var (
	heading = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^#{1,6}\s+`) })
	rule    = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^(\*\s*){3,}$|^(-\s*){3,}$|^(_\s*){3,}$`) })
	bullet  = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^([-*+]|\d{1,3}[.)])\s+(.*)$`) })
)

// continuation reports whether a line continues the list item above it.
func continuation(l string) bool {
	t := strings.TrimSpace(l)
	return t != "" && strings.HasPrefix(l, "  ") && !bullet().MatchString(t)
}

// inline escapes text and styles its inline Markdown.
func inline(s string, st *themes.Styles) string {
	var b strings.Builder
	for len(s) > 0 {
		switch {
		case s[0] == '`':
			if j := strings.IndexByte(s[1:], '`'); j >= 0 {
				b.WriteString(st.Info.Render(inert.Line(s[1 : 1+j])))
				s = s[j+2:]
				continue
			}
		case strings.HasPrefix(s, "**") || strings.HasPrefix(s, "__"):
			if j := strings.Index(s[2:], s[:2]); j > 0 {
				b.WriteString(st.Bold.Render(inert.Line(s[2 : 2+j])))
				s = s[j+4:]
				continue
			}
		case s[0] == '*':
			if j := strings.IndexByte(s[1:], '*'); j > 0 && s[1] != ' ' {
				b.WriteString(st.Text.Italic(true).Render(inert.Line(s[1 : 1+j])))
				s = s[j+2:]
				continue
			}
		case s[0] == '[':
			if m := link().FindStringSubmatch(s); m != nil {
				b.WriteString(st.Accent.Underline(true).Render(inert.Line(m[1])))
				b.WriteString(st.Muted.Render(" (" + inert.Line(m[2]) + ")"))
				s = s[len(m[0]):]
				continue
			}
		}
		var n int
		if k := strings.IndexAny(s[1:], "`*_["); k >= 0 {
			n = k + 1
		} else {
			n = len(s)
		}
		b.WriteString(inert.Line(s[:n]))
		s = s[n:]
	}
	return b.String()
}

var link = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^\[([^\]]*)\]\(([^)\s]*)\)`) })
