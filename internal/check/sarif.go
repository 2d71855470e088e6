package check

import (
	"encoding/json"
	"io"
	"strings"

	"github.com/mcptui/mcptui/internal/check/rules"
)

// SARIF 2.1.0, the format code-scanning tools read: one run, the rule table
// as the driver's rules, one result per failed rule and era. The location
// is the server's command (the artifact being checked).

type sarifLog struct {
	Schema  string     `json:"$schema"`
	Version string     `json:"version"`
	Runs    []sarifRun `json:"runs"`
}

type sarifRun struct {
	Tool    sarifTool     `json:"tool"`
	Results []sarifResult `json:"results"`
}

type sarifTool struct {
	Driver sarifDriver `json:"driver"`
}

type sarifDriver struct {
	Name           string      `json:"name"`
	InformationURI string      `json:"informationUri"`
	Rules          []sarifRule `json:"rules"`
}

type sarifRule struct {
	ID               string         `json:"id"`
	ShortDescription sarifText      `json:"shortDescription"`
	Help             sarifText      `json:"help"`
	HelpURI          string         `json:"helpUri"`
	Default          sarifConfig    `json:"defaultConfiguration"`
	Properties       map[string]any `json:"properties"`
}

type sarifConfig struct {
	Level string `json:"level"`
}

type sarifText struct {
	Text string `json:"text"`
}

type sarifResult struct {
	RuleID    string          `json:"ruleId"`
	Level     string          `json:"level"`
	Message   sarifText       `json:"message"`
	Locations []sarifLocation `json:"locations"`
}

type sarifLocation struct {
	Physical sarifPhysical `json:"physicalLocation"`
}

type sarifPhysical struct {
	Artifact sarifArtifact `json:"artifactLocation"`
}

type sarifArtifact struct {
	URI string `json:"uri"`
}

// sarifLevel maps a rule level to SARIF's: MUST error, SHOULD warning,
// best practice note.
func sarifLevel(l rules.Level) string {
	switch l {
	case rules.Must:
		return "error"
	case rules.Should:
		return "warning"
	}
	return "note"
}

// WriteSARIF writes the failures as a SARIF 2.1.0 log.
func (r *Report) WriteSARIF(w io.Writer) error {
	drv := sarifDriver{Name: "mcptui check", InformationURI: "https://github.com/mcptui/mcptui"}
	for _, rule := range append(rules.All(), rules.Drift...) {
		drv.Rules = append(drv.Rules, sarifRule{ID: rule.ID, ShortDescription: sarifText{rule.Text}, Help: sarifText{rule.Fix},
			HelpURI: rule.URL(lastEra(rule)), Default: sarifConfig{sarifLevel(rule.Level)},
			Properties: map[string]any{"level": rule.Level.String(), "eras": rule.EraRange(), "section": rule.SectionIn(lastEra(rule)), "tags": []string{"mcp", rule.Group}}})
	}
	run := sarifRun{Tool: sarifTool{Driver: drv}, Results: []sarifResult{}}
	uri := "server"
	if len(r.Command) > 0 {
		uri = r.Command[0]
	}
	for _, e := range r.Eras {
		for _, res := range e.Results {
			if res.Status != Failed {
				continue
			}
			msg := "[" + e.Era + "] " + res.Rule.Text
			if len(res.Seen) > 0 {
				msg += " Seen: " + strings.Join(res.Seen, "; ")
			}
			msg += " Fix: " + res.Rule.Fix
			run.Results = append(run.Results, sarifResult{RuleID: res.ID, Level: sarifLevel(res.Rule.Level), Message: sarifText{msg},
				Locations: []sarifLocation{{Physical: sarifPhysical{Artifact: sarifArtifact{URI: uri}}}}})
		}
	}
	if r.Hosts != nil {
		rs, res := r.Hosts.sarif(uri)
		run.Tool.Driver.Rules = append(run.Tool.Driver.Rules, rs...)
		run.Results = append(run.Results, res...)
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(sarifLog{Schema: "https://json.schemastore.org/sarif-2.1.0.json", Version: "2.1.0", Runs: []sarifRun{run}})
}

// lastEra is the newest revision a rule applies to.
func lastEra(r rules.Rule) string {
	if r.Until != "" {
		return r.Until
	}
	return rules.Eras[len(rules.Eras)-1]
}
