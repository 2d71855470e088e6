// Package wine runs Windows binaries under Wine for the end-to-end tests,
// so that mcptui's Windows build is run, not only compiled, on a Linux
// machine. Debian's Wine 8.0 lacks bcryptprimitives.dll, which Go's
// Windows runtime loads at start ("fatal error: bcryptprimitives.dll not
// found"); the kit builds one with mingw-w64 from processprng.c.txt and puts
// it in the prefix's system32 (the runtime loads it from there only).
//
// The prefix lives in the user's cache (mcptui-test/wine), made once, one
// maker at a time. A test is skipped, saying what to install, only where
// Wine or mingw-w64 is missing; .ci/run installs both.
package wine

import (
	"bytes"
	"context"
	_ "embed"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mcptui/mcptui/internal/testkit/e2e"
	"github.com/mcptui/mcptui/internal/testkit/npmcache"
)

//go:embed processprng.c.txt
var processPrng []byte

// Wine is a prefix ready to run Go's Windows binaries.
type Wine struct {
	loader, server string
	prefix         string
}

// deadline bounds one Windows program's run: generous, as Wine's first
// start in a fresh prefix alone takes tens of seconds on a busy machine.
const deadline = 5 * time.Minute

// New returns the kit's prefix, making it on first use; it skips the test
// when the end-to-end tests are off or Wine or mingw-w64 is missing. When
// the test ends, the prefix's wineserver is stopped, and with it every
// Windows process still running.
func New(t testing.TB) *Wine {
	t.Helper()
	e2e.Require(t)
	loader := lookPath("wine64", "/usr/lib/wine/wine64", "wine")
	server := lookPath("wineserver", "/usr/lib/wine/wineserver64", "/usr/lib/wine/wineserver")
	if loader == "" || server == "" {
		t.Skip("SKIP: no Wine to run the Windows build (Debian: apt-get install wine64)")
	}
	gcc, err := exec.LookPath("x86_64-w64-mingw32-gcc")
	if err != nil {
		t.Skip("SKIP: no mingw-w64 to build bcryptprimitives.dll for Wine (Debian: apt-get install gcc-mingw-w64-x86-64-win32)")
	}
	w := &Wine{loader: loader, server: server, prefix: npmcache.Dir("wine")}
	if err := w.prepare(gcc); err != nil {
		t.Fatalf("preparing the Wine prefix %s: %v", w.prefix, err)
	}
	t.Cleanup(func() {
		kill := exec.Command(w.server, "-k")
		kill.Env = w.env()
		_ = kill.Run()
	})
	return w
}

// lookPath is the first of names found (on PATH, or as an absolute path).
func lookPath(names ...string) string {
	for _, name := range names {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	return ""
}

func (w *Wine) env() []string {
	return append(os.Environ(), "WINEPREFIX="+w.prefix, "WINEDEBUG=-all", "WINEDLLOVERRIDES=mscoree,mshtml=")
}

// prepare makes the prefix (wineboot) and puts the DLL in its system32,
// once: a marker file says it is done; a lock keeps two test processes
// from making it at once.
func (w *Wine) prepare(gcc string) error {
	if err := os.MkdirAll(filepath.Dir(w.prefix), 0o755); err != nil {
		return err
	}
	lock, err := os.OpenFile(w.prefix+".lock", os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return err
	}
	defer lock.Close()
	if err := npmcache.LockFile(lock); err != nil {
		return err
	}
	defer func() { _ = npmcache.UnlockFile(lock) }()
	system32 := filepath.Join(w.prefix, "drive_c", "windows", "system32")
	dll := filepath.Join(system32, "bcryptprimitives.dll")
	if _, err := os.Stat(dll); err == nil {
		return nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), deadline)
	defer cancel()
	boot := exec.CommandContext(ctx, w.loader, "wineboot", "--init")
	boot.Env = w.env()
	if out, err := boot.CombinedOutput(); err != nil {
		return fmt.Errorf("wineboot: %w\n%s", err, out)
	}
	wait := exec.CommandContext(ctx, w.server, "-w")
	wait.Env = w.env()
	_ = wait.Run()
	build := filepath.Join(filepath.Dir(w.prefix), "bcryptprimitives-build")
	if err := os.MkdirAll(build, 0o755); err != nil {
		return err
	}
	src := filepath.Join(build, "processprng.c")
	def := filepath.Join(build, "bcryptprimitives.def")
	if err := os.WriteFile(src, processPrng, 0o644); err != nil {
		return err
	}
	if err := os.WriteFile(def, []byte("LIBRARY bcryptprimitives\nEXPORTS\n  ProcessPrng\n"), 0o644); err != nil {
		return err
	}
	tmp := dll + ".tmp"
	cc := exec.CommandContext(ctx, gcc, "-shared", "-O2", "-o", tmp, src, def, "-ladvapi32")
	if out, err := cc.CombinedOutput(); err != nil {
		return fmt.Errorf("building bcryptprimitives.dll: %w\n%s", err, out)
	}
	return os.Rename(tmp, dll)
}

// Path is the Windows path of a Unix file (through Wine's Z: drive).
func Path(unix string) string {
	abs, err := filepath.Abs(unix)
	if err != nil {
		abs = unix
	}
	return `Z:` + strings.ReplaceAll(abs, "/", `\`)
}

// Result is what a Windows program did.
type Result struct {
	Stdout, Stderr string
	Code           int
}

// Run runs exe (a Windows binary) with args under Wine, in dir, and
// returns its output and exit code; it fails the test when the program
// could not run or outlived the kit's generous deadline.
func (w *Wine) Run(t testing.TB, dir, exe string, args ...string) Result {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), deadline)
	defer cancel()
	cmd := exec.CommandContext(ctx, w.loader, append([]string{exe}, args...)...)
	cmd.Dir = dir
	cmd.Env = w.env()
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	if ctx.Err() != nil {
		t.Fatalf("%s %v: still running after %v\nstdout: %s\nstderr: %s", exe, args, deadline, stdout.String(), stderr.String())
	}
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatalf("running %s under Wine: %v", exe, err)
	}
	return Result{Stdout: stdout.String(), Stderr: stderr.String(), Code: code}
}
