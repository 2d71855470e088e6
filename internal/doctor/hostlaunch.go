package doctor

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"sync"

	"github.com/mcptui/mcptui/conn"
	"github.com/mcptui/mcptui/internal/hostprofile"
	"github.com/mcptui/mcptui/internal/record"
	"github.com/mcptui/mcptui/internal/winproc"
	"github.com/mcptui/mcptui/mcp"
)

// Kinds of Diagnosis of doctor --as.
const (
	// KindHostNotFound: the host would not find the command on its PATH
	// (it shows "spawn NAME ENOENT").
	KindHostNotFound = "host-not-found"
	// KindHostOnly: the server works from the user's terminal and fails
	// as the host starts it.
	KindHostOnly = "host-only-failure"
	// KindHostLiteral: the host passes ~ or $VAR to the server as they
	// are: it has no shell to expand them.
	KindHostLiteral = "host-literal"
	// KindHostBatch: the command is a batch file (npx.cmd) the host runs
	// through cmd.exe /C, unquoted (Windows).
	KindHostBatch = "host-batch-file"
	// KindHostSplitArg: an argument with a space the host passes to
	// cmd.exe unquoted: the server gets it split (Windows).
	KindHostSplitArg = "host-split-argument"
	// KindHostDropped: the host drops a variable the command needs
	// (PATHEXT for PowerShell, Windows).
	KindHostDropped = "host-dropped-variable"
	// KindHostHomePATH: the command is found only in a directory of the
	// user's home, which a desktop session's PATH may lack (Linux).
	KindHostHomePATH = "host-home-path"
	// KindHostUnrecorded: the host's launch is not recorded for this
	// platform.
	KindHostUnrecorded = "host-launch-unrecorded"
)

// HostLaunch is how doctor --as started the server: the host's way.
type HostLaunch struct {
	Host  string `json:"host"`
	Title string `json:"title"`
	// Platform the host's launch facts hold on; Config where its config
	// file is there.
	Platform string `json:"platform"`
	Config   string `json:"config,omitempty"`
	// Resolved is what the host would start (Windows: the .exe, or
	// cmd.exe with the batch file's command line).
	Resolved string `json:"resolved,omitempty"`
	// PATH is the host's search path ("yours": it keeps this
	// environment's, or its own is not recorded); Passed the variables of this
	// environment it passes on; Dropped those it does not (names only).
	PATH    string   `json:"path"`
	Passed  []string `json:"passed"`
	Dropped []string `json:"dropped"`
	// Versions are the protocol versions offered (nil: all of mcptui's).
	Versions []string `json:"versions,omitempty"`
	// Sources are where these facts come from; Unknown the facts not
	// recorded for this platform (the rehearsal keeps this terminal's
	// there).
	Sources []string `json:"sources"`
	Unknown []string `json:"unknown,omitempty"`
	// Terminal is how the same command did from this terminal's own
	// environment, when the host's launch failed: "works" or what failed.
	Terminal string `json:"terminal,omitempty"`
}

// runAs is doctor --as: the server started the way opts.As starts one
// (its PATH, only the variables it passes, no shell), and, when that
// fails, once more from this terminal's environment, to tell a failure
// only the host sees from one everyone sees.
func runAs(ctx context.Context, opts Options) *Report {
	h := *opts.As
	goos := opts.AsOS
	if goos == "" {
		goos = runtime.GOOS
	}
	opts.As, opts.AsOS = nil, ""
	command := record.RedactArgs(append([]string{opts.Command}, opts.Args...), false)
	l, ok := h.LaunchOn(goos)
	if !ok || (l.OS == "windows") != (runtime.GOOS == "windows") {
		d := Diagnosis{Kind: KindHostUnrecorded, Severity: Error,
			Summary: fmt.Sprintf("how %s starts a server on %s is not recorded (recorded: %s)", h.Title, goos, strings.Join(platformNames(h), ", ")),
			Fix:     "rehearse a recorded platform's launch with --as " + h.Name + ":PLATFORM, or add this one with --profiles FILE"}
		if ok {
			d.Summary = fmt.Sprintf("%s's launch on %s can be rehearsed only on %s: this is %s", h.Title, l.Platform, map[bool]string{true: "Windows", false: "macOS or Linux"}[l.OS == "windows"], runtime.GOOS)
			d.Fix = "run doctor --as " + h.Name + " there"
		}
		return &Report{Command: command, Launchers: launchers(), Stderr: []string{}, Diagnoses: []Diagnosis{d}}
	}
	hl := &HostLaunch{Host: h.Name, Title: h.Title, Platform: l.Platform, Config: l.Config, PATH: l.PATH, Unknown: l.Unknown}
	for _, s := range [][2]string{{"config", l.ConfigSource}, {"PATH", l.PATHSource}, {"environment", l.InheritSource}, {"dropped", l.DropsSource}, {"no shell", l.ShellSource}, {"batch files", l.BatchSource}} {
		if s[1] != "" {
			hl.Sources = append(hl.Sources, s[0]+": "+s[1])
		}
	}
	path := l.PATH
	if path == "" {
		path = os.Getenv("PATH")
		hl.PATH = "yours"
	}
	env, passed, dropped := hostEnv(os.Environ(), l, opts.Env)
	hl.Passed, hl.Dropped = passed, dropped
	hostOpts := opts
	hostOpts.Env = env
	if h.LegacyInitialize && opts.Versions == nil {
		// It opens with initialize: no server/discover probe.
		for _, v := range mcp.DefaultVersions {
			if !mcp.Stateless(v) {
				hostOpts.Versions = append(hostOpts.Versions, v)
			}
		}
		hl.Versions = hostOpts.Versions
		hl.Sources = append(hl.Sources, "initialize only: "+h.LegacySource)
	}
	var literal []Diagnosis
	for _, a := range append([]string{opts.Command}, opts.Args...) {
		if strings.HasPrefix(a, "~") || strings.Contains(a, "$") {
			literal = append(literal, Diagnosis{Kind: KindHostLiteral, Severity: Warning,
				Summary: fmt.Sprintf("%s passes %q to the server as it is: it starts the command with no shell, so nothing expands ~ or $VAR", h.Title, a),
				Fix:     "write the absolute path and the value itself in the config (\"/Users/me/…\", not \"~/…\" or \"$HOME/…\"); put variables the server needs in the entry's \"env\""})
		}
	}
	if l.OS == "windows" {
		wc, ds, fatal := windowsLaunch(h.Title, l, opts.Command, opts.Args, winproc.Environ(opts.Dir))
		hl.Resolved = wc.CmdLine
		if hl.Resolved == "" {
			hl.Resolved = wc.Path
		}
		literal = append(literal, ds...)
		if fatal {
			r := &Report{Command: command, Launchers: launchers(), Stderr: []string{}, Host: hl, Diagnoses: literal}
			sortDiagnoses(r.Diagnoses)
			return r
		}
	} else if !strings.Contains(opts.Command, "/") && !mcp.IsURL(opts.Command) {
		found, ok := lookIn(path, opts.Command)
		if !ok {
			r := &Report{Command: command, Launchers: launchers(), Stderr: []string{}, Host: hl}
			d := Diagnosis{Kind: KindHostNotFound, Severity: Error,
				Summary: fmt.Sprintf("%s would show \"spawn %s ENOENT\": %s is not in any directory of its PATH (%s)", h.Title, opts.Command, opts.Command, path)}
			if mine, err := exec.LookPath(opts.Command); err == nil {
				abs, _ := filepath.Abs(mine)
				d.Summary += fmt.Sprintf("; your terminal finds it at %s", abs)
				d.Fix = fmt.Sprintf("give the absolute path in the config: \"command\": %q (or add \"env\": {\"PATH\": \"%s:%s\"} to the entry)", abs, filepath.Dir(abs), path)
			} else {
				d.Fix = "install it, then give its absolute path in the config"
				if hint := installHint(opts.Command); hint != "" {
					d.Fix = hint + "; then give its absolute path in the config"
				}
			}
			r.Diagnoses = append([]Diagnosis{d}, literal...)
			return r
		}
		hostOpts.Command = found
		if l.PATH == "" {
			if d, ok := homePATH(h.Title, l, found, os.Getenv("HOME")); ok {
				literal = append(literal, d)
			}
		}
	}
	r := Run(ctx, hostOpts)
	r.Command = command
	r.Host = hl
	r.Diagnoses = append(r.Diagnoses, literal...)
	if r.ExitCode() == 0 {
		sortDiagnoses(r.Diagnoses)
		return r
	}
	mine := Run(ctx, opts)
	if mine.ExitCode() != 0 {
		hl.Terminal = "fails too: " + firstError(mine)
		return r
	}
	hl.Terminal = "works"
	for i, d := range r.Diagnoses {
		if d.Kind == KindExitsAtOnce {
			// Its generic fix (pass a variable with -e) is not this one.
			r.Diagnoses[i].Fix = "see " + KindHostOnly + ": the same command starts from your terminal"
		}
	}
	r.Diagnoses = append([]Diagnosis{hostOnly(h, l, path, r, passed, dropped)}, r.Diagnoses...)
	sortDiagnoses(r.Diagnoses)
	return r
}

// hostOnly explains a failure only the host's launch shows: a program
// the server runs that only this terminal's PATH has, or a variable the
// host does not pass.
func hostOnly(h hostprofile.Host, l *hostprofile.Launch, path string, r *Report, passed, dropped []string) Diagnosis {
	only := "only " + strings.Join(passed, ", ") + " passed from your environment"
	if l.Inherit == nil {
		only = strings.Join(dropped, ", ") + " not passed"
	}
	d := Diagnosis{Kind: KindHostOnly, Severity: Error,
		Summary: fmt.Sprintf("the server works from your terminal but fails as %s starts it (PATH %s; %s; no shell)",
			h.Title, path, only)}
	var missing []string
	var dirs []string
	for _, name := range namesIn(strings.Join(r.Stderr, "\n") + "\n" + r.ConnectError + "\n" + r.Exit) {
		if _, ok := lookIn(path, name); ok {
			continue
		}
		if p, err := exec.LookPath(name); err == nil {
			abs, _ := filepath.Abs(p)
			missing = append(missing, fmt.Sprintf("%s (%s)", name, abs))
			if dir := filepath.Dir(abs); !slices.Contains(dirs, dir) {
				dirs = append(dirs, dir)
			}
		}
	}
	if len(missing) > 0 {
		d.Summary += fmt.Sprintf(": it runs %s, which only your PATH has", strings.Join(missing, ", "))
		d.Fix = fmt.Sprintf("add \"env\": {\"PATH\": \"%s:%s\"} to the server's entry in the config, or make the server call those programs by absolute path",
			strings.Join(dirs, ":"), path)
		return d
	}
	d.Fix = fmt.Sprintf("the difference is the environment: PATH is %s, and %d variables of yours are not passed (%s); put what the server needs in the entry's \"env\" (an absolute PATH, API keys), and use absolute paths",
		path, len(dropped), strings.Join(clipList(dropped, 12), ", "))
	return d
}

// notFound find the names a shell, env or a runtime says it could not
// find: "sh: 1: helper: not found", "env: 'node': No such file or
// directory", "spawn uvx ENOENT", "helper: command not found".
var notFound = sync.OnceValue(func() []*regexp.Regexp {
	return []*regexp.Regexp{
		regexp.MustCompile(`([A-Za-z0-9_.+-]+)'?:? (?:command )?not found`),
		regexp.MustCompile(`'([A-Za-z0-9_.+-]+)': No such file or directory`),
		regexp.MustCompile(`spawn ([A-Za-z0-9_.+-]+) ENOENT`),
		regexp.MustCompile(`exec: "([A-Za-z0-9_.+-]+)": executable file not found`),
	}
})

// namesIn are the program names text says were not found.
func namesIn(text string) []string {
	var out []string
	for _, re := range notFound() {
		for _, m := range re.FindAllStringSubmatch(text, -1) {
			if !slices.Contains(out, m[1]) {
				out = append(out, m[1])
			}
		}
	}
	return out
}

// hostEnv is the environment changes that turn base into the host's: every
// variable not in the host's list is unset, PATH is the host's; the
// config's own entries (mine) come last and win. passed and dropped are
// the names of base kept and removed.
func hostEnv(base []string, l *hostprofile.Launch, mine []conn.EnvVar) (env []conn.EnvVar, passed, dropped []string) {
	set := func(name string) bool {
		return slices.ContainsFunc(mine, func(e conn.EnvVar) bool { return e.Name == name })
	}
	for _, kv := range base {
		name, value, _ := strings.Cut(kv, "=")
		if name == "" || name == conn.MarkerEnv || name == "PATH" || set(name) {
			continue // PATH is the host's own, not this one
		}
		keep := !slices.Contains(l.Drops, name)
		if l.Inherit != nil {
			keep = slices.Contains(l.Inherit, name) && !strings.HasPrefix(value, "()")
		}
		if keep {
			passed = append(passed, name)
			continue
		}
		dropped = append(dropped, name)
		env = append(env, conn.EnvVar{Name: name})
	}
	if !set("PATH") && l.PATH != "" {
		path := l.PATH
		env = append(env, conn.EnvVar{Name: "PATH", Value: &path})
	}
	slices.Sort(passed)
	slices.Sort(dropped)
	return append(env, mine...), passed, dropped
}

// lookIn finds name in the directories of path, as a spawn with that
// PATH does.
func lookIn(path, name string) (string, bool) {
	for _, dir := range filepath.SplitList(path) {
		p := filepath.Join(dir, name)
		if st, err := os.Stat(p); err == nil && !st.IsDir() && st.Mode()&0o111 != 0 {
			return p, true
		}
	}
	return "", false
}

func firstError(r *Report) string {
	for _, d := range r.Diagnoses {
		if d.Severity == Error {
			return d.Summary
		}
	}
	return "exit " + fmt.Sprint(r.ExitCode())
}

func clipList(xs []string, n int) []string {
	if len(xs) <= n {
		return xs
	}
	return append(slices.Clone(xs[:n]), fmt.Sprintf("and %d more", len(xs)-n))
}

// platformNames are the platforms h's launches are recorded for, as
// --as HOST:PLATFORM takes them.
func platformNames(h hostprofile.Host) []string {
	var out []string
	for _, goos := range h.Platforms() {
		if goos == "" {
			goos = "any"
		}
		out = append(out, PlatformWord(goos))
	}
	return out
}

// PlatformWord is the word --as HOST:PLATFORM takes for goos.
func PlatformWord(goos string) string {
	if goos == "darwin" {
		return "macos"
	}
	return goos
}

// windowsLaunch is how the host would start command on Windows, found
// the host's way (PATH and PATHEXT, through winproc): what it would run,
// the diagnoses of that, and whether the host would fail before the
// server runs at all. It is pure (env says which files exist), so that
// it is tested on every platform.
func windowsLaunch(title string, l *hostprofile.Launch, command string, args []string, env winproc.Env) (winproc.Command, []Diagnosis, bool) {
	wc, err := winproc.Resolve(command, args, env)
	if errors.Is(err, winproc.ErrNotFound) {
		return wc, []Diagnosis{{Kind: KindHostNotFound, Severity: Error,
			Summary: fmt.Sprintf("%s would show \"spawn %s ENOENT\": no %s with one of PATHEXT's extensions is in any directory of PATH", title, command, command),
			Fix:     "install it, or give its absolute path (with its extension: C:\\…\\server.exe) in the config"}}, true
	}
	if err != nil {
		return wc, []Diagnosis{{Kind: KindNotExecutable, Severity: Error, Summary: err.Error(), Fix: "start an .exe directly instead of a batch file"}}, true
	}
	var ds []Diagnosis
	fatal := false
	base := strings.ToLower(strings.TrimSuffix(filepath.Base(strings.ReplaceAll(wc.Path, `\`, "/")), ".exe"))
	if slices.Contains(l.Drops, "PATHEXT") && (base == "powershell" || base == "pwsh") {
		ds = append(ds, Diagnosis{Kind: KindHostDropped, Severity: Warning,
			Summary: fmt.Sprintf("%s starts PowerShell without PATHEXT: a script it runs finds no bare command (git, python) on PATH (source: %s)", title, l.DropsSource),
			Fix:     `add "env": {"PATHEXT": ".COM;.EXE;.BAT;.CMD"} to the server's entry`})
	}
	if wc.CmdLine == "" || !l.BatchUnquoted {
		return wc, ds, fatal
	}
	// The batch file found is the quoted path after /c "".
	script := wc.Args[0]
	if _, rest, ok := strings.Cut(wc.CmdLine, `/c ""`); ok {
		script, _, _ = strings.Cut(rest, `"`)
	}
	portable := fmt.Sprintf(`"command": "cmd", "args": ["/c", %q%s]`, command, quotedList(args))
	if strings.Contains(script, " ") {
		first, _, _ := strings.Cut(script, " ")
		fatal = true
		ds = append(ds, Diagnosis{Kind: KindHostBatch, Severity: Error,
			Summary: fmt.Sprintf("%s finds %s as %s, a batch file, and runs it through cmd.exe /C without quotes: cmd.exe would say \"'%s' is not recognized as an internal or external command\" and the server never starts (source: %s)", title, command, script, first, l.BatchSource),
			Fix:     fmt.Sprintf("install it in a directory without spaces, or give %s: %s (cmd.exe then finds %s itself)", title, portable, command)})
	} else {
		ds = append(ds, Diagnosis{Kind: KindHostBatch, Severity: Warning,
			Summary: fmt.Sprintf("%s finds %s as %s, a batch file, and runs it through cmd.exe /C; it starts, but hosts that spawn without a shell (Claude Code warns \"Windows requires 'cmd /c' wrapper to execute npx\") show spawn %s ENOENT (source: %s)", title, command, script, command, l.BatchSource),
			Fix:     "for a config that works in every host: " + portable})
	}
	for _, a := range args {
		if strings.ContainsAny(a, " \t") {
			fatal = true
			ds = append(ds, Diagnosis{Kind: KindHostSplitArg, Severity: Error,
				Summary: fmt.Sprintf("%s passes %q to cmd.exe unquoted: the server gets it split at the spaces (source: %s)", title, a, l.BatchSource),
				Fix:     "use a path without spaces (the short name dir /x shows, or another directory), or start the server's .exe (node.exe with the package's script) directly, which goes through no cmd.exe"})
		}
	}
	return wc, ds, fatal
}

func quotedList(args []string) string {
	var b strings.Builder
	for _, a := range args {
		fmt.Fprintf(&b, ", %q", a)
	}
	return b.String()
}

// homePATH warns that found is in a directory under home: a desktop
// session's PATH lacks what shell start-up files add there (nvm, mise).
func homePATH(title string, l *hostprofile.Launch, found, home string) (Diagnosis, bool) {
	if home == "" || !strings.HasPrefix(found, strings.TrimSuffix(home, "/")+"/") {
		return Diagnosis{}, false
	}
	return Diagnosis{Kind: KindHostHomePATH, Severity: Warning,
		Summary: fmt.Sprintf("%s (%s) finds the command at %s, under your home directory: if your shell's start-up files put that directory on PATH, the desktop session %s starts from lacks it and shows spawn ENOENT (source: %s)", title, l.Platform, found, title, l.PATHSource),
		Fix:     fmt.Sprintf("give the absolute path in the config: \"command\": %q", found)}, true
}
