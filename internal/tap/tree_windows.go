package tap

import (
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"

	"golang.org/x/sys/windows"

	"github.com/mcptui/mcptui/internal/winproc"
)

// forwarded is Ctrl+C and Ctrl+Break, only to say that they are not
// forwarded: Windows has no signals to send another process.
var forwarded = []os.Signal{os.Interrupt}

// noSignals is the one sentence a Windows tap says about signals.
const noSignals = "mcptui tap: Windows has no signals to forward, so the server gets Ctrl+C from the console, if it shares one, and is otherwise stopped by closing its stdin and then ending its job object"

// tree is the server's Job Object: every process it starts joins it, and
// the system kills them all when the tap's handle closes (so when the tap
// dies).
type tree struct{ job *winproc.Job }

// resolve finds the command as the hosts do (PATHEXT, npx.cmd through
// cmd.exe).
func resolve(cmd *exec.Cmd, command string, args []string) error {
	c, err := winproc.Resolve(command, args, winproc.Environ(cmd.Dir))
	if err != nil {
		return err
	}
	winproc.Apply(cmd, c)
	cmd.Err = nil // exec.Command's own lookup is superseded
	return nil
}

// serverAttr starts the server suspended, so that own puts it in its job
// before it runs.
func serverAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{CreationFlags: windows.CREATE_SUSPENDED}
}

// own starts cmd inside a new job.
func own(cmd *exec.Cmd) (tree, error) {
	job, err := winproc.NewJob()
	if err != nil {
		return tree{}, err
	}
	if err := cmd.Start(); err != nil {
		_ = job.Close()
		return tree{}, err
	}
	if err := job.Adopt(cmd.Process.Pid); err != nil {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		_ = job.Close()
		return tree{}, err
	}
	return tree{job: job}, nil
}

// forward cannot: it says so, once.
func (t tree) forward(_ os.Signal, say func(string)) { say(noSignals) }

// stop closes the server's stdin, which an MCP server exits at.
func (t tree) stop(closeStdin func()) { go closeStdin() }

// kill ends every process of the job.
func (t tree) kill() { _ = t.job.Terminate(1) }

// release closes the job (whatever still ran of it is killed).
func (t tree) release() { _ = t.job.Close() }

// reraise has nothing to raise: a Windows process does not end by a
// signal.
func reraise(syscall.Signal) {}

// checkPeer relies on the directory's access control list.
func checkPeer(net.Conn) error { return nil }

// processName is the name of the process pid ("" when unknown).
func processName(pid int) string { return winproc.ProcessName(pid) }

// runtimeDir is %LOCALAPPDATA%\mcptui\taps.
func runtimeDir() string {
	base, err := os.UserCacheDir()
	if err != nil {
		base = os.TempDir()
	}
	return filepath.Join(base, "mcptui", "taps")
}

// makeDir creates dir with an access control list that lets this user
// alone in (and nothing inherited from above).
func makeDir(dir string) error {
	if err := os.MkdirAll(filepath.Dir(dir), 0o700); err != nil {
		return err
	}
	if err := os.Mkdir(dir, 0o700); err != nil {
		return err
	}
	sid, err := userSID()
	if err != nil {
		return err
	}
	sd, err := windows.SecurityDescriptorFromString("D:P(A;OICI;GA;;;" + sid.String() + ")")
	if err != nil {
		return fmt.Errorf("tap: runtime dir ACL: %w", err)
	}
	dacl, _, err := sd.DACL()
	if err != nil {
		return fmt.Errorf("tap: runtime dir ACL: %w", err)
	}
	if err := windows.SetNamedSecurityInfo(dir, windows.SE_FILE_OBJECT,
		windows.DACL_SECURITY_INFORMATION|windows.PROTECTED_DACL_SECURITY_INFORMATION, nil, nil, dacl, nil); err != nil {
		return fmt.Errorf("tap: runtime dir ACL: %w", err)
	}
	return nil
}

// checkOwner refuses a directory another user owns.
func checkOwner(dir string, _ os.FileInfo) error {
	sd, err := windows.GetNamedSecurityInfo(dir, windows.SE_FILE_OBJECT, windows.OWNER_SECURITY_INFORMATION)
	if err != nil {
		return fmt.Errorf("tap: runtime dir %s: %w", dir, err)
	}
	owner, _, err := sd.Owner()
	if err != nil {
		return fmt.Errorf("tap: runtime dir %s: %w", dir, err)
	}
	me, err := userSID()
	if err != nil {
		return err
	}
	if !owner.Equals(me) {
		return fmt.Errorf("tap: runtime dir %s belongs to %s, not to this user (%s)", dir, owner, me)
	}
	return nil
}

// userSID is the SID of the user running mcptui.
func userSID() (*windows.SID, error) {
	u, err := windows.GetCurrentProcessToken().GetTokenUser()
	if err != nil {
		return nil, fmt.Errorf("tap: who am I: %w", err)
	}
	return u.User.Sid, nil
}

// restrict leaves the socket with the directory's ACL, which it inherits.
func restrict(string) error { return nil }
