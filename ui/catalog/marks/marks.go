// Package marks works out what the catalog marks on its rows beside the
// listing's own diff: what changed since a baseline snapshot (mcptui
// --baseline FILE, classified by internal/drift as `mcptui diff` does),
// and which host's or model API's known limits a tool breaks (mcptui
// --host NAME / --model NAME, the rules of `mcptui check --host`), with
// what the tool list costs in context. It works once per listing, off
// the UI goroutine; a row then finds its mark by its key.
package marks

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/mcptui/mcptui/internal/drift"
	"github.com/mcptui/mcptui/internal/hostprofile"
	"github.com/mcptui/mcptui/internal/snapshot"
	"github.com/mcptui/mcptui/internal/toolcost"
)

// Config is what the catalog marks against.
type Config struct {
	// Baseline is the snapshot (or recording) compared with; BaselineName
	// names it (the file).
	Baseline     *snapshot.Document
	BaselineName string
	// Hosts and Models are the profiles judged against.
	Hosts  []hostprofile.Host
	Models []hostprofile.Model
	// ServerName is the server's name in the host's config (a host puts
	// it into every tool name); "" takes the server's own name.
	ServerName string
	// Context is the context size the list's cost is a share of (0:
	// toolcost.DefaultContext).
	Context int

	// costs remembers each tool definition's count: a list listed again
	// costs only its new and changed tools.
	costs toolcost.Cache
}

// On reports whether anything is marked.
func (c *Config) On() bool {
	return c != nil && (c.Baseline != nil || c.judges())
}

// judges reports whether hosts or models were chosen.
func (c *Config) judges() bool { return len(c.Hosts)+len(c.Models) > 0 }

// Break is one host or model rule a tool breaks.
type Break struct {
	// Target is the host or model API ("claude-code", "gemini-cli/gemini").
	Target string
	// Seen is what breaks it (server text: escape it before drawing).
	Seen   string
	Fix    string
	Source string
}

// Mark is what the catalog says of one row.
type Mark struct {
	// Class is the most severe class of Changes ("" none).
	Class   drift.Class
	Changes []drift.Change
	Breaks  []Break
	// Tokens is what the tool's definition costs in context (0: not
	// counted).
	Tokens int
}

// Set is the marks of one list.
type Set struct {
	// Marks are by the row's key (a tool's or prompt's name, a resource's
	// URI, a template's URI template); a row without a mark has none.
	Marks map[string]*Mark
	// Compared says the list was compared with the baseline; Removed are
	// the keys the baseline has and the list has not; Counts are the rows
	// per class (the removed ones under Breaking).
	Compared bool
	Removed  []string
	Counts   map[drift.Class]int
	// Broken is the number of rows that break a host or model rule, and
	// Targets the hosts and models judged.
	Broken  int
	Targets []string
	// Cost is what the tool list costs in context (tools only, with hosts
	// or models chosen; nil otherwise).
	Cost *toolcost.List
	// Err says what could not be worked out.
	Err string
}

// Of is the mark of the row keyed key (nil: none).
func (s *Set) Of(key string) *Mark {
	if s == nil {
		return nil
	}
	return s.Marks[key]
}

// kinds are drift's subject words for the lists' fields.
var kinds = map[string]string{"tools": "tool", "resources": "resource", "resourceTemplates": "template", "prompts": "prompt"}

// List works out the marks of one list: field is its member in a snapshot
// ("tools", "resources", "resourceTemplates", "prompts"), protocol the
// negotiated revision, serverName the server's own name, raws the items
// as listed. It is Rules, then the tools' Cost.
func (c *Config) List(field, protocol, serverName string, raws []json.RawMessage) *Set {
	s := c.Rules(field, protocol, serverName, raws)
	if c.Costs(field) {
		s.AddCost(c.Cost(raws))
	}
	return s
}

// Rules is List without the context cost, which takes most of the time
// for a long list (tokenizing every tool): the changes since the baseline
// and the host and model rules broken, at once; Cost may follow.
func (c *Config) Rules(field, protocol, serverName string, raws []json.RawMessage) *Set {
	s := &Set{Marks: map[string]*Mark{}, Counts: map[drift.Class]int{}}
	if !c.On() {
		return s
	}
	if c.Baseline != nil {
		c.compare(s, field, protocol, raws, s.mark)
	}
	if field == "tools" && c.judges() {
		c.judge(s, serverName, raws, s.mark)
	}
	return s
}

// mark is key's mark, made if it has none.
func (s *Set) mark(key string) *Mark {
	m := s.Marks[key]
	if m == nil {
		m = &Mark{}
		s.Marks[key] = m
	}
	return m
}

// Costs reports whether list field's marks have a context cost (the
// tools, with a host or model chosen).
func (c *Config) Costs(field string) bool {
	return c.On() && field == "tools" && c.judges()
}

// Cost is what tools cost in context, each definition counted once per
// Config (see toolcost.Cache).
func (c *Config) Cost(raws []json.RawMessage) (*toolcost.List, error) {
	return c.costs.Of(raws, c.Context)
}

// AddCost puts a list's cost (Cost's answer) into s: the list's and each
// tool's. It is not safe to call while s is read elsewhere.
func (s *Set) AddCost(cost *toolcost.List, err error) {
	if err != nil {
		s.Err = "the context cost: " + err.Error()
		return
	}
	s.Cost = cost
	for _, t := range cost.Tools {
		s.mark(t.Name).Tokens = t.Tokens
	}
}

// compare marks the changes since the baseline.
func (c *Config) compare(s *Set, field, protocol string, raws []json.RawMessage, mark func(string) *Mark) {
	kind := kinds[field]
	base := c.Baseline.Era(protocol)
	if base == nil && len(c.Baseline.Eras) > 0 {
		base = &c.Baseline.Eras[0]
	}
	if base == nil || kind == "" {
		return
	}
	before := base.Items(field)
	if before == nil {
		// The baseline did not list it: nothing to compare with.
		return
	}
	after := make([]json.RawMessage, 0, len(raws))
	for _, r := range raws {
		n, err := snapshot.Normalize(r)
		if err != nil {
			n = r
		}
		after = append(after, n)
	}
	// Two surfaces of this one list: the rest of the server is not the
	// catalog's to mark.
	a, b := snapshot.Surface{Protocol: protocol}, snapshot.Surface{Protocol: protocol}
	set(&a, field, before)
	set(&b, field, after)
	rep := drift.Compare(&snapshot.Document{Eras: []snapshot.Surface{a}}, &snapshot.Document{Eras: []snapshot.Surface{b}})
	s.Compared = true
	for _, ch := range rep.Changes {
		key, ok := strings.CutPrefix(ch.Subject, kind+" ")
		if !ok {
			continue
		}
		if ch.Kind == kind+"-removed" {
			s.Removed = append(s.Removed, key)
			s.Counts[drift.Breaking]++
			continue
		}
		m := mark(key)
		m.Changes = append(m.Changes, ch)
		if m.Class == "" || severity(ch.Class) < severity(m.Class) {
			m.Class = ch.Class
		}
	}
	for _, m := range s.Marks {
		if m.Class != "" {
			s.Counts[m.Class]++
		}
	}
}

// severity is a class's place in drift.Classes (0 the most severe).
func severity(c drift.Class) int {
	for i, x := range drift.Classes {
		if x == c {
			return i
		}
	}
	return len(drift.Classes)
}

func set(s *snapshot.Surface, field string, items []json.RawMessage) {
	if items == nil {
		items = []json.RawMessage{}
	}
	switch field {
	case "tools":
		s.Tools = items
	case "resources":
		s.Resources = items
	case "resourceTemplates":
		s.ResourceTemplates = items
	case "prompts":
		s.Prompts = items
	}
}

// tool is what the host rules read of a tool.
type tool struct {
	Name        string          `json:"name"`
	InputSchema json.RawMessage `json:"inputSchema"`

	// problems are its schema's, by dialect, once read.
	problems map[hostprofile.Dialect][]hostprofile.SchemaProblem
}

// judge marks the host and model rules each tool breaks, as `check
// --host/--model` judges them.
func (c *Config) judge(s *Set, serverName string, raws []json.RawMessage, mark func(string) *Mark) {
	if c.ServerName != "" {
		serverName = c.ServerName
	}
	if serverName == "" {
		serverName = "server"
	}
	for _, h := range c.Hosts {
		s.Targets = append(s.Targets, h.Name)
	}
	for _, m := range c.Models {
		s.Targets = append(s.Targets, m.Name)
	}
	broken := map[string]bool{}
	brk := func(name string, b Break) {
		m := mark(name)
		m.Breaks = append(m.Breaks, b)
		broken[name] = true
	}
	for _, raw := range raws {
		var t tool
		if json.Unmarshal(raw, &t) != nil || t.Name == "" {
			continue
		}
		// Hosts and models share dialects: each dialect reads the schema
		// once.
		t.problems = map[hostprofile.Dialect][]hostprofile.SchemaProblem{}
		for _, h := range c.Hosts {
			limit, src := h.NameRule()
			if final, prefixed := h.FinalName(serverName, t.Name); limit > 0 && len(final) > limit {
				seen := fmt.Sprintf("%s is %d characters, over the %d-character limit", final, len(final), limit)
				if prefixed {
					seen = fmt.Sprintf("the name the model sees, %s, is %d characters, over the %d-character limit", final, len(final), limit)
				}
				brk(t.Name, Break{Target: h.Name, Seen: seen, Source: src,
					Fix: fmt.Sprintf("shorten the tool name to at most %d characters", limit-(len(final)-len(t.Name)))})
			}
			for _, m := range h.ModelProfiles {
				schema(brk, h.Name+"/"+m.Name, m, &t)
			}
		}
		for _, m := range c.Models {
			if m.NameLimit > 0 && len(t.Name) > m.NameLimit {
				brk(t.Name, Break{Target: m.Name, Source: m.NameSource,
					Seen: fmt.Sprintf("%s is %d characters, over the %d-character limit", t.Name, len(t.Name), m.NameLimit),
					Fix:  fmt.Sprintf("shorten the tool name to at most %d characters", m.NameLimit)})
			}
			schema(brk, m.Name, m, &t)
		}
	}
	s.Broken = len(broken)
}

// schema marks what m's dialect refuses in t's inputSchema.
func schema(brk func(string, Break), target string, m hostprofile.Model, t *tool) {
	if m.Dialect == hostprofile.DialectAny {
		return
	}
	ps, ok := t.problems[m.Dialect]
	if !ok {
		ps = hostprofile.CheckSchema(m.Dialect, t.InputSchema)
		t.problems[m.Dialect] = ps
	}
	for _, p := range ps {
		ptr := p.Pointer
		if ptr == "" {
			ptr = "(the schema itself)"
		}
		brk(t.Name, Break{Target: target, Seen: fmt.Sprintf("inputSchema %s: %s", ptr, p.Problem), Fix: p.Fix, Source: m.DialectSource})
	}
}

// Caps reports whether a chosen host caps results (Result has something
// to say).
func (c *Config) Caps() bool {
	if c == nil {
		return false
	}
	for _, h := range c.Hosts {
		if h.ResultTokens > 0 || h.ResultMetaKey != "" {
			return true
		}
	}
	return false
}

// Result says which chosen hosts' caps a tool result goes over, one line
// each (nil: none, or no host with a cap chosen); tool is the tool as
// listed, result the tools/call result.
func (c *Config) Result(toolRaw, result json.RawMessage) []string {
	overs, err := c.Overs(toolRaw, result)
	if err != nil {
		return []string{err.Error()}
	}
	var out []string
	for _, o := range overs {
		out = append(out, o.String())
	}
	return out
}

// Overs are the chosen hosts' caps a tool result goes over (nil: none, or
// no host with a cap chosen); toolRaw is the tool as listed (nil: not
// known, its _meta is not read), result the tools/call result. Counting
// stops once past every cap (hostprofile.MeasureResult); it still takes a
// while for a large result: call it off the UI goroutine.
func (c *Config) Overs(toolRaw, result json.RawMessage) ([]hostprofile.Over, error) {
	if !c.Caps() {
		return nil, nil
	}
	size, err := hostprofile.MeasureResult(hostprofile.ResultText(result), c.Hosts, false)
	if err != nil {
		return nil, err
	}
	var out []hostprofile.Over
	for _, h := range c.Hosts {
		out = append(out, h.ResultOvers(size, toolRaw)...)
	}
	return out, nil
}
