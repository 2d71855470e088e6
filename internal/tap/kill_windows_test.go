package tap

import "os"

// killSelf ends this process as TerminateProcess does.
func killSelf() {
	if p, err := os.FindProcess(os.Getpid()); err == nil {
		_ = p.Kill()
	}
}
