package model

import (
	"os/exec"
	"strings"
	"testing"
)

// The model is values and their reducer: it must not depend on the
// network (net/http, reached before through mcp and the lint's httpconn)
// nor on a JSON Schema validator (reached through the lint's schemaform).
// The live lint's full form plugs in from above (Config.Linter,
// NewPrelinterWith).
func TestModelDependsOnValuesOnly(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "-f", "{{.ImportPath}}", ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	banned := []string{"net/http", "jsonschema", "github.com/mcptui/mcptui/mcp", "github.com/mcptui/mcptui/httpconn",
		"github.com/mcptui/mcptui/internal/schemaform"}
	for _, dep := range strings.Fields(string(out)) {
		for _, b := range banned {
			if dep == b || strings.Contains(b, "/") && strings.HasPrefix(dep, b+"/") || !strings.Contains(b, "/") && strings.Contains(dep, b) {
				t.Errorf("model depends on %s", dep)
			}
		}
	}
}
