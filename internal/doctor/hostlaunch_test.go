package doctor

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mcptui/mcptui/conn"
	"github.com/mcptui/mcptui/internal/hostprofile"
	"github.com/mcptui/mcptui/internal/winproc"
)

// userOnlyPATH puts a program, mcphelper-only-mine, in a directory only
// this process's PATH has (as ~/bin or a version manager's shims are on
// a terminal's PATH and not on a host's), and returns that directory.
func userOnlyPATH(t *testing.T) string {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "mcphelper-only-mine"), []byte("#!/bin/sh\nexit 0\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", dir+string(os.PathListSeparator)+os.Getenv("PATH"))
	return dir
}

func desktop(t *testing.T) *hostprofile.Host {
	h, ok := hostprofile.HostNamed("claude-desktop")
	if _, on := h.LaunchOn("darwin"); !ok || !on {
		t.Fatal("no claude-desktop launch profile")
	}
	return &h
}

// TestAsHostOnlyFailure: a server script that runs a program only the
// user's PATH has works from the terminal and fails under --as
// claude-desktop; the doctor says so, names the program and where the
// terminal finds it, and gives the env entry that fixes it.
func TestAsHostOnlyFailure(t *testing.T) {
	bin := userOnlyPATH(t)
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	script := filepath.Join(t.TempDir(), "server.sh")
	body := "#!/bin/sh\nmcphelper-only-mine || exit 1\nexec '" + self + "'\n"
	if err := os.WriteFile(script, []byte(body), 0o755); err != nil {
		t.Fatal(err)
	}
	demo := "demo"
	env := []conn.EnvVar{{Name: serverEnv, Value: &demo}} // the config entry's "env"
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()

	mine := Run(ctx, Options{Command: script, Env: env, Timeout: 30 * time.Second})
	if mine.ExitCode() != 0 {
		t.Fatalf("from the terminal: exit %d %+v", mine.ExitCode(), mine.Diagnoses)
	}
	r := Run(ctx, Options{Command: script, Env: env, Timeout: 30 * time.Second, As: desktop(t), AsOS: "darwin"})
	if r.ExitCode() == 0 || r.Host == nil || r.Host.Terminal != "works" {
		t.Fatalf("as claude-desktop: exit %d host %+v %+v", r.ExitCode(), r.Host, r.Diagnoses)
	}
	d := r.Diagnoses[0]
	if d.Kind != KindHostOnly || !strings.Contains(d.Summary, "mcphelper-only-mine ("+bin) ||
		!strings.Contains(d.Fix, `"PATH": "`+bin+":/usr/local/bin:/opt/homebrew/bin") {
		t.Fatalf("diagnosis %+v", d)
	}
	for _, d := range r.Diagnoses[1:] {
		if strings.Contains(d.Fix, "-e KEY=VALUE") {
			t.Errorf("a fix that is not this one: %+v", d)
		}
	}
	var b strings.Builder
	if err := r.WriteText(&b); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"Claude Desktop (macOS): PATH /usr/local/bin:", "from your terminal's environment: works", "source: PATH: imdinu/apple-mail-mcp#70"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("text lacks %q:\n%s", want, b.String())
		}
	}
}

// TestAsHostNotFound: a bare command only the user's PATH has is what
// the host shows as spawn NAME ENOENT; the fix is its absolute path.
func TestAsHostNotFound(t *testing.T) {
	bin := userOnlyPATH(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	r := Run(ctx, Options{Command: "mcphelper-only-mine", As: desktop(t), AsOS: "darwin"})
	if len(r.Diagnoses) == 0 || r.ExitCode() != 3 {
		t.Fatalf("%+v", r.Diagnoses)
	}
	d := r.Diagnoses[0]
	want := filepath.Join(bin, "mcphelper-only-mine")
	if d.Kind != KindHostNotFound || !strings.Contains(d.Summary, `"spawn mcphelper-only-mine ENOENT"`) || !strings.Contains(d.Fix, `"command": "`+want+`"`) {
		t.Fatalf("%+v", d)
	}
}

// TestHostEnv: only the host's variables pass (a bash function's never),
// PATH is the host's, and the config's env entries win.
func TestHostEnv(t *testing.T) {
	l, _ := desktop(t).LaunchOn("darwin")
	key := "k"
	env, passed, dropped := hostEnv([]string{"HOME=/h", "API_KEY=x", "PATH=/mine", "TERM=() { :; }", "KEEP=1"}, l, []conn.EnvVar{{Name: "KEEP", Value: &key}})
	if !slices.Equal(passed, []string{"HOME"}) || !slices.Equal(dropped, []string{"API_KEY", "TERM"}) {
		t.Fatalf("passed %v dropped %v", passed, dropped)
	}
	got := map[string]string{}
	for _, e := range env {
		v := "<unset>"
		if e.Value != nil {
			v = *e.Value
		}
		got[e.Name] = v
	}
	if got["API_KEY"] != "<unset>" || got["TERM"] != "<unset>" || got["PATH"] != l.PATH || got["KEEP"] != "k" || got["HOME"] != "" {
		t.Fatalf("env %v", got)
	}
}

// winFiles is a fake Windows file system, compared case-insensitively.
func winFiles(paths ...string) func(string) bool {
	set := map[string]bool{}
	for _, p := range paths {
		set[strings.ToLower(p)] = true
	}
	return func(p string) bool { return set[strings.ToLower(strings.ReplaceAll(p, "/", `\`))] }
}

// TestWindowsLaunch: Claude Desktop on Windows, rehearsed the host's way
// on every platform (winproc's resolution over a fake file system): npx
// is npx.cmd run through cmd.exe /C unquoted, so Node.js under
// C:\Program Files never starts (the fix is cmd /c), an argument with a
// space is split, a missing command is spawn ENOENT, PowerShell lacks
// PATHEXT, and an .exe starts with nothing to say.
func TestWindowsLaunch(t *testing.T) {
	h := desktop(t)
	l, ok := h.LaunchOn("windows")
	if !ok {
		t.Fatal("no Windows launch")
	}
	env := func(files ...string) winproc.Env {
		return winproc.Env{Path: `C:\Windows\System32;C:\Windows\System32\WindowsPowerShell\v1.0;C:\Program Files\nodejs;C:\nodejs;C:\Users\me\AppData\Roaming\npm`, PathExt: ".COM;.EXE;.BAT;.CMD",
			IsFile: winFiles(append(files, `C:\Windows\System32\cmd.exe`, `C:\Windows\System32\WindowsPowerShell\v1.0\powershell.exe`)...)}
	}
	kinds := func(ds []Diagnosis) string {
		var ks []string
		for _, d := range ds {
			ks = append(ks, string(d.Severity)+":"+d.Kind)
		}
		return strings.Join(ks, ",")
	}
	t.Run("npx under Program Files", func(t *testing.T) {
		wc, ds, fatal := windowsLaunch(h.Title, l, "npx", []string{"-y", "@modelcontextprotocol/server-everything"}, env(`C:\Program Files\nodejs\npx.cmd`))
		if !fatal || kinds(ds) != "error:"+KindHostBatch || !strings.Contains(wc.CmdLine, `C:\Program Files\nodejs\npx.cmd`) {
			t.Fatalf("fatal %v %s %+v", fatal, kinds(ds), wc)
		}
		if !strings.Contains(ds[0].Summary, `'C:\Program' is not recognized`) ||
			!strings.Contains(ds[0].Fix, `"command": "cmd", "args": ["/c", "npx", "-y", "@modelcontextprotocol/server-everything"]`) {
			t.Fatalf("%+v", ds[0])
		}
	})
	t.Run("npx elsewhere starts, with the portable form", func(t *testing.T) {
		_, ds, fatal := windowsLaunch(h.Title, l, "npx", []string{"-y", "pkg"}, env(`C:\nodejs\npx.cmd`))
		if fatal || kinds(ds) != "warning:"+KindHostBatch || !strings.Contains(ds[0].Fix, `"command": "cmd", "args": ["/c", "npx", "-y", "pkg"]`) {
			t.Fatalf("fatal %v %+v", fatal, ds)
		}
	})
	t.Run("an argument with a space", func(t *testing.T) {
		_, ds, fatal := windowsLaunch(h.Title, l, "npx", []string{"-y", "@modelcontextprotocol/server-filesystem", `C:\Users\me\My Documents`}, env(`C:\nodejs\npx.cmd`))
		if !fatal || kinds(ds) != "warning:"+KindHostBatch+",error:"+KindHostSplitArg || !strings.Contains(ds[1].Summary, `My Documents`) {
			t.Fatalf("fatal %v %+v", fatal, ds)
		}
	})
	t.Run("not found", func(t *testing.T) {
		_, ds, fatal := windowsLaunch(h.Title, l, "uvx", []string{"mcp-server-time"}, env())
		if !fatal || kinds(ds) != "error:"+KindHostNotFound || !strings.Contains(ds[0].Summary, `"spawn uvx ENOENT"`) {
			t.Fatalf("fatal %v %+v", fatal, ds)
		}
	})
	t.Run("PowerShell without PATHEXT", func(t *testing.T) {
		_, ds, fatal := windowsLaunch(h.Title, l, "powershell", []string{"-File", `C:\w.ps1`}, env())
		if fatal || kinds(ds) != "warning:"+KindHostDropped || !strings.Contains(ds[0].Fix, `"PATHEXT"`) {
			t.Fatalf("fatal %v %+v", fatal, ds)
		}
	})
	t.Run("an exe", func(t *testing.T) {
		wc, ds, fatal := windowsLaunch(h.Title, l, "node", []string{`C:\srv\index.js`}, env(`C:\Program Files\nodejs\node.exe`))
		if fatal || len(ds) != 0 || wc.Path != `C:\Program Files\nodejs\node.exe` {
			t.Fatalf("fatal %v %+v %+v", fatal, ds, wc)
		}
	})
}

// TestAsLinuxHomePATH: Linux has no recorded PATH, so the rehearsal
// keeps this terminal's, and warns of a command found under the home
// directory, which a desktop session's PATH may lack.
func TestAsLinuxHomePATH(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("a POSIX launch")
	}
	home := t.TempDir()
	t.Setenv("HOME", home)
	bin := filepath.Join(home, ".nvm", "bin")
	if err := os.MkdirAll(bin, 0o755); err != nil {
		t.Fatal(err)
	}
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(bin, "mcp-home-server"), []byte("#!/bin/sh\nexec '"+self+"'\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	demo := "demo"
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	r := Run(ctx, Options{Command: "mcp-home-server", Env: []conn.EnvVar{{Name: serverEnv, Value: &demo}}, Timeout: 30 * time.Second, As: desktop(t), AsOS: "linux"})
	if r.Host == nil || r.Host.PATH != "yours" || r.Host.Config != "~/.config/Claude/claude_desktop_config.json" {
		t.Fatalf("host %+v %+v", r.Host, r.Diagnoses)
	}
	var found *Diagnosis
	for i, d := range r.Diagnoses {
		if d.Kind == KindHostHomePATH {
			found = &r.Diagnoses[i]
		}
		if d.Severity == Error {
			t.Errorf("an error: %+v", d)
		}
	}
	if found == nil || !strings.Contains(found.Fix, filepath.Join(bin, "mcp-home-server")) || !strings.Contains(found.Summary, "claude-desktop-debian#247") {
		t.Fatalf("%+v", r.Diagnoses)
	}
}

// TestAsUnrecordedPlatform: a platform with no recorded launch is said,
// not guessed; Windows' launch is rehearsed only on Windows.
func TestAsUnrecordedPlatform(t *testing.T) {
	r := Run(context.Background(), Options{Command: "srv", As: desktop(t), AsOS: "plan9"})
	if len(r.Diagnoses) != 1 || r.Diagnoses[0].Kind != KindHostUnrecorded || !strings.Contains(r.Diagnoses[0].Summary, "macos, windows, linux") {
		t.Fatalf("%+v", r.Diagnoses)
	}
	if runtime.GOOS != "windows" {
		r = Run(context.Background(), Options{Command: "srv", As: desktop(t), AsOS: "windows"})
		if len(r.Diagnoses) != 1 || !strings.Contains(r.Diagnoses[0].Summary, "only on Windows") {
			t.Fatalf("%+v", r.Diagnoses)
		}
	}
}
