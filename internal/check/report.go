package check

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/mcptui/mcptui/internal/check/rules"
	"github.com/mcptui/mcptui/internal/headless"
	"github.com/mcptui/mcptui/internal/inert"
)

// Symbols of the text report.
const (
	symPass = "✓"
	symFail = "✗"
	symWarn = "!"
	symSkip = "-"
)

// symbol is a result's mark: ✗ for a failed rule at level or stronger, !
// for a weaker failed one.
func symbol(res Result, level rules.Level) string {
	switch res.Status {
	case Passed:
		return symPass
	case Failed:
		if res.Rule.Level <= level && res.Rule.Level != rules.Robustness {
			return symFail
		}
		return symWarn
	}
	return symSkip
}

// WriteText writes the compiler-like report: per era, one line per rule
// (✓ ✗ ! -), and under each failure the section, what was seen and the
// fix. Skipped rules are listed only when verbose. Server text is escaped.
func (r *Report) WriteText(w io.Writer, level rules.Level, verbose bool) error {
	var b strings.Builder
	fmt.Fprintf(&b, "mcptui check -- %s\n", inert.Line(strings.Join(r.Command, " ")))
	if r.Error != "" {
		fmt.Fprintf(&b, "%s %s\n", symFail, inert.Line(r.Error))
	}
	for _, e := range r.Eras {
		fmt.Fprintf(&b, "\nprotocol %s", e.Era)
		if e.Server != "" {
			fmt.Fprintf(&b, " · %s", inert.Line(e.Server))
		}
		fmt.Fprintf(&b, " · %.1fs\n", e.Duration.Seconds())
		if e.Error != "" {
			fmt.Fprintf(&b, "%s %s\n", symFail, inert.Line(e.Error))
		}
		for _, n := range e.Notes {
			fmt.Fprintf(&b, "note: %s\n", inert.Line(n))
		}
		var passed, failed, warned, skipped, robust int
		// Robustness results come last, under their own heading: they
		// are no MCP requirement.
		results, heading := byLevel(e.Results), false
		for _, res := range results {
			sym := symbol(res, level)
			if res.Rule.Level == rules.Robustness {
				if res.Status == Failed {
					robust++
				}
				if !heading && (sym != symSkip || verbose) {
					heading = true
					b.WriteString("robustness (no MCP requirement: JSON-RPC 2.0 alone, or a probe a client may not send):\n")
				}
			}
			switch {
			case res.Rule.Level == rules.Robustness:
			case sym == symPass:
				passed++
			case sym == symFail:
				failed++
			case sym == symWarn:
				warned++
			default:
				skipped++
			}
			if sym == symSkip && !verbose {
				continue
			}
			fmt.Fprintf(&b, "%s %-42s %-13s %s\n", sym, res.ID, res.Rule.Level, res.Rule.SectionIn(e.Era))
			switch res.Status {
			case Failed:
				fmt.Fprintf(&b, "    %s\n", res.Rule.Text)
				for _, s := range res.Seen {
					fmt.Fprintf(&b, "    seen: %s\n", inert.Line(s))
				}
				if res.Checks > len(res.Seen) {
					fmt.Fprintf(&b, "    (judged %d times)\n", res.Checks)
				}
				fmt.Fprintf(&b, "    fix:  %s\n", res.Rule.Fix)
				fmt.Fprintf(&b, "    see:  %s\n", res.Rule.URL(e.Era))
			case Skipped:
				fmt.Fprintf(&b, "    skipped: %s\n", inert.Line(res.Why))
			}
		}
		fmt.Fprintf(&b, "%d passed, %d failed, %d warnings, %d skipped (of %d rules for %s)",
			passed, failed, warned, skipped, len(e.Results), e.Era)
		if robust > 0 {
			fmt.Fprintf(&b, "; %d robustness notes", robust)
		}
		b.WriteString("\n")
	}
	if r.Hosts != nil {
		r.Hosts.writeText(&b)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// byLevel is results with the robustness ones moved last, each part in
// its order.
func byLevel(results []Result) []Result {
	out := make([]Result, 0, len(results))
	for _, robust := range []bool{false, true} {
		for _, res := range results {
			if (res.Rule.Level == rules.Robustness) == robust {
				out = append(out, res)
			}
		}
	}
	return out
}

// WriteJSON writes the report as one JSON object (rules with their text,
// section and fix beside each result).
func (r *Report) WriteJSON(w io.Writer) error {
	type jsonResult struct {
		Result
		Section string `json:"section"`
		Eras    string `json:"eras"`
		Text    string `json:"text"`
		Fix     string `json:"fix,omitempty"`
	}
	type jsonEra struct {
		EraReport
		Results []jsonResult `json:"results"`
	}
	out := struct {
		*Report
		Eras []jsonEra `json:"eras"`
	}{Report: r}
	for _, e := range r.Eras {
		je := jsonEra{EraReport: e}
		for _, res := range e.Results {
			jr := jsonResult{Result: res, Section: res.Rule.SectionIn(e.Era), Eras: res.Rule.EraRange(), Text: res.Rule.Text}
			if res.Status == Failed {
				jr.Fix = res.Rule.Fix
			}
			je.Results = append(je.Results, jr)
		}
		out.Eras = append(out.Eras, je)
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}

// WriteJUnit writes one suite per era, one case per rule: a failure for a
// failed rule at level or stronger, skipped for skipped rules and for
// weaker failures (with what was seen).
func (r *Report) WriteJUnit(w io.Writer, level rules.Level) error {
	doc := headless.JUnitSuites{Name: "mcptui check", Time: headless.JUnitSeconds(r.Duration)}
	for _, e := range r.Eras {
		s := headless.JUnitSuite{Name: "mcptui check " + e.Era, Time: headless.JUnitSeconds(e.Duration),
			Timestamp:  r.Started.UTC().Format("2006-01-02T15:04:05"),
			Properties: []headless.JUnitProperty{{Name: "server", Value: e.Server}, {Name: "protocol", Value: e.Era}}}
		if e.Error != "" {
			s.Cases = append(s.Cases, headless.JUnitCase{Name: "connect", Classname: e.Era, Time: "0.000",
				Error: &headless.JUnitProblem{Message: e.Error, Type: "connect"}})
			s.Errors++
		}
		for _, res := range e.Results {
			c := headless.JUnitCase{Name: res.ID, Classname: "mcp." + e.Era + "." + res.Rule.Group, Time: "0.000"}
			detail := res.Rule.Text + "\n" + strings.Join(res.Seen, "\n") + "\nfix: " + res.Rule.Fix + "\nsee: " + res.Rule.URL(e.Era)
			switch sym := symbol(res, level); sym {
			case symFail:
				c.Failure = &headless.JUnitProblem{Message: firstOr(res.Seen, res.Rule.Text), Type: res.Rule.Level.String(), Text: detail}
				s.Failures++
			case symWarn:
				c.SystemOut = res.Rule.Level.String() + " not met: " + detail
			case symSkip:
				c.Skipped = &headless.JUnitProblem{Message: res.Why}
			}
			s.Cases = append(s.Cases, c)
		}
		s.Tests = len(s.Cases)
		doc.Tests += s.Tests
		doc.Failures += s.Failures
		doc.Errors += s.Errors
		doc.Suites = append(doc.Suites, s)
	}
	if r.Hosts != nil {
		r.Hosts.junit(&doc)
	}
	return headless.WriteJUnitSuites(w, doc)
}

func firstOr(s []string, def string) string {
	if len(s) > 0 {
		return s[0]
	}
	return def
}
