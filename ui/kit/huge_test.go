package kit

import (
	"strings"
	"testing"

	"github.com/mcptui/mcptui/themes"
)

// TestHugeTextCostsAScreenful: wrapping a few lines of a 15 MiB text, or
// drawing a 15 MiB Markdown description, touches only its start.
func TestHugeTextCostsAScreenful(t *testing.T) {
	huge := strings.Repeat("word ", 3<<20) // 15 MiB, one paragraph
	allocs := testing.AllocsPerRun(3, func() {
		lines, more := Wrap(huge, 80, 2)
		if len(lines) != 2 || !more {
			t.Fatalf("Wrap gave %d lines, more %v", len(lines), more)
		}
	})
	if allocs > 100 {
		t.Errorf("wrapping two lines of a 15 MiB text took %.0f allocations: the whole text was wrapped", allocs)
	}
	st := themes.New(themes.Dark())
	md := Markdown(strings.Repeat("A line of a long description.\n\n", 1<<19), 80, st)
	if len(md) > 2*MarkdownMaxBytes/30+10 {
		t.Errorf("a 15 MiB description gave %d lines: it was drawn whole", len(md))
	}
	if !strings.Contains(md[0], "15.5 MiB of text; the first 64.0 KiB shown") {
		t.Errorf("the first line does not say the text was cut: %q", md[0])
	}
}
