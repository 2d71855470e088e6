package main

import (
	"os/exec"
	"strings"
	"testing"

	"github.com/mcptui/mcptui/internal/release"
)

// releaseTags is the build tags of .goreleaser.yaml's build.
func releaseTags(t *testing.T) []string {
	t.Helper()
	tags, err := release.Tags(".")
	if err != nil {
		t.Fatal(err)
	}
	return tags
}

// TestReleaseBuildLeavesOutTemplates: a release build links neither
// golang.org/x/net/trace nor text/template. gRPC (linked through the OTLP
// exporter's collector protos, never run) imports x/net/trace unless built
// with grpcnotrace, and x/net/trace imports html/template: text/template
// calls methods by name, so the linker keeps every exported method of
// every type, 4.1 MiB of the stripped binary. A new dependency that
// brings text/template back fails here.
func TestReleaseBuildLeavesOutTemplates(t *testing.T) {
	tags := releaseTags(t)
	out, err := exec.Command("go", "list", "-tags="+strings.Join(tags, ","), "-deps", ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	for _, pkg := range strings.Fields(string(out)) {
		switch pkg {
		case "text/template", "html/template", "golang.org/x/net/trace":
			t.Errorf("a release build (tags %q) links %s: find what brings it in with go list -deps -tags=%s -f '{{.ImportPath}} {{.Imports}}' .",
				tags, pkg, strings.Join(tags, ","))
		}
	}
}
