package rules

// Drift are the baseline group (mcptui check --baseline): the server
// compared with a snapshot of its last release. They rest on no sentence
// of the specification, so they are not in the rule table; check.AddDrift adds
// their results to a report.
var Drift = []Rule{
	{ID: "drift.breaking", Group: "drift", Level: Must, Section: "server/tools", Since: Eras[0],
		Text: "Nothing a client of the baseline relies on is taken away or narrowed: no tool, resource, template or prompt removed, no required argument added, no type narrowed or enum value removed, additionalProperties not closed, no output field removed or made optional, no capability withdrawn.",
		Fix:  "Restore what the baseline offers, or release a breaking version and renew the baseline (mcptui snapshot -- server > baseline.json)."},
	{ID: "drift.risky", Group: "drift", Level: Should, Section: "server/tools", Since: Eras[0],
		Text: "What the user approved is unchanged: tool, resource and prompt descriptions and titles, the server's instructions, and the readOnlyHint and destructiveHint annotations (a rewording after approval is a rug-pull).",
		Fix:  "Review each change; when it is meant, renew the baseline (mcptui snapshot -- server > baseline.json)."},
	{ID: "drift.additive", Group: "drift", Level: Practice, Section: "server/tools", Since: Eras[0],
		Text: "Additions since the baseline (new tools, optional arguments, capabilities) are listed for review.",
		Fix:  "Nothing to fix; renew the baseline to stop listing them."},
}
