//go:build unix

package app

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcptui/mcptui/internal/testkit/tmuxtest"
)

// TestInspectorDetectsColoursOnce: the inspector finds the terminal's
// colors once before its first screen. lipgloss detects them when its
// package is initialized (inside tmux by running `tmux info`); Bubble Tea's
// Program.Run did it all again, for the same output and environment,
// before the first screen, unless it is given the profile. The inspector
// runs in tmux with a tmux first on its PATH that logs each run.
func TestInspectorDetectsColoursOnce(t *testing.T) {
	tmuxtest.Require(t)
	real, err := exec.LookPath("tmux")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	log := filepath.Join(dir, "runs")
	fake := filepath.Join(dir, "bin")
	if err := os.Mkdir(fake, 0o755); err != nil {
		t.Fatal(err)
	}
	script := "#!/bin/sh\necho \"$*\" >> " + shell(log) + "\nexec " + shell(real) + " \"$@\"\n"
	if err := os.WriteFile(filepath.Join(fake, "tmux"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	// A 256-color TERM, and nothing in the environment that settles the
	// profile without asking (COLORTERM=truecolor, NO_COLOR, CLICOLOR_FORCE).
	line := "env -u COLORTERM -u NO_COLOR -u CLICOLOR_FORCE " + shell("PATH="+fake+":"+os.Getenv("PATH"), "TERM=xterm-256color", bin, "--", bin, "demo-server")
	x := tmuxtest.Start(t, "colours", 80, 24, "sh -c "+shell(line))
	x.WaitFor("● ready")
	b, err := os.ReadFile(log)
	if err != nil {
		t.Fatalf("the inspector never ran tmux (%v): the test no longer sees the detection it counts", err)
	}
	runs := strings.Count(string(b), "info")
	if runs != 1 {
		t.Errorf("the inspector ran `tmux info` %d times before its first screen, want once:\n%s", runs, b)
	}
}
