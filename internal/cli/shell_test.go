package cli

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestFlagsComeFromTheHelp: the flags completion offers are the ones
// --help names, short and long, including those only named in a usage line.
func TestFlagsComeFromTheHelp(t *testing.T) {
	flags := Flags()
	for _, want := range []string{"-e", "--env", "-H", "--header", "--server", "--record", "--print-config", "--break", "--version", "-h", "--help"} {
		if !slices.Contains(flags, want) {
			t.Errorf("Flags() lacks %s: %v", want, flags)
		}
	}
	for _, f := range flags {
		if !strings.Contains(Usage, f) {
			t.Errorf("Flags() has %s, which --help does not name", f)
		}
	}
	for _, w := range []string{"tools", "check", "tap", "attach", "completion", "man", "replay"} {
		if !slices.Contains(Subcommands(), w) {
			t.Errorf("Subcommands() lacks %s", w)
		}
	}
}

// TestBashCompletion sources the script in a real bash and completes as
// bash would (COMP_WORDS, COMP_CWORD, then the function complete -p names),
// with a fake mcptui on PATH answering the hidden server lister.
func TestBashCompletion(t *testing.T) {
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skipf("SKIP: no bash: %v", err)
	}
	script, err := CompletionScript("bash")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	file := filepath.Join(dir, "mcptui.bash")
	if err := os.WriteFile(file, []byte(script), 0o644); err != nil {
		t.Fatal(err)
	}
	fake := filepath.Join(dir, "mcptui")
	if err := os.WriteFile(fake, []byte("#!/bin/sh\n[ \"$1\" = "+ServersWord+" ] && printf 'alpha\\nbeta\\nother\\n'\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	complete := func(words ...string) []string {
		t.Helper()
		// The last word is the one being completed.
		sh := `source "$1"; shift; spec=$(complete -p mcptui) || exit 1; fn=${spec#*-F }; fn=${fn%% *}
COMP_WORDS=("$@"); COMP_CWORD=$(( $# - 1 )); "$fn"; printf '%s\n' "${COMPREPLY[@]}"`
		cmd := exec.Command(bash, append([]string{"-c", sh, "bash", file}, words...)...)
		cmd.Env = append(os.Environ(), "PATH="+dir+string(os.PathListSeparator)+os.Getenv("PATH"))
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("bash: %v\n%s", err, out)
		}
		return strings.Fields(string(out))
	}
	tests := []struct {
		words []string
		want  []string
	}{
		{[]string{"mcptui", "too"}, []string{"tools"}},
		{[]string{"mcptui", "comp"}, []string{"complete", "completion"}},
		{[]string{"mcptui", "completion", "f"}, []string{"fish"}},
		{[]string{"mcptui", "--serv"}, []string{"--serve", "--server", "--server-name"}},
		{[]string{"mcptui", "tools", "--server", "a"}, []string{"alpha"}},
		{[]string{"mcptui", "--server", ""}, []string{"alpha", "beta", "other"}},
		{[]string{"mcptui", "--theme", "h"}, []string{"high-contrast"}},
	}
	for _, tt := range tests {
		if got := complete(tt.words...); !slices.Equal(got, tt.want) {
			t.Errorf("completing %q: %q, want %q", tt.words, got, tt.want)
		}
	}
}

// TestCompletionScripts: every shell gets a script that names the hidden
// server lister; an unknown shell is a usage error.
func TestCompletionScripts(t *testing.T) {
	for _, sh := range Shells {
		s, err := CompletionScript(sh)
		if err != nil {
			t.Fatalf("%s: %v", sh, err)
		}
		if !strings.Contains(s, ServersWord) || !strings.Contains(s, "tools") {
			t.Errorf("%s script does not complete servers and subcommands:\n%s", sh, s)
		}
	}
	if _, err := CompletionScript("tcsh"); err == nil {
		t.Error("tcsh was accepted")
	}
}

// TestManPageFromTheHelp: the man page is the help in roff: NAME from its
// first line, SYNOPSIS from Usage:, a section per headed block, every flag.
func TestManPageFromTheHelp(t *testing.T) {
	m := ManPage("v1.2.3")
	for _, want := range []string{".TH MCPTUI 1", `"mcptui v1.2.3"`, ".SH NAME\nmcptui \\- a live terminal inspector",
		".SH SYNOPSIS", ".SH SERVER PROCESS", ".SH RECORDING", `\-\-shutdown\-grace`} {
		if !strings.Contains(m, want) {
			t.Errorf("man page lacks %q", want)
		}
	}
	for _, f := range Flags() {
		if !strings.Contains(m, strings.ReplaceAll(f, "-", `\-`)) {
			t.Errorf("man page lacks %s", f)
		}
	}
	for _, l := range strings.Split(m, "\n") {
		if strings.HasPrefix(l, ".") && !slices.Contains([]string{".TH", ".SH", ".nf", ".fi", ".PP"}, strings.Fields(l)[0]) {
			t.Errorf("a text line would be read as a roff request: %q", l)
		}
	}
	if man, err := exec.LookPath("groff"); err == nil {
		cmd := exec.Command(man, "-man", "-Tutf8", "-ww")
		cmd.Stdin = strings.NewReader(m)
		var stderr strings.Builder
		cmd.Stderr = &stderr
		if err := cmd.Run(); err != nil || stderr.Len() > 0 {
			t.Errorf("groff: %v\n%s", err, stderr.String())
		}
	}
}
