package check

import (
	"context"
	"fmt"

	"github.com/mcptui/mcptui/internal/check/rules"
	"github.com/mcptui/mcptui/internal/drift"
	"github.com/mcptui/mcptui/internal/snapshot"
)

// driftClass is the change class each drift rule reports.
var driftClass = map[string]drift.Class{"drift.breaking": drift.Breaking, "drift.risky": drift.Risky, "drift.additive": drift.Additive}

// AddDrift compares the server's surface on each era the report checked
// with base (the same era of base, or its only one) and adds the drift
// group's results to that era's report.
func AddDrift(ctx context.Context, rep *Report, o Options, base *snapshot.Document) {
	for i := range rep.Eras {
		e := &rep.Eras[i]
		var selected []rules.Rule
		for _, r := range rules.Drift {
			if o.selects(r) {
				selected = append(selected, r)
			}
		}
		if len(selected) == 0 || e.Error != "" {
			continue
		}
		results := map[string]*Result{}
		for _, r := range selected {
			results[r.ID] = &Result{Rule: r, ID: r.ID, Level: r.Level.String(), Era: e.Era, Status: Passed, Checks: 1}
		}
		why := ""
		old := base.Era(e.Era)
		if old == nil && len(base.Eras) == 1 {
			old = &base.Eras[0]
		}
		var now *snapshot.Document
		if old == nil {
			why = "the baseline has no surface for " + e.Era
		} else {
			var err error
			now, err = snapshot.Capture(ctx, o.Command, o.Args, o.mcpOptions([]string{e.Era}, nil), []string{e.Era})
			if err != nil {
				why = fmt.Sprintf("could not snapshot the server on %s: %v", e.Era, err)
			}
		}
		if why == "" {
			d := drift.Compare(&snapshot.Document{Format: snapshot.Format, Version: snapshot.Version, Eras: []snapshot.Surface{*old}}, now)
			for _, ch := range d.Changes {
				for id, class := range driftClass {
					if res := results[id]; res != nil && ch.Class == class {
						res.Status = Failed
						res.Seen = append(res.Seen, driftLine(ch))
					}
				}
			}
		}
		for _, r := range selected {
			res := results[r.ID]
			if why != "" {
				res.Status, res.Why, res.Checks = Skipped, why, 0
			}
			e.Results = append(e.Results, *res)
		}
	}
}

// driftLine is a change as one line of a check report.
func driftLine(ch drift.Change) string {
	s := ch.Subject + ": " + ch.Message
	if ch.Path != "" {
		s += " (" + ch.Path + ")"
	}
	if ch.Before != "" || ch.After != "" {
		s += ": " + ch.Before + " → " + ch.After
	}
	if ch.Words != "" {
		s += ": " + ch.Words
	}
	return s
}
