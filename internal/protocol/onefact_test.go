package protocol

import (
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/mcptui/mcptui/internal/testkit/gosource"
)

// notRevisions are the date-shaped string literals of the module's code
// that name no revision of the protocol, each with what it is.
var notRevisions = map[string]string{
	"apps/bridge.go 2026-01-26":                   "the MCP Apps extension's own protocol version (ui/initialize)",
	"internal/check/args.go 2026-01-01":           "a sample value for a JSON Schema string of format date",
	"internal/check/http26.go 2099-01-01":         "a version no server speaks, sent to see it refused",
	"internal/check/lifecycle.go 2099-01-01":      "a version no server speaks, sent to see it refused",
	"internal/check/lifecycle.go 2024-10-00":      "a malformed version, sent to see it refused",
	"internal/check/lifecycle.go 1999-01-01":      "a version older than any, sent to see it refused",
	"internal/check/http26.go 1999-01-01":         "a version older than any, sent to see it refused",
	"internal/hostprofile/profiles.go 2026-12-03": "the date of the host profiles table",
	"ui/form/update.go 2006-01-02":                "Go's reference date, a time layout",
}

var dateShaped = regexp.MustCompile(`^\d{4}-\d{2}-\d{2}$`)

// TestRevisionsAreWrittenOnce: a revision of the protocol is written in
// this package only; everywhere else the code reads it from here, so that
// adding a revision is one edit here and nothing can be forgotten. The
// test reads every non-test Go file of the module (not the nested modules
// under tools/, which cannot import this package) and lists each string
// literal shaped like a date that is not listed above as something else.
func TestRevisionsAreWrittenOnce(t *testing.T) {
	var found []string
	for _, lit := range gosource.StringLiterals(t, "internal/protocol") {
		if !dateShaped.MatchString(lit.Value) {
			continue
		}
		if _, ok := notRevisions[lit.File+" "+lit.Value]; ok {
			continue
		}
		found = append(found, lit.Pos()+": "+strconv.Quote(lit.Value))
	}
	if len(found) > 0 {
		t.Errorf("protocol revisions written outside internal/protocol (read them from there, or list a date that is no revision in notRevisions):\n%s",
			strings.Join(found, "\n"))
	}
}

// notMethods are the literals of the module's code that spell a method's
// name with another meaning, each with what it is.
var notMethods = map[string]string{
	"mcp/negotiate.go initialize":                      "the name of a negotiation step (StepInitialize)",
	"internal/check/rules/rules.go server/discover":    "a page of the 2026-07-28 specification",
	"internal/testkit/npmcache/npmcache.go ping":       "npm's own ping command, which checks the registry is reachable",
	"tools/conformance/driver/scenarios.go initialize": "the name of a client scenario of the conformance suite",
	"tools/shots/scenes.go initialize":                 "a negotiation step shown in a screenshot, as mcp's StepInitialize names it",
}

// TestMethodNamesAreWrittenOnce: the module's code spells a method or
// notification of the protocol through this package's constants, never as
// a literal of its own. The test reads every non-test Go file of the
// module, as TestRevisionsAreWrittenOnce does (not the nested modules
// under tools/, which cannot import this package): a list of the packages
// to read leaves a new package's literals unseen, as such a list left
// replay's until it was added, and some seventy more (the exporters',
// telemetry's, the demo servers', the catalog's...) until it was dropped.
func TestMethodNamesAreWrittenOnce(t *testing.T) {
	names := map[string]bool{}
	for _, v := range Revisions() {
		for _, m := range append(Requests(v), Notifications(v)...) {
			names[m] = true
		}
	}
	for _, m := range append(QuestionMethods(), NotificationMessage, NotificationProgress, NotificationToolsChanged,
		NotificationPromptsChanged, NotificationResourcesChanged, NotificationResourceUpdated, NotificationTasks, MethodTasksList) {
		names[m] = true
	}
	var found []string
	for _, lit := range gosource.StringLiterals(t, "internal/protocol") {
		if !names[lit.Value] {
			continue
		}
		if _, ok := notMethods[lit.File+" "+lit.Value]; ok {
			continue
		}
		found = append(found, lit.Pos()+": "+strconv.Quote(lit.Value))
	}
	if len(found) > 0 {
		t.Errorf("method names written outside internal/protocol (use its constants):\n%s", strings.Join(found, "\n"))
	}
}
