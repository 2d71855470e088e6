package doctor

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mcptui/mcptui/conn"
	"github.com/mcptui/mcptui/internal/hostprofile"
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
	if !ok || h.Launch == nil {
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
	r := Run(ctx, Options{Command: script, Env: env, Timeout: 30 * time.Second, As: desktop(t)})
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
	r := Run(ctx, Options{Command: "mcphelper-only-mine", As: desktop(t)})
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
	l := desktop(t).Launch
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
