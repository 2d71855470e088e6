package conn

import (
	"fmt"
	"os"
	"os/exec"
	"strings"
	"syscall"

	"github.com/mcptui/mcptui/internal/winproc"
)

// Windows has no signals and no process groups: the server's tree is held
// in a Job Object instead (see adopt), and ended by terminating the job.

// hasTerm is false: there is no SIGTERM to send first; after stdin's EOF
// and the grace, Shutdown terminates the job.
const hasTerm = false

// killedText is how the last stage is named here.
const killedText = "job terminated"

// processAttr starts the server suspended, so that adopt can put it in its
// job before it runs.
func processAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{CreationFlags: 0x00000004} // CREATE_SUSPENDED
}

// groupID is 0: there are no process groups.
func groupID(pid int) int { return 0 }

// lookPath resolves command as the Windows hosts do (PATHEXT, npx.cmd run
// through cmd.exe), with the PATH the server will get: it returns the
// executable to start and, for a batch file, the command line.
func lookPath(command string, args []string, env []string) (string, []string, string, error) {
	dir, _ := os.Getwd()
	e := winproc.Environ(dir)
	for _, kv := range env {
		switch name, value, _ := strings.Cut(kv, "="); {
		case strings.EqualFold(name, "PATH"):
			e.Path = value
		case strings.EqualFold(name, "PATHEXT"):
			e.PathExt = value
		}
	}
	c, err := winproc.Resolve(command, args, e)
	if err != nil {
		return "", nil, "", err
	}
	return c.Path, c.Args, c.CmdLine, nil
}

// adopt puts the suspended server in a Job Object that is killed when
// closed (so when mcptui dies), and lets it run.
func adopt(p *process) error {
	job, err := winproc.NewJob()
	if err == nil {
		err = job.Adopt(p.os.Pid)
	}
	if err != nil {
		if job != nil {
			_ = job.Close()
		}
		return fmt.Errorf("conn: owning the server's process tree: %w", err)
	}
	p.job = job
	return nil
}

// setCmdLine sets the exact command line a batch file needs.
func setCmdLine(cmd *exec.Cmd, line string) {
	if line != "" {
		cmd.SysProcAttr.CmdLine = line
	}
}

// signalProcess ends the server process (there are no other signals).
func signalProcess(p *os.Process, sig syscall.Signal) error { return p.Kill() }

// killGroup is never called where there are no groups.
func killGroup(pgid int, sig syscall.Signal) error { return syscall.EINVAL }

// killPID is never called: the job holds every process of the tree.
func killPID(pid int, sig syscall.Signal) error { return syscall.EINVAL }

// groupAlive is false where there are no groups.
func groupAlive(pgid int) bool { return false }

// markedProcesses finds nothing: no process can leave the job.
func markedProcesses(marker string, pgid int) []Stray { return nil }

// writeRaw writes nothing here: every line goes through the writer
// goroutine, whose writes may block.
func writeRaw(fd uintptr, b []byte) (int, error) {
	return 0, syscall.EAGAIN
}

// jobMembers names the processes still in the job.
func jobMembers(j *winproc.Job) []Stray {
	var ss []Stray
	for _, pid := range j.PIDs() {
		ss = append(ss, Stray{PID: pid, Command: winproc.ProcessName(pid)})
	}
	return ss
}

// pipeBacklog is 0 here: what a pipe holds is not asked for.
func pipeBacklog(f *os.File) int64 { return 0 }
