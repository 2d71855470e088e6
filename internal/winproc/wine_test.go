package winproc_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcptui/mcptui/internal/testkit/wine"
)

// goBuildWindows runs go verb (build, or test -c) for windows/amd64 on
// pkg, writing dir/name.
func goBuildWindows(t *testing.T, dir, name string, verb []string, pkg string) string {
	t.Helper()
	out := filepath.Join(dir, name)
	args := append(append([]string{}, verb...), "-o", out, pkg)
	cmd := exec.Command("go", args...)
	cmd.Env = append(os.Environ(), "GOOS=windows", "GOARCH=amd64", "CGO_ENABLED=0")
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go %v for windows: %v\n%s", args, err, b)
	}
	return out
}

// The Windows build is run, not only compiled: under Wine, mcptui.exe
// starts a Windows server (itself, as the demo) through this package's
// command resolution and Job Object, and the headless commands and check
// work against it; this package's own tests pass as a Windows program.
func TestWindowsBuildUnderWine(t *testing.T) {
	w := wine.New(t)
	dir := t.TempDir()
	exe := goBuildWindows(t, dir, "mcptui.exe", []string{"build"}, "github.com/mcptui/mcptui")
	server := []string{"--", wine.Path(exe), "demo-server"}

	steps := []struct {
		name string
		args []string
		want string
	}{
		{"version", []string{"--version"}, "protocols:"},
		{"tools", append([]string{"tools"}, server...), `"name": "echo"`},
		{"call", append([]string{"call", "echo", "--arg", "message=hello from Wine"}, server...), "hello from Wine"},
		{"check", append([]string{"check"}, server...), " 0 failed"},
	}
	for _, s := range steps {
		r := w.Run(t, dir, exe, s.args...)
		if r.Code != 0 || !strings.Contains(r.Stdout, s.want) {
			t.Errorf("mcptui.exe %s: exit %d, want 0 and %q in its output\nstdout: %s\nstderr: %s", strings.Join(s.args, " "), r.Code, s.want, r.Stdout, r.Stderr)
			continue
		}
		t.Logf("mcptui.exe %s: exit 0", s.name)
	}

	tests := goBuildWindows(t, dir, "winproc.test.exe", []string{"test", "-c"}, ".")
	r := w.Run(t, dir, tests, "-test.skip=Wine", "-test.v")
	if r.Code != 0 || !strings.Contains(r.Stdout, "\nPASS") {
		t.Errorf("winproc's tests as a Windows program: exit %d\n%s%s", r.Code, r.Stdout, r.Stderr)
	}
}
