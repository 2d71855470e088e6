package check

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/mcptui/mcptui/conn"
	"github.com/mcptui/mcptui/internal/headless"
	"github.com/mcptui/mcptui/internal/hostprofile"
	"github.com/mcptui/mcptui/internal/inert"
	"github.com/mcptui/mcptui/internal/record"
	"github.com/mcptui/mcptui/internal/toolcost"

	"github.com/mcptui/mcptui/internal/protocol"
)

// The host rules (check --host/--model): no MCP requirement, but what a
// named host or model API is known to refuse (internal/hostprofile). They
// are judged from the traffic the check's own probes cause: every
// tools/list answer and every tools/call result on every connection.
const (
	// HostLevel is the host rules' level in reports: never MUST or SHOULD.
	HostLevel = "host"

	RuleHostToolName   = "host.tool-name-length"
	RuleHostSchema     = "host.schema-dialect"
	RuleHostResultCap  = "host.result-cap"
	RuleHostResultSize = "host.result-declared-size"
	RuleHostBudget     = "host.context-budget"
)

// HostFinding is one thing a host or model API would refuse.
type HostFinding struct {
	Rule string `json:"rule"`
	// Target is the host or model API (a host's model as "host/model").
	Target string `json:"target"`
	Tool   string `json:"tool"`
	// Seen is what was found (server text: escape it before printing).
	Seen string `json:"seen"`
	// Pointer is the JSON pointer into the tool's inputSchema.
	Pointer string `json:"pointer,omitempty"`
	Fix     string `json:"fix"`
	// Source is the issue thread the limit comes from.
	Source string `json:"source"`
}

// HostReport is the host rules' outcome.
type HostReport struct {
	// Profiles is the date of the profile table judged against.
	Profiles string   `json:"profiles"`
	Targets  []string `json:"targets"`
	// Judged are the targets with at least one recorded limit (the others
	// judge nothing: their matrix column is "-").
	Judged []string `json:"judged"`
	// ServerName is the name prefixed tool names were built with, and
	// ServerNameFrom where it came from.
	ServerName     string        `json:"serverName"`
	ServerNameFrom string        `json:"serverNameFrom"`
	Tools          []string      `json:"tools"`
	Results        int           `json:"resultsSeen"`
	Findings       []HostFinding `json:"findings"`
	// Unknown are the limits the profiles do not record: not judged.
	Unknown []string `json:"unknown,omitempty"`
	// Cost is what the tool list costs in context.
	Cost *toolcost.List `json:"cost,omitempty"`
	// Error is why the cost could not be counted.
	Error string `json:"error,omitempty"`
}

// hostWatch collects, from every connection's lines, the tools listed and
// the tool results received.
type hostWatch struct {
	mu         sync.Mutex
	tools      map[string]json.RawMessage
	order      []string
	results    map[string]seenResult
	serverName string
}

// seenResult is the largest result a tool gave: its text, and its size
// once measured.
type seenResult struct {
	text string
	size *hostprofile.ResultSize
}

func newHostWatch() *hostWatch {
	return &hostWatch{tools: map[string]json.RawMessage{}, results: map[string]seenResult{}}
}

// wrap is next (nil: nothing) after the watch's look at one connection's
// lines: each connection numbers its requests, so each has its own map of
// tools/call ids.
func (h *hostWatch) wrap(next func(conn.Event)) func(conn.Event) {
	var mu sync.Mutex
	calls := map[string]string{}
	return func(ev conn.Event) {
		mu.Lock()
		h.see(ev, calls)
		mu.Unlock()
		if next != nil {
			next(ev)
		}
	}
}

func (h *hostWatch) see(ev conn.Event, calls map[string]string) {
	if ev.Line == nil || (ev.Kind != conn.Sent && ev.Kind != conn.Received) {
		return
	}
	var m struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
		Params struct {
			Name string `json:"name"`
		} `json:"params"`
		Result json.RawMessage `json:"result"`
	}
	if json.Unmarshal(ev.Line, &m) != nil {
		return
	}
	if ev.Kind == conn.Sent {
		if m.Method == protocol.MethodCallTool && m.ID != nil {
			calls[string(m.ID)] = m.Params.Name
		}
		return
	}
	if m.Result == nil {
		return
	}
	var res struct {
		Tools      []json.RawMessage `json:"tools"`
		ServerInfo *struct {
			Name string `json:"name"`
		} `json:"serverInfo"`
		// 2026-07-28's server/discover has it in _meta.
		Meta struct {
			ServerInfo *struct {
				Name string `json:"name"`
			} `json:"io.modelcontextprotocol/serverInfo"`
		} `json:"_meta"`
	}
	if json.Unmarshal(m.Result, &res) != nil {
		return
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if res.ServerInfo == nil {
		res.ServerInfo = res.Meta.ServerInfo
	}
	if res.ServerInfo != nil && h.serverName == "" {
		h.serverName = res.ServerInfo.Name
	}
	for _, t := range res.Tools {
		var tn struct {
			Name string `json:"name"`
		}
		if json.Unmarshal(t, &tn) != nil || tn.Name == "" {
			continue
		}
		if _, ok := h.tools[tn.Name]; !ok {
			h.order = append(h.order, tn.Name)
		}
		h.tools[tn.Name] = t
	}
	tool, ok := calls[string(m.ID)]
	if !ok {
		return
	}
	delete(calls, string(m.ID))
	text := hostprofile.ResultText(m.Result)
	if prev, ok := h.results[tool]; !ok || len(text) > len(prev.text) {
		h.results[tool] = seenResult{text: text}
	}
}

// judge applies the profiles to what was seen.
func (h *hostWatch) judge(o Options) *HostReport {
	h.mu.Lock()
	defer h.mu.Unlock()
	hr := &HostReport{Profiles: hostprofile.Version, Findings: []HostFinding{}, Tools: slices.Clone(h.order), Results: len(h.results)}
	hr.ServerName, hr.ServerNameFrom = o.ServerName, "--server-name"
	switch {
	case hr.ServerName != "":
	case h.serverName != "":
		hr.ServerName, hr.ServerNameFrom = h.serverName, "the server's serverInfo.name (a host uses the name in its config: pass --server-name)"
	default:
		hr.ServerName, hr.ServerNameFrom = "server", "a placeholder: the server gave no name (pass --server-name)"
	}
	add := func(f HostFinding) { hr.Findings = append(hr.Findings, f) }
	for _, host := range o.Hosts {
		hr.Targets = append(hr.Targets, host.Name)
		for _, u := range host.Unknown {
			hr.Unknown = append(hr.Unknown, host.Name+": "+u)
		}
		limit, src := host.NameRule()
		judged := limit > 0 || host.ResultTokens > 0
		for _, m := range host.ModelProfiles {
			judged = judged || m.Dialect != hostprofile.DialectAny
		}
		if judged {
			hr.Judged = append(hr.Judged, host.Name)
		}
		for _, name := range h.order {
			final, prefixed := host.FinalName(hr.ServerName, name)
			if limit > 0 && len(final) > limit {
				seen := fmt.Sprintf("%s is %d characters, over the %d-character limit", final, len(final), limit)
				if prefixed {
					seen = fmt.Sprintf("the name the model sees, %s, is %d characters, over the %d-character limit", final, len(final), limit)
				}
				add(HostFinding{Rule: RuleHostToolName, Target: host.Name, Tool: name, Seen: seen, Source: src,
					Fix: fmt.Sprintf("shorten the tool name to at most %d characters (and keep the server's config name short)", limit-(len(final)-len(name)))})
			}
		}
		for _, m := range host.ModelProfiles {
			h.schemas(hr, host.Name+"/"+m.Name, m)
		}
		if host.ResultTokens > 0 {
			h.judgeResults(hr, host)
		}
	}
	for _, m := range o.Models {
		hr.Targets = append(hr.Targets, m.Name)
		if m.NameLimit > 0 || m.Dialect != hostprofile.DialectAny {
			hr.Judged = append(hr.Judged, m.Name)
		}
		for _, u := range m.Unknown {
			hr.Unknown = append(hr.Unknown, m.Name+": "+u)
		}
		for _, name := range h.order {
			if m.NameLimit > 0 && len(name) > m.NameLimit {
				add(HostFinding{Rule: RuleHostToolName, Target: m.Name, Tool: name, Source: m.NameSource,
					Seen: fmt.Sprintf("%s is %d characters, over the %d-character limit", name, len(name), m.NameLimit),
					Fix:  fmt.Sprintf("shorten the tool name to at most %d characters", m.NameLimit)})
			}
		}
		h.schemas(hr, m.Name, m)
	}
	raws := make([]json.RawMessage, 0, len(h.order))
	for _, n := range h.order {
		raws = append(raws, h.tools[n])
	}
	cost, err := toolcost.Of(raws, o.ContextTokens)
	if err != nil {
		hr.Error = err.Error()
	}
	hr.Cost = cost
	if cost != nil && o.ContextBudget > 0 && cost.Total > o.ContextBudget {
		var top []string
		for _, t := range cost.Tools[:min(3, len(cost.Tools))] {
			top = append(top, fmt.Sprintf("%s %d", t.Name, t.Tokens))
		}
		hr.Findings = append(hr.Findings, HostFinding{Rule: RuleHostBudget, Target: "budget", Tool: fmt.Sprintf("(all %d tools)", len(cost.Tools)),
			Seen:   fmt.Sprintf("the tool list costs %d tokens (%s), over the budget of %d; costliest: %s", cost.Total, cost.Tokenizer, o.ContextBudget, strings.Join(top, ", ")),
			Fix:    "shorten the costliest descriptions and schemas, or expose fewer tools (a toolset option, one tool with an action argument)",
			Source: "--budget; anthropics/claude-code#13717 (\"MCP tools consume 50% of context tokens\")"})
	}
	return hr
}

// schemas judges every inputSchema against m's dialect, as target.
func (h *hostWatch) schemas(hr *HostReport, target string, m hostprofile.Model) {
	if m.Dialect == hostprofile.DialectAny {
		return
	}
	for _, name := range h.order {
		var t struct {
			InputSchema json.RawMessage `json:"inputSchema"`
		}
		if json.Unmarshal(h.tools[name], &t) != nil {
			continue
		}
		for _, p := range hostprofile.CheckSchema(m.Dialect, t.InputSchema) {
			ptr := p.Pointer
			if ptr == "" {
				ptr = "(the schema itself)"
			}
			hr.Findings = append(hr.Findings, HostFinding{Rule: RuleHostSchema, Target: target, Tool: name, Pointer: p.Pointer,
				Seen: fmt.Sprintf("inputSchema %s: %s", ptr, p.Problem), Fix: p.Fix, Source: m.DialectSource})
		}
	}
}

// results_ judges the results seen against host's cap.
func (h *hostWatch) judgeResults(hr *HostReport, host hostprofile.Host) {
	if len(h.results) == 0 {
		hr.Unknown = append(hr.Unknown, host.Name+": no tool result was seen, so its result cap was not judged (check calls the read-only tools; --call-tools calls every tool)")
		return
	}
	// Tools whose results were seen but whose listing was not (a
	// recording of calls alone) are judged too, after the listed ones.
	names := slices.Clone(h.order)
	var unlisted []string
	for name := range h.results {
		if _, ok := h.tools[name]; !ok {
			unlisted = append(unlisted, name)
		}
	}
	slices.Sort(unlisted)
	for _, name := range append(names, unlisted...) {
		r, ok := h.results[name]
		if !ok {
			continue
		}
		if r.size == nil {
			// Counted whole, once for every host: a report says the size.
			size, err := hostprofile.MeasureResult(r.text, nil, true)
			if err != nil {
				hr.Error = err.Error()
				return
			}
			r.size = &size
			h.results[name] = r
		}
		for _, o := range host.ResultOvers(*r.size, h.tools[name]) {
			if o.MetaKey != "" {
				hr.Findings = append(hr.Findings, HostFinding{Rule: RuleHostResultSize, Target: host.Name, Tool: name, Source: host.ResultSource,
					Seen: fmt.Sprintf("a result of %d characters, over the tool's own _meta[%q] of %.0f", o.Chars, o.MetaKey, o.MetaChars),
					Fix:  fmt.Sprintf("keep results within the size the tool declares, or declare the size it really returns in _meta[%q]", o.MetaKey)})
				continue
			}
			hr.Findings = append(hr.Findings, HostFinding{Rule: RuleHostResultCap, Target: host.Name, Tool: name, Source: host.ResultSource,
				Seen: fmt.Sprintf("a result of %s, over the %d-token default cap (%s)", o.Amount(), o.Cap, o.Env),
				Fix:  "page or truncate large results (a cursor argument, a limit, a summary with a resource link) so that one result stays well under the cap"})
		}
	}
}

// writeText writes the host section of the text report.
func (hr *HostReport) writeText(b *strings.Builder) {
	targets := strings.Join(hr.Targets, ", ")
	if targets == "" {
		targets = "none asked: the context budget only"
	}
	fmt.Fprintf(b, "\nhosts and model APIs (%s; no MCP requirement: what each is known to refuse; profiles of %s)\n", targets, hr.Profiles)
	fmt.Fprintf(b, "tool names prefixed with server name %q: %s\n", inert.Line(hr.ServerName), hr.ServerNameFrom)
	for _, f := range hr.Findings {
		fmt.Fprintf(b, "%s %-28s %-6s %-24s %s\n", symFail, f.Rule, HostLevel, f.Target, inert.Line(f.Tool))
		fmt.Fprintf(b, "    seen: %s\n", inert.Line(f.Seen))
		fmt.Fprintf(b, "    fix:  %s\n", f.Fix)
		fmt.Fprintf(b, "    source: %s\n", f.Source)
	}
	if len(hr.Targets) > 1 && len(hr.Tools) > 0 {
		hr.writeMatrix(b)
	}
	for _, u := range hr.Unknown {
		fmt.Fprintf(b, "not judged: %s\n", u)
	}
	if hr.Error != "" {
		fmt.Fprintf(b, "%s %s\n", symFail, inert.Line(hr.Error))
	}
	if hr.Cost != nil {
		var cb strings.Builder
		if hr.Cost.WriteText(&cb, inert.Line) == nil {
			b.WriteString(cb.String())
		}
	}
	fmt.Fprintf(b, "%d host findings for %d tools (%d results seen)\n", len(hr.Findings), len(hr.Tools), hr.Results)
}

// writeMatrix writes tool × target, ✓ or ✗.
func (hr *HostReport) writeMatrix(b *strings.Builder) {
	bad := map[[2]string]bool{}
	for _, f := range hr.Findings {
		t, _, _ := strings.Cut(f.Target, "/")
		bad[[2]string{f.Tool, t}] = true
	}
	w := 4
	for _, n := range hr.Tools {
		w = max(w, min(len(inert.Line(n)), 40))
	}
	fmt.Fprintf(b, "matrix (%s refused, %s within every recorded limit, %s no limit recorded):\n", symFail, symPass, symSkip)
	fmt.Fprintf(b, "%-*s", w+2, "tool")
	for _, t := range hr.Targets {
		fmt.Fprintf(b, " %s", t)
	}
	b.WriteString("\n")
	for _, n := range hr.Tools {
		name := inert.Line(n)
		if len(name) > 40 {
			name = name[:39] + "…"
		}
		fmt.Fprintf(b, "%-*s", w+2, name)
		for _, t := range hr.Targets {
			mark := symPass
			switch {
			case bad[[2]string{n, t}]:
				mark = symFail
			case !slices.Contains(hr.Judged, t):
				mark = symSkip
			}
			fmt.Fprintf(b, " %-*s", len(t), mark)
		}
		b.WriteString("\n")
	}
}

// junit adds one suite of the host findings, one case per target and rule.
func (hr *HostReport) junit(doc *headless.JUnitSuites) {
	s := headless.JUnitSuite{Name: "mcptui check hosts", Time: "0.000", Properties: []headless.JUnitProperty{{Name: "profiles", Value: hr.Profiles}}}
	for _, t := range hr.Targets {
		for _, rule := range []string{RuleHostToolName, RuleHostSchema, RuleHostResultCap, RuleHostResultSize} {
			c := headless.JUnitCase{Name: rule, Classname: "host." + t, Time: "0.000"}
			if !slices.Contains(hr.Judged, t) {
				c.Skipped = &headless.JUnitProblem{Message: "no limit recorded for " + t}
			}
			var seen []string
			for _, f := range hr.Findings {
				if f.Rule == rule && strings.SplitN(f.Target, "/", 2)[0] == t {
					seen = append(seen, f.Tool+": "+f.Seen+" (source: "+f.Source+")")
				}
			}
			if len(seen) > 0 {
				c.Skipped = nil
				c.Failure = &headless.JUnitProblem{Message: seen[0], Type: HostLevel, Text: strings.Join(seen, "\n")}
				s.Failures++
			}
			s.Cases = append(s.Cases, c)
		}
	}
	for _, f := range hr.Findings {
		if f.Rule == RuleHostBudget {
			s.Cases = append(s.Cases, headless.JUnitCase{Name: RuleHostBudget, Classname: "host.budget", Time: "0.000",
				Failure: &headless.JUnitProblem{Message: f.Seen, Type: HostLevel, Text: f.Seen + "\nfix: " + f.Fix}})
			s.Failures++
		}
	}
	s.Tests = len(s.Cases)
	doc.Tests += s.Tests
	doc.Failures += s.Failures
	doc.Suites = append(doc.Suites, s)
}

// sarif are the host findings as SARIF results (level error: a host
// refuses the tool).
func (hr *HostReport) sarif(uri string) ([]sarifRule, []sarifResult) {
	var rs []sarifRule
	for _, id := range []string{RuleHostToolName, RuleHostSchema, RuleHostResultCap, RuleHostResultSize, RuleHostBudget} {
		rs = append(rs, sarifRule{ID: id, ShortDescription: sarifText{"what a named host or model API refuses (no MCP requirement)"},
			Help: sarifText{"see the finding's source"}, HelpURI: "https://github.com/mcptui/mcptui", Default: sarifConfig{"error"},
			Properties: map[string]any{"level": HostLevel, "profiles": hr.Profiles, "tags": []string{"mcp", "host"}}})
	}
	var out []sarifResult
	for _, f := range hr.Findings {
		out = append(out, sarifResult{RuleID: f.Rule, Level: "error",
			Message:   sarifText{"[" + f.Target + "] tool " + f.Tool + ": " + f.Seen + " Fix: " + f.Fix + " Source: " + f.Source},
			Locations: []sarifLocation{{Physical: sarifPhysical{Artifact: sarifArtifact{URI: uri}}}}})
	}
	return rs, out
}

// FromRecording judges the tool lists and tool results of a recording
// against o's host and model profiles (check --recording): nothing is
// started or called. Every line of the recording is read as one
// connection's: a tools/call is matched to the next answer with its id.
func FromRecording(rec *record.Recording, name string, o Options) *Report {
	rep := &Report{Command: []string{"--recording", name}, Started: time.Now(), Eras: []EraReport{}, Recording: name}
	h := newHostWatch()
	see := h.wrap(nil)
	for _, e := range rec.Entries {
		kind, ok := map[string]conn.EventKind{record.TypeSent: conn.Sent, record.TypeReceived: conn.Received}[e.Type]
		if !ok {
			continue
		}
		see(conn.Event{Time: e.Time, Kind: kind, Line: e.Content(), Size: e.Size})
	}
	rep.Hosts = h.judge(o)
	rep.Duration = time.Since(rep.Started)
	rep.Millis = rep.Duration.Milliseconds()
	return rep
}
