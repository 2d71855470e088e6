package everything

import "os/exec"

// killGroup ends the server.
func killGroup(cmd *exec.Cmd) { _ = cmd.Process.Kill() }
