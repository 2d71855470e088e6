package themes

import (
	"strings"
	"testing"

	"github.com/mcptui/mcptui/internal/testkit/gosource"
)

// TestNoColorIsReadHereOnly: the NO_COLOR convention is read by NoColor
// alone; the rest of the module asks it (it was read by hand in four
// places of internal/app).
func TestNoColorIsReadHereOnly(t *testing.T) {
	var found []string
	for _, lit := range gosource.StringLiterals(t, "themes") {
		if lit.Value == "NO_COLOR" {
			found = append(found, lit.Pos())
		}
	}
	if len(found) > 0 {
		t.Errorf("NO_COLOR read by hand (use themes.NoColor):\n%s", strings.Join(found, "\n"))
	}
}
