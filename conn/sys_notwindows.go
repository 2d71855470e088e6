//go:build !windows

package conn

import (
	"os/exec"

	"github.com/mcptui/mcptui/internal/winproc"
)

// hasTerm is true: Shutdown sends SIGTERM before SIGKILL.
const hasTerm = true

// killedText is how the last stage is named here.
const killedText = "SIGKILL sent"

// lookPath finds command in the PATH of mcptui (a name with a slash is a
// path): it returns the executable and the argument vector, and never a
// command line.
func lookPath(command string, args []string, env []string) (string, []string, string, error) {
	path, err := exec.LookPath(command)
	if err != nil {
		return "", nil, "", err
	}
	return path, append([]string{command}, args...), "", nil
}

// adopt has nothing to do: the process group (and, on Linux, the
// parent-death signal) hold the tree.
func adopt(*process) error { return nil }

// setCmdLine is never given a line here.
func setCmdLine(*exec.Cmd, string) {}

// jobMembers is empty: there are no Job Objects here.
func jobMembers(*winproc.Job) []Stray { return nil }
