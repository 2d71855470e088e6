package main

import (
	"os"
	"os/exec"
	"regexp"
	"strings"
	"testing"
)

// releaseTags is the build tags of .goreleaser.yaml's build, as an
// inline list ("tags: [a, b]"); nil when it has none.
func releaseTags(t *testing.T) []string {
	t.Helper()
	data, err := os.ReadFile(".goreleaser.yaml")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^\s+tags:\s*\[([^\]]*)\]`).FindSubmatch(data)
	if m == nil {
		return nil
	}
	var tags []string
	for _, f := range strings.Split(string(m[1]), ",") {
		if f = strings.TrimSpace(f); f != "" {
			tags = append(tags, f)
		}
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
