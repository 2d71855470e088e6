package cli

import (
	"regexp"
	"strings"
	"testing"

	"github.com/mcptui/mcptui/internal/protocol"
)

// The help's list of --protocol versions is prose: it must name every
// revision mcptui speaks, newest first, so that a revision added to
// internal/protocol is not left out of it.
func TestUsageListsEveryRevision(t *testing.T) {
	i := strings.Index(Usage, "--protocol V")
	if i < 0 {
		t.Fatal("the help has no --protocol V")
	}
	para := Usage[i:]
	para = para[:strings.Index(para, "(2024-10-07")]
	got := regexp.MustCompile(`\d{4}-\d{2}-\d{2}`).FindAllString(para, -1)
	if want := protocol.NewestFirst(); strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("--protocol in the help lists %v, mcptui speaks %v", got, want)
	}
	if got := strings.Join(KnownProtocols(), " "); got != strings.Join(protocol.NewestFirst(), " ") {
		t.Errorf("KnownProtocols is %s", got)
	}
}
