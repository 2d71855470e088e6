package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcptui/mcptui/internal/check/rules"
)

// An extension's citation is checked against its page when the page's
// text is given (-ext): the section and its keyword, or the type a rule
// rests on; without the text it is listed as not checked.
func TestExtensionCitations(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	// Pages of our own words, shaped like the extensions' (no text of
	// theirs is copied).
	good := write("good.mdx", "# Ext\n\n### Resources\n\n- An entry **MUST** be so.\n\n### Resource Discovery\n\n```typescript\ninterface McpUiToolMeta {}\n```\n")
	bare := write("bare.mdx", "# Ext\n\n### Resources\n\nNothing normative.\n\n### Resource Discovery\n\nNo types.\n")
	cite := func(id string) (rules.Rule, rules.Cite) {
		r, ok := rules.Get(id)
		if !ok {
			t.Fatalf("no rule %s", id)
		}
		return r, r.Cites()[0]
	}
	for _, c := range []struct {
		id, page, file string
		ok             bool
		want           string
	}{
		{"skills.digests", "extensions/skills", good, true, "✓ 1 lines with MUST"},
		{"skills.digests", "extensions/skills", bare, false, "✗ no sentence with MUST"},
		{"apps.tool-meta", "extensions/apps", good, true, "McpUiToolMeta declared at line"},
		{"apps.tool-meta", "extensions/apps", bare, false, "✗ no interface McpUiToolMeta"},
		{"skills.uri-name", "extensions/skills", good, false, "✗ no section #frontmatter"},
		{"skills.digests", "", "", true, "not checked: the extension's own site"},
	} {
		d := specDir{ext: extFlag{}}
		if c.page != "" {
			d.ext[c.page] = c.file
		}
		r, ct := cite(c.id)
		got, ok := verdict(d, r, ct)
		if ok != c.ok || !strings.Contains(got, c.want) {
			t.Errorf("%s on %s: %q %v, want %q %v", c.id, filepath.Base(c.file), got, ok, c.want, c.ok)
		}
	}
}
