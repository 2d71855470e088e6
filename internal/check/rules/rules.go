// Package rules is the catalogue of what an MCP server must and should do,
// written from the specification text of each protocol revision: every rule
// has an id, the section it comes from, its level and the revisions (an era
// range) it applies to. mcptui check runs them against a server; the live
// linter judges the ones marked Live from the traffic of any session.
package rules

import (
	"fmt"
	"slices"
	"strings"
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
	}
	return fmt.Sprintf("Level(%d)", int(l))
}

// Eras are the protocol revisions the catalogue knows, oldest first. A
// rule's Since and Until are among them.
var Eras = []string{"2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25", "2026-07-28"}

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
	if era < "2026-07-28" {
		return r.Section
	}
	if to, ok := moved26[r.Section]; ok {
		return to
	}
	page, anchor, _ := strings.Cut(r.Section, "#")
	if to, ok := moved26[page]; ok {
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
}

// All returns every rule, in catalogue order (by group).
func All() []Rule { return slices.Clone(catalogue) }

// Get returns the rule with that id.
func Get(id string) (Rule, bool) {
	i := slices.IndexFunc(catalogue, func(r Rule) bool { return r.ID == id })
	if i < 0 {
		return Rule{}, false
	}
	return catalogue[i], true
}

// ForEra returns the rules that apply to revision era.
func ForEra(era string) []Rule {
	var out []Rule
	for _, r := range catalogue {
		if r.Applies(era) {
			out = append(out, r)
		}
	}
	return out
}
