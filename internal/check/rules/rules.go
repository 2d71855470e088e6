// Package rules is the table of what an MCP server must and should do,
// written from the specification text of each protocol revision: every rule
// has an id, the section it comes from, its level and the revisions (an era
// range) it applies to. mcptui check runs them against a server; the live
// linter judges the ones marked Live from the traffic of any session.
package rules

import (
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/mcptui/mcptui/internal/protocol"
)

// Level is how strongly the specification asks for a rule.
type Level int

// The levels, strongest first.
const (
	// Must is a MUST (or MUST NOT) of the specification.
	Must Level = iota + 1
	// Should is a SHOULD (or SHOULD NOT).
	Should
	// Practice is a best practice: not written as a requirement, but what
	// clients rely on.
	Practice
	// Robustness is no MCP requirement: behaviour JSON-RPC 2.0 alone asks
	// for, or the answer to a probe the client is not allowed to send
	// (stdio: "The client MUST NOT write anything to the server's stdin
	// that is not a valid MCP message"). Reports list it apart from the
	// MCP levels, never as a MUST or SHOULD.
	Robustness
)

// String is the level as the specification writes it.
func (l Level) String() string {
	switch l {
	case Must:
		return "MUST"
	case Should:
		return "SHOULD"
	case Practice:
		return "best practice"
	case Robustness:
		return "robustness"
	}
	return fmt.Sprintf("Level(%d)", int(l))
}

// Eras are the protocol revisions the rule table knows, oldest first. A
// rule's Since and Until are among them.
var Eras = protocol.Revisions()

// Rule is one requirement on servers.
type Rule struct {
	// ID names the rule: group.what, e.g. "tools.input-schema-object".
	ID string
	// Group is the rule group: transport, lifecycle, capabilities, tools,
	// resources, prompts, errors, utilities.
	Group string
	Level Level
	// Section is the specification page and anchor, without the revision
	// (URL gives the full address for one revision).
	Section string
	// Schema, when set, names the type(s) of the revision's schema.ts the
	// rule rests on ("A|B": the name changed between revisions): a message
	// shape the specification states as a type, not a sentence. The rule
	// is then cited as that type (CITATIONS.md), its Section is for people.
	Schema string
	// Since and Until are the first and last revisions the rule applies to
	// (Until "" means every later one too).
	Since, Until string
	// Text is the requirement, in the specification's words where it has
	// them.
	Text string
	// Fix says what to change in the server.
	Fix string
	// Live marks rules judged from traffic alone: they also run on the
	// inspector's live session.
	Live bool
}

// Keyword is the normative keyword of the specification a rule at this
// level rests on: MUST or SHOULD; "" for a best practice and for
// robustness, which rest on none.
func (l Level) Keyword() string {
	switch l {
	case Must:
		return "MUST"
	case Should:
		return "SHOULD"
	}
	return ""
}

// Cite is where one revision states a rule: the revision, the section as
// that revision names it (page#anchor) and the normative keyword a
// sentence of that section holds. tools/speccheck checks each against the
// specification's text and writes CITATIONS.md.
type Cite struct {
	Era, Section, Keyword string
}

// Cites are the rule's citations, one per revision it applies to. A rule
// whose section is outside the MCP specification (JSON-RPC 2.0, an
// extension's site) has one, with no revision: its text is elsewhere.
func (r Rule) Cites() []Cite {
	page, _, _ := strings.Cut(r.Section, "#")
	if _, ok := extensionPages[page]; ok {
		kw := r.Level.Keyword()
		if r.Schema != "" && kw == "MUST" {
			kw = "schema" // a type the extension declares, as below
		}
		return []Cite{{Section: r.Section, Keyword: kw}}
	}
	var out []Cite
	for _, e := range Eras {
		if !r.Applies(e) {
			continue
		}
		c := Cite{Era: e, Section: r.SectionIn(e), Keyword: r.Level.Keyword()}
		if r.Schema != "" {
			// A type holds no MUST: that it is declared is the check; a
			// SHOULD in its comments is looked for.
			c.Section = "schema.ts#" + r.Schema
			if c.Keyword == "MUST" {
				c.Keyword = "schema"
			}
		}
		out = append(out, c)
	}
	return out
}

// Applies reports whether the rule holds on protocol revision era.
func (r Rule) Applies(era string) bool {
	return era >= r.Since && (r.Until == "" || era <= r.Until)
}

// EraRange is the revisions the rule applies to, for reports:
// "2025-06-18+" or "2024-11-05…2025-11-25".
func (r Rule) EraRange() string {
	if r.Until == "" {
		return r.Since + "+"
	}
	if r.Until == r.Since {
		return r.Since
	}
	return r.Since + "…" + r.Until
}

// URL is the address of the rule's section in revision era. Sections
// are named as up to 2025-11-25; 2026-07-28 moved some pages (moved26). An
// extension's section (extensions/tasks#…) is on the extension's site.
func (r Rule) URL(era string) string {
	page, anchor, _ := strings.Cut(r.Section, "#")
	if site, ok := extensionPages[page]; ok {
		if anchor != "" {
			return site + "#" + anchor
		}
		return site
	}
	return "https://modelcontextprotocol.io/specification/" + era + "/" + r.SectionIn(era)
}

// SectionIn is the rule's section as revision era names it.
func (r Rule) SectionIn(era string) string {
	moved := moved26
	switch {
	case era == protocol.Rev20241105:
		moved = moved24
	case !protocol.Stateless(era):
		return r.Section
	}
	if to, ok := moved[r.Section]; ok {
		return to
	}
	page, anchor, _ := strings.Cut(r.Section, "#")
	if to, ok := moved[page]; ok {
		if anchor == "" || strings.Contains(to, "#") {
			return to
		}
		return to + "#" + anchor
	}
	return r.Section
}

// extensionPages are the pages of official extensions, outside the core
// specification's site, by the section name rules give them.
var extensionPages = map[string]string{
	"extensions/tasks": "https://modelcontextprotocol.github.io/ext-tasks/specification/2026-07-28/tasks",
	// Skills (SEP-2640) and MCP Apps (SEP-1865): their repositories' text.
	"extensions/skills": "https://github.com/modelcontextprotocol/ext-skills/blob/main/specification/stable/skills.mdx",
	"extensions/apps":   "https://github.com/modelcontextprotocol/ext-apps/blob/main/specification/2026-01-26/apps.mdx",
	// JSON-RPC 2.0 itself: the robustness rules' source.
	"jsonrpc": "https://www.jsonrpc.org/specification",
}

// moved24 are the sections 2024-11-05 held elsewhere: its messages had a
// page of their own.
var moved24 = map[string]string{
	"basic#messages":      "basic",
	"basic#requests":      "basic/messages#requests",
	"basic#responses":     "basic/messages#responses",
	"basic#notifications": "basic/messages#notifications",
}

// moved26 are the sections (or whole pages) 2026-07-28 moved elsewhere.
var moved26 = map[string]string{
	"basic/lifecycle#discovery":              "server/discover",
	"basic/lifecycle#version-negotiation":    "basic/versioning#protocol-version-negotiation",
	"basic/lifecycle#capability-negotiation": "basic/versioning",
	"basic/lifecycle#stdio":                  "basic/transports/stdio#shutdown",
	"basic/lifecycle":                        "basic#statelessness",
	"basic#caching":                          "server/utilities/caching",
	"basic#results":                          "basic#resulttype",
	"basic/transports#stdio":                 "basic/transports/stdio",
	"basic/utilities/cancellation":           "basic/patterns/cancellation",
	"basic/utilities/progress":               "basic/patterns/progress",
	"basic/transports#security-warning":      "basic/transports/streamable-http#security-%26-endpoint",
}

// rulesTable is every rule: the first table with the robustness rules
// beside their groups, then the 2026-07-28 ones and the extensions'. It
// is put together at its first use, not by package initializers that
// every run of mcptui (--version, the demo server) would pay for.
var rulesTable = sync.OnceValue(func() []Rule {
	t := add(slices.Clone(table), robustness)
	return slices.Concat(t, table26, tableExt)
})

// All returns every rule, in table order (by group).
func All() []Rule { return slices.Clone(rulesTable()) }

// Get returns the rule with that id.
func Get(id string) (Rule, bool) {
	t := rulesTable()
	i := slices.IndexFunc(t, func(r Rule) bool { return r.ID == id })
	if i < 0 {
		return Rule{}, false
	}
	return t[i], true
}

// ForEra returns the rules that apply to revision era.
func ForEra(era string) []Rule {
	var out []Rule
	for _, r := range rulesTable() {
		if r.Applies(era) {
			out = append(out, r)
		}
	}
	return out
}

// CitationsFile is the table tools/speccheck writes, beside this package.
const CitationsFile = "CITATIONS.md"

// Row is the start of c's row in CitationsFile: the rule, its level, the
// revision, the section and the keyword; the checker's result follows.
func (c Cite) Row(r Rule) string {
	era, kw := c.Era, c.Keyword
	if era == "" {
		era = "—"
	}
	if kw == "" {
		kw = "—"
	}
	return fmt.Sprintf("| `%s` | %s | %s | `%s` | %s |", r.ID, r.Level, era, c.Section, kw)
}
