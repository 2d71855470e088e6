package main

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestPeerBuildStripsSymbols: a peer binary with symbols runs as a
// stripped copy, smaller, and the original is left alone.
func TestPeerBuildStripsSymbols(t *testing.T) {
	if _, err := exec.LookPath("strip"); err != nil {
		t.Skip("no strip(1)")
	}
	// A program built as go build builds it: with symbols and DWARF.
	dir := t.TempDir()
	self := filepath.Join(dir, "peer")
	if err := os.WriteFile(filepath.Join(dir, "main.go"), []byte("package main\n\nfunc main() {}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("go", "build", "-o", self, "main.go")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOFLAGS=", "GOWORK=off", "GO111MODULE=off")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	if !hasSymbols(self) {
		t.Fatalf("%s has no symbols to strip", self)
	}
	before, err := os.Stat(self)
	if err != nil {
		t.Fatal(err)
	}
	b, stripped, err := peerBuild(context.Background(), self, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if !stripped || b.side != peerSide {
		t.Errorf("stripped %v, side %v; want true, peer", stripped, b.side)
	}
	if hasSymbols(b.mcptui) {
		t.Errorf("the peer's copy %s still has symbols", b.mcptui)
	}
	after, err := os.Stat(b.mcptui)
	if err != nil {
		t.Fatal(err)
	}
	if after.Size() >= before.Size() {
		t.Errorf("the stripped copy is %d bytes, the original %d", after.Size(), before.Size())
	}
	if !hasSymbols(self) {
		t.Error("the original lost its symbols")
	}
}

func TestReadyLineAndMarker(t *testing.T) {
	e := &env{server: "/x/mcptui", peerArgs: []string{"--cmd", "{server}", "--args", "demo-server"}, peerReady: regexp.MustCompile(`Tools \([1-9]`)}
	ours := &build{side: newSide, mcptui: "/b/mcptui"}
	peer := &build{side: peerSide, mcptui: "/p/mcp-tui"}
	if got, want := readyLine(e, ours), "exec env TERM=xterm-256color '/b/mcptui' '--' '/x/mcptui' 'demo-server'"; got != want {
		t.Errorf("ours: %s; want %s", got, want)
	}
	if got, want := readyLine(e, peer), "exec env TERM=xterm-256color '/p/mcp-tui' '--cmd' '/x/mcptui' '--args' 'demo-server'"; got != want {
		t.Errorf("peer: %s; want %s", got, want)
	}
	for _, c := range []struct {
		b      *build
		screen string
		want   bool
	}{
		{ours, " mcptui │ mcptui-demo 0.1.0 │ ● ready   in flight 0", true},
		{ours, " mcptui │ ● starting /x/mcptui …", false},
		{peer, "  Tools (22)   │   Resources (7)", true},
		{peer, "  Tools (0)   │   Resources (0)", false},
	} {
		if got := isReady(e, c.b, c.screen); got != c.want {
			t.Errorf("isReady(%s, %q) = %v; want %v", c.b.side, strings.TrimSpace(c.screen), got, c.want)
		}
	}
}

// TestReleaseTags: a tree's builds get the tags its .goreleaser.yaml
// gives them, none when it gives none.
func TestReleaseTags(t *testing.T) {
	with := writeTree(t, map[string]string{".goreleaser.yaml": "builds:\n  - id: mcptui\n    ldflags:\n      - -s -w\n    tags: [grpcnotrace, netgo]\n"})
	if got := releaseTags(with); strings.Join(got, ",") != "grpcnotrace,netgo" {
		t.Errorf("releaseTags = %q; want grpcnotrace, netgo", got)
	}
	without := writeTree(t, map[string]string{".goreleaser.yaml": "builds:\n  - id: mcptui\n"})
	if got := releaseTags(without); got != nil {
		t.Errorf("releaseTags of a config without tags = %q", got)
	}
	if got := releaseTags(t.TempDir()); got != nil {
		t.Errorf("releaseTags of a tree without the file = %q", got)
	}
}

// TestManyToolsLaunch: on manytools, mcptui is typed E once ready and has
// arrived when its catalog shows the count and the first tool; the peer
// runs with -peer-args-50k and has arrived when -peer-ready-50k (its
// default) matches.
func TestManyToolsLaunch(t *testing.T) {
	e := &env{manytools: "/x/manytools", peerArgs50k: []string{"--cmd", "{manytools}"}, peerReady50k: regexp.MustCompile(`Tools \(50000\)`)}
	ours := manyToolsLaunch(e, &build{side: newSide, mcptui: "/b/mcptui"})
	if want := "exec env TERM=xterm-256color '/b/mcptui' '--' '/x/manytools'"; ours.line != want {
		t.Errorf("ours: %s; want %s", ours.line, want)
	}
	if ours.ready == nil || !ours.ready(" mcptui │ manytools 1.0.0 │ ● ready") || strings.Join(ours.keys, " ") != "E" {
		t.Errorf("ours: want E typed once ready; keys %q", ours.keys)
	}
	for screen, want := range map[string]bool{
		"┃ Tools 50000   Resources –\n┃   tool_00000  Tool 0 ": true,
		"┃ Tools 1000   Resources –\n┃   tool_00000  Tool 0 ":  false,
		"┃ Tools 50000   Resources –\n┃ listing…":              false,
	} {
		if got := ours.done(screen); got != want {
			t.Errorf("ours arrived at %q: %v; want %v", screen, got, want)
		}
	}
	peer := manyToolsLaunch(e, &build{side: peerSide, mcptui: "/p/mcp-tui"})
	if want := "exec env TERM=xterm-256color '/p/mcp-tui' '--cmd' '/x/manytools'"; peer.line != want {
		t.Errorf("peer: %s; want %s", peer.line, want)
	}
	if peer.ready != nil || !peer.done("  Tools (50000)   │   Resources (0)") || peer.done("  Tools (0)   │   Resources (0)") {
		t.Error("peer: want arrived at its tab's count of 50000, nothing typed")
	}
}
