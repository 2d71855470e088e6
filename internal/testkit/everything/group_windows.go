package everything

import "os/exec"

// ownGroup does nothing: node runs the server in its own process.
func ownGroup(*exec.Cmd) {}

// killGroup ends the server.
func killGroup(cmd *exec.Cmd) { _ = cmd.Process.Kill() }
