package catalog

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/mcptui/mcptui/skills"
)

// fakeText is what the fake's ReadResource answers for uri.
func fakeText(uri string) string { return "# Read\n\nThe text of " + uri + "." }

// withSkills makes f declare the Skills extension and list two skills:
// git-workflow, whose digests match what the fake reads, and refunds,
// whose second file's listed digest does not.
func withSkills(f *fake) {
	f.extensions = json.RawMessage(`{"io.modelcontextprotocol/skills":{}}`)
	file := func(uri string, good bool) string {
		d := skills.Digest([]byte(fakeText(uri)))
		if !good {
			d = skills.Digest([]byte("other bytes"))
		}
		return fmt.Sprintf(`{"uri":%q,"digest":%q,"size":%d}`, uri, d, len(fakeText(uri)))
	}
	f.results["skills/list"] = `{"skills":[` +
		`{"uri":"skill://git-workflow/SKILL.md","frontmatter":{"name":"git-workflow","description":"Follow the team's Git conventions"},"resources":[` +
		file("skill://git-workflow/SKILL.md", true) + `,` + file("skill://git-workflow/references/branching.md", true) + `]},` +
		`{"uri":"skill://acme/billing/refunds/SKILL.md","frontmatter":{"name":"refunds","description":"Process refunds"},"resources":[` +
		file("skill://acme/billing/refunds/SKILL.md", true) + `,` + file("skill://acme/billing/refunds/examples/email.md", false) + `]}` +
		`],"resultType":"complete","ttlMs":0,"cacheScope":"private"}`
}

// TestSkillsTabHidden: a server without the extension shows no Skills
// tab, the tab keys pass over it, and S says why nothing opens.
func TestSkillsTabHidden(t *testing.T) {
	f := newFake("demo")
	m := newTest(t, f, nil)
	if s := screen(m); strings.Contains(s, "Skills") {
		t.Fatalf("a Skills tab without the extension:\n%s", s)
	}
	m.setTab(Prompts)
	press(m, "right")
	if m.tab != Log {
		t.Errorf("→ from Prompts went to %v, want Log", m.tab)
	}
	press(m, "left")
	if m.tab != Prompts {
		t.Errorf("← from Log went to %v, want Prompts", m.tab)
	}
	press(m, "S")
	if m.tab != Prompts {
		t.Errorf("S opened %v on a server without skills", m.tab)
	}
	mustContain(t, m, "declares no io.modelcontextprotocol/skills extension")
	for _, c := range f.calls {
		if strings.HasPrefix(c, "skills/") {
			t.Errorf("sent %s to a server that declares no skills", c)
		}
	}
}

// TestSkillsTab lists the skills beside the other lists, shows a skill's
// files with their sizes, and on enter reads every file and marks each ✓
// or ✗ by its digest.
func TestSkillsTab(t *testing.T) {
	f := newFake("demo")
	withSkills(f)
	m := newTest(t, f, nil)
	mustContain(t, m, "Skills 2")
	press(m, "S")
	if m.tab != Skills {
		t.Fatalf("S went to %v", m.tab)
	}
	mustContain(t, m, "git-workflow", "refunds", "skill://git-workflow/SKILL.md", "files      2", "references/branching.md")
	press(m, "down", "enter")
	mustContain(t, m, "✗ 1 of 2 files fail verification", "✓ SKILL.md", "✗ examples/email.md: fails verification", "examples/email.md: digest sha256:", "≠ listed sha256:")
	press(m, "esc", "up", "enter")
	mustContain(t, m, "✓ 2 of 2 files match their sha256 digest and size", "✓ references/branching.md")
}
