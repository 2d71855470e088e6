package doctor

import (
	"context"
	"fmt"
	"github.com/mcptui/mcptui/internal/record"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/mcptui/mcptui/conn"
	"github.com/mcptui/mcptui/internal/hostprofile"
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
)

// HostLaunch is how doctor --as started the server: the host's way.
type HostLaunch struct {
	Host  string `json:"host"`
	Title string `json:"title"`
	// Platform the host's launch facts hold on.
	Platform string `json:"platform"`
	// PATH is the host's search path; Passed the variables of this
	// environment it passes on; Dropped those it does not (names only).
	PATH    string   `json:"path"`
	Passed  []string `json:"passed"`
	Dropped []string `json:"dropped"`
	// Versions are the protocol versions offered (nil: all of mcptui's).
	Versions []string `json:"versions,omitempty"`
	// Sources are where these facts come from.
	Sources []string `json:"sources"`
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
	l := h.Launch
	opts.As = nil
	hl := &HostLaunch{Host: h.Name, Title: h.Title, Platform: l.Platform, PATH: l.PATH,
		Sources: []string{"PATH: " + l.PATHSource, "environment: " + l.InheritSource, "no shell: " + l.ShellSource}}
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
	if !strings.Contains(opts.Command, "/") && !mcp.IsURL(opts.Command) {
		found, ok := lookIn(l.PATH, opts.Command)
		if !ok {
			r := &Report{Command: record.RedactArgs(append([]string{opts.Command}, opts.Args...), false), Launchers: launchers(), Stderr: []string{}, Host: hl}
			d := Diagnosis{Kind: KindHostNotFound, Severity: Error,
				Summary: fmt.Sprintf("%s would show \"spawn %s ENOENT\": %s is not in any directory of its PATH (%s)", h.Title, opts.Command, opts.Command, l.PATH)}
			if mine, err := exec.LookPath(opts.Command); err == nil {
				abs, _ := filepath.Abs(mine)
				d.Summary += fmt.Sprintf("; your terminal finds it at %s", abs)
				d.Fix = fmt.Sprintf("give the absolute path in the config: \"command\": %q (or add \"env\": {\"PATH\": \"%s:%s\"} to the entry)", abs, filepath.Dir(abs), l.PATH)
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
	}
	r := Run(ctx, hostOpts)
	r.Command = append([]string{opts.Command}, opts.Args...)
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
	r.Diagnoses = append([]Diagnosis{hostOnly(h, l, r, passed, dropped)}, r.Diagnoses...)
	sortDiagnoses(r.Diagnoses)
	return r
}

// hostOnly explains a failure only the host's launch shows: a program
// the server runs that only this terminal's PATH has, or a variable the
// host does not pass.
func hostOnly(h hostprofile.Host, l *hostprofile.Launch, r *Report, passed, dropped []string) Diagnosis {
	d := Diagnosis{Kind: KindHostOnly, Severity: Error,
		Summary: fmt.Sprintf("the server works from your terminal but fails as %s starts it (PATH %s; only %s passed from your environment; no shell)",
			h.Title, l.PATH, strings.Join(passed, ", "))}
	var missing []string
	var dirs []string
	for _, name := range namesIn(strings.Join(r.Stderr, "\n") + "\n" + r.ConnectError + "\n" + r.Exit) {
		if _, ok := lookIn(l.PATH, name); ok {
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
			strings.Join(dirs, ":"), l.PATH)
		return d
	}
	d.Fix = fmt.Sprintf("the difference is the environment: PATH is %s, and %d variables of yours are not passed (%s); put what the server needs in the entry's \"env\" (an absolute PATH, API keys), and use absolute paths",
		l.PATH, len(dropped), strings.Join(clipList(dropped, 12), ", "))
	return d
}

// notFound find the names a shell, env or a runtime says it could not
// find: "sh: 1: helper: not found", "env: 'node': No such file or
// directory", "spawn uvx ENOENT", "helper: command not found".
var notFound = []*regexp.Regexp{
	regexp.MustCompile(`([A-Za-z0-9_.+-]+)'?:? (?:command )?not found`),
	regexp.MustCompile(`'([A-Za-z0-9_.+-]+)': No such file or directory`),
	regexp.MustCompile(`spawn ([A-Za-z0-9_.+-]+) ENOENT`),
	regexp.MustCompile(`exec: "([A-Za-z0-9_.+-]+)": executable file not found`),
}

// namesIn are the program names text says were not found.
func namesIn(text string) []string {
	var out []string
	for _, re := range notFound {
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
		if slices.Contains(l.Inherit, name) && !strings.HasPrefix(value, "()") {
			passed = append(passed, name)
			continue
		}
		dropped = append(dropped, name)
		env = append(env, conn.EnvVar{Name: name})
	}
	if !set("PATH") {
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
