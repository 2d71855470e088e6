package drift

import (
	"slices"
	"strings"

	"github.com/mcptui/mcptui/internal/snapshot"
	"github.com/mcptui/mcptui/mcp"
)

// explainers say which feature of the protocol a change is about: a change
// about a feature the older of two revisions predates is explained by the
// specification, not by the server.
var explainers = []struct {
	kinds   []string
	path    func(string) bool
	feature string
}{
	{[]string{"output-schema-added", "output-schema-removed"}, nil, mcp.FeatureOutputSchema},
	{[]string{"title-added", "title-removed", "title-changed"}, func(p string) bool { return p == "title" }, mcp.FeatureTitle},
	{[]string{"hint-flipped", "title-added", "title-removed", "title-changed"}, func(p string) bool { return strings.HasPrefix(p, "annotations.") }, mcp.FeatureToolAnnotations},
	{[]string{"capability-added", "capability-withdrawn"}, func(p string) bool { return p == "completions" }, mcp.FeatureCompletions},
	{[]string{"capability-added", "capability-withdrawn"}, func(p string) bool { return p == "elicitation" }, mcp.FeatureElicitation},
}

// CompareEras compares a server's surfaces on two revisions (a before b)
// and turns what the specification's own changes explain into info: a
// member the older revision does not have (output schemas, titles, tool
// annotations, the completions capability) present on the newer only.
// What is left — a tool offered on one revision and not the other, a
// schema that differs — is the server's doing.
func CompareEras(a, b *snapshot.Surface) *Report {
	rep := Compare(&snapshot.Document{Format: snapshot.Format, Version: snapshot.Version, Eras: []snapshot.Surface{*a}},
		&snapshot.Document{Format: snapshot.Format, Version: snapshot.Version, Eras: []snapshot.Surface{*b}})
	older := a.Protocol
	if mcp.Before(b.Protocol, older) {
		older = b.Protocol
	}
	rep.Counts = map[Class]int{}
	for i := range rep.Changes {
		ch := &rep.Changes[i]
		if ch.Kind == "protocol-changed" {
			ch.Message = "the two revisions compared"
		}
		for _, e := range explainers {
			since := mcp.Introduced(e.feature)
			if !slices.Contains(e.kinds, ch.Kind) || (e.path != nil && !e.path(ch.Path)) || since == "" || !mcp.Before(older, since) {
				continue
			}
			ch.Class = Info
			ch.Message += " (explained: " + e.feature + " arrived in " + since + ")"
			break
		}
		rep.Counts[ch.Class]++
	}
	return rep
}
