//go:build !unix

package verify

import "os/exec"

// ownTree does nothing where there are no process groups.
func ownTree(*exec.Cmd) {}

// killTree ends cmd's process (its children are not reached here: on
// Windows, conn's Job Object does that for the inspector's servers).
func killTree(cmd *exec.Cmd) { _ = cmd.Process.Kill() }
