// Command speccheck checks every rule of internal/check/rules against the
// text of the specification: for each revision a rule applies to, the
// section it names (page#anchor, as that revision names it) must exist
// and, for a MUST or SHOULD rule, hold a sentence with that keyword
// (MUST also as REQUIRED or SHALL, SHOULD also as RECOMMENDED). It writes
// the results as a Markdown table, internal/check/rules/CITATIONS.md,
// which a unit test keeps in step with the rule table. The specification
// is read from a checkout of its repository and never copied:
//
//	git clone --depth 1 https://github.com/modelcontextprotocol/modelcontextprotocol /tmp/mcp-spec
//	go run ./tools/speccheck -spec /tmp/mcp-spec
//
// An extension's rules cite text outside that repository: -ext PAGE=FILE
// (repeatable) gives the extension's page, e.g.
// -ext extensions/skills=ext-skills/specification/stable/skills.mdx
// -ext extensions/apps=ext-apps/specification/2026-01-26/apps.mdx, and
// their citations are checked the same way (a type one rests on must be
// declared in it); without it they are listed as not checked.
//
// It exits 1 when a citation is not confirmed (the table is written
// anyway, to show which).
package main

import (
	"bufio"
	"bytes"
	"errors"
	"flag"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/mcptui/mcptui/internal/check/rules"
)

func main() {
	spec := flag.String("spec", "", "a checkout of github.com/modelcontextprotocol/modelcontextprotocol")
	revFlag := flag.String("rev", "", "the specification commit checked (default: the checkout's HEAD)")
	out := flag.String("out", filepath.Join("internal", "check", "rules", rules.CitationsFile), "the table to write")
	exts := extFlag{}
	flag.Var(exts, "ext", "PAGE=FILE: the text of an extension's page (extensions/skills, extensions/apps)")
	flag.Parse()
	if *spec == "" {
		fmt.Fprintln(os.Stderr, "speccheck: -spec DIR is required (a checkout of the specification repository)")
		os.Exit(2)
	}
	rev, err := revision(*spec)
	if err != nil {
		fmt.Fprintf(os.Stderr, "speccheck: %v\n", err)
		os.Exit(2)
	}
	if *revFlag != "" {
		rev = *revFlag
	}
	table, bad := check(specDir{root: *spec, ext: exts}, rev)
	if err := os.WriteFile(*out, table, 0o644); err != nil {
		fmt.Fprintf(os.Stderr, "speccheck: %v\n", err)
		os.Exit(2)
	}
	if bad > 0 {
		fmt.Fprintf(os.Stderr, "speccheck: %d citations not confirmed (see %s)\n", bad, *out)
		os.Exit(1)
	}
}

// revision names the specification commit checked: the checkout's HEAD
// as git stores it (no git needed), or "unknown".
func revision(root string) (string, error) {
	if _, err := os.Stat(filepath.Join(root, "docs", "specification")); err != nil {
		return "", fmt.Errorf("%s is not a checkout of the specification repository: %w", root, err)
	}
	head, err := os.ReadFile(filepath.Join(root, ".git", "HEAD"))
	if err != nil {
		return "unknown", nil
	}
	h := strings.TrimSpace(string(head))
	if ref, ok := strings.CutPrefix(h, "ref: "); ok {
		b, err := os.ReadFile(filepath.Join(root, ".git", filepath.FromSlash(ref)))
		if err != nil {
			return "unknown", nil
		}
		h = strings.TrimSpace(string(b))
	}
	return h, nil
}

// extFlag maps an extension's page (as rules name it) to its text's file.
type extFlag map[string]string

func (f extFlag) String() string { return "" }

func (f extFlag) Set(v string) error {
	page, file, ok := strings.Cut(v, "=")
	if !ok || page == "" || file == "" {
		return fmt.Errorf("want PAGE=FILE, got %q", v)
	}
	f[page] = file
	return nil
}

// specDir reads pages of one checkout, and the extensions' pages given.
type specDir struct {
	root string
	ext  extFlag
}

// page is the text of a page of revision era: page "basic" is
// basic/index.mdx, "server/tools" server/tools.mdx.
func (d specDir) page(era, page string) ([]byte, error) {
	base := filepath.Join(d.root, "docs", "specification", era, filepath.FromSlash(page))
	for _, p := range []string{base + ".mdx", filepath.Join(base, "index.mdx")} {
		b, err := os.ReadFile(p)
		if err == nil {
			return b, nil
		}
		if !errors.Is(err, os.ErrNotExist) {
			return nil, err
		}
	}
	return nil, fmt.Errorf("no page %s in %s", page, era)
}

// check runs every citation and renders the table; bad counts the
// citations not confirmed.
func check(d specDir, rev string) (table []byte, bad int) {
	var rows bytes.Buffer
	var nRules, rulesOK, cites, citesOK, unchecked int
	for _, r := range rules.All() {
		nRules++
		ok := true
		for _, c := range r.Cites() {
			cites++
			res, good := verdict(d, r, c)
			switch {
			case strings.HasPrefix(res, "not checked"):
				unchecked++
			case good:
				citesOK++
			default:
				bad++
				ok = false
			}
			fmt.Fprintf(&rows, "%s %s |\n", c.Row(r), res)
		}
		if ok {
			rulesOK++
		}
	}
	var b bytes.Buffer
	fmt.Fprintf(&b, `# Where the specification states each rule

Written by `+"`go run ./tools/speccheck -spec DIR`"+` from the specification repository
(github.com/modelcontextprotocol/modelcontextprotocol) at commit %s; none of its text
is copied here. For each revision a rule applies to, the section it cites (page#anchor, as
that revision names it) must exist and, for a MUST or SHOULD rule, hold a sentence with that
keyword (MUST also as REQUIRED or SHALL; SHOULD also as RECOMMENDED). A best practice needs its
section only; a robustness rule cites text outside this repository and is not checked, nor is an
extension's rule unless its page's text was given (-ext). `+"`citations_test.go`"+` keeps this table in step with the rule table.

Rules: %d, every citation confirmed: %d. Citations: %d, confirmed: %d, not confirmed: %d,
outside the specification (not checked): %d.

| rule | level | revision | section | keyword | result |
| --- | --- | --- | --- | --- | --- |
`, rev, nRules, rulesOK, cites, citesOK, bad, unchecked)
	b.Write(rows.Bytes())
	return b.Bytes(), bad
}

// verdict checks one citation.
func verdict(d specDir, r rules.Rule, c rules.Cite) (string, bool) {
	page, anchor, _ := strings.Cut(c.Section, "#")
	if c.Era == "" {
		if r.Level == rules.Robustness {
			return "not checked: not an MCP requirement (" + r.URL("") + ")", true
		}
		file, ok := d.ext[page]
		if !ok {
			return "not checked: the extension's own site (" + r.URL("") + ")", true
		}
		text, err := os.ReadFile(file)
		if err != nil {
			return "✗ " + err.Error(), false
		}
		return textVerdict(text, page, anchor, c.Keyword, r.Schema)
	}
	if page == "schema.ts" {
		return d.schemaVerdict(c.Era, anchor, c.Keyword)
	}
	text, err := d.page(c.Era, page)
	if err != nil {
		return "✗ " + err.Error(), false
	}
	return textVerdict(text, page, anchor, c.Keyword, "")
}

// textVerdict checks a citation against a page's text: the section
// exists and holds a line with the keyword; a "schema" keyword is a type
// (schema) the page declares ("interface Name").
func textVerdict(text []byte, page, anchor, keyword, schema string) (string, bool) {
	if a, err := url.PathUnescape(anchor); err == nil {
		anchor = a
	}
	lines, start, ok := section(text, anchor)
	if !ok {
		return fmt.Sprintf("✗ no section #%s on %s", anchor, page), false
	}
	if keyword == "schema" {
		decl := regexp.MustCompile(`\binterface ` + regexp.QuoteMeta(schema) + `\b`)
		for i, ln := range strings.Split(string(text), "\n") {
			if decl.MatchString(ln) {
				return fmt.Sprintf("✓ section at line %d, %s declared at line %d", start, schema, i+1), true
			}
		}
		return fmt.Sprintf("✗ no interface %s on %s", schema, page), false
	}
	if keyword == "" {
		return fmt.Sprintf("✓ section at line %d (no keyword needed)", start), true
	}
	n, first := 0, 0
	re := keywords[keyword]
	for i, ln := range lines {
		if re.MatchString(ln) {
			if n == 0 {
				first = start + i
			}
			n++
		}
	}
	if n == 0 {
		return fmt.Sprintf("✗ no sentence with %s in the section (line %d)", keyword, start), false
	}
	return fmt.Sprintf("✓ %d lines with %s, first at line %d", n, keyword, first), true
}

// keywords match the RFC 2119 words of a level (MUST NOT and SHOULD NOT
// included).
var keywords = map[string]*regexp.Regexp{
	"MUST":   regexp.MustCompile(`\b(MUST|REQUIRED|SHALL)\b`),
	"SHOULD": regexp.MustCompile(`\b(SHOULD|RECOMMENDED)\b`),
}

var heading = regexp.MustCompile(`^(#{1,6})\s+(.*?)\s*#*\s*$`)

// section returns the lines of the section under the heading whose anchor
// is anchor (the whole page for ""), down to the next heading of the same
// or a higher level, without fenced code; start is its first line's
// number.
func section(text []byte, anchor string) (lines []string, start int, ok bool) {
	depth := 0
	fenced := false
	sc := bufio.NewScanner(bytes.NewReader(text))
	sc.Buffer(nil, 1<<20)
	n := 0
	in := anchor == ""
	if in {
		start, ok = 1, true
	}
	for sc.Scan() {
		n++
		ln := sc.Text()
		if strings.HasPrefix(strings.TrimSpace(ln), "```") {
			fenced = !fenced
			continue
		}
		if fenced {
			continue
		}
		if m := heading.FindStringSubmatch(ln); m != nil {
			if in && anchor != "" && len(m[1]) <= depth {
				break
			}
			if !in && slug(m[2]) == anchor {
				in, ok, start, depth = true, true, n, len(m[1])
				continue
			}
		}
		if in {
			lines = append(lines, ln)
		}
	}
	return lines, start, ok
}

// slug is a heading's anchor as the documentation site makes it: lower
// case, spaces as hyphens, only letters, digits, hyphens and & kept.
func slug(h string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(h) {
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9', r == '-', r == '&':
			b.WriteRune(r)
		case r == ' ':
			b.WriteRune('-')
		}
	}
	return b.String()
}

// schemaVerdict checks a citation of the revision's schema.ts: one of
// names ("A|B") is declared there and, for a keyword other than "schema",
// its declaration (or its Params type's) has a line with it.
func (d specDir) schemaVerdict(era, names, keyword string) (string, bool) {
	path := filepath.Join(d.root, "schema", era, "schema.ts")
	b, err := os.ReadFile(path)
	if err != nil {
		return "✗ no schema.ts for " + era, false
	}
	lines := strings.Split(string(b), "\n")
	for _, name := range strings.Split(names, "|") {
		at, block := declaration(lines, name)
		if at == 0 {
			continue
		}
		if keyword == "schema" {
			return fmt.Sprintf("✓ %s declared at schema.ts line %d", name, at), true
		}
		if pat, pblock := declaration(lines, name+"Params"); pat != 0 {
			block = append(block, pblock...)
		}
		for i, ln := range block {
			if keywords[keyword].MatchString(ln) {
				return fmt.Sprintf("✓ %s declared at schema.ts line %d, with %s (%d lines on)", name, at, keyword, i), true
			}
		}
		return fmt.Sprintf("✗ %s declared at schema.ts line %d, but no line with %s", name, at, keyword), false
	}
	return fmt.Sprintf("✗ no %s in schema.ts", names), false
}

// declaration finds "interface name" or "type name" in schema.ts: its
// line number (0 when absent) and its lines, with the doc comment above
// it, down to its closing brace at the start of a line.
func declaration(lines []string, name string) (int, []string) {
	decl := regexp.MustCompile(`^export (interface|type) ` + regexp.QuoteMeta(name) + `\b`)
	for i, ln := range lines {
		if !decl.MatchString(ln) {
			continue
		}
		from := i
		for from > 0 && strings.HasPrefix(strings.TrimSpace(lines[from-1]), "*") || from > 0 && strings.HasPrefix(strings.TrimSpace(lines[from-1]), "/**") {
			from--
		}
		to := i
		block := strings.HasSuffix(strings.TrimSpace(ln), "{")
		for to < len(lines)-1 && (block && !strings.HasPrefix(lines[to], "}") || !block && !strings.HasSuffix(strings.TrimSpace(lines[to]), ";")) {
			to++
		}
		return i + 1, lines[from : to+1]
	}
	return 0, nil
}
