package hostconfig

import (
	"fmt"
	"path/filepath"
	"strings"
)

// expander expands ${...} references the way one host does, collecting
// what it had to leave as written.
type expander struct {
	host     Host
	vars     Vars
	problems []string
	// where is the field being expanded (see Prompt), prompts the
	// ${input:…} references left as written.
	where   Prompt
	prompts []Prompt
}

// at expands s as the value of the field where names.
func (x *expander) at(where Prompt, s string) string {
	x.where = where
	defer func() { x.where = Prompt{} }()
	return x.expand(s)
}

// expand returns s with the host's variables replaced. A reference the host
// would not resolve either (an unset ${VAR} without a default in the coding
// agent, an ${input:…} prompt in VS Code) stays as written and is reported.
func (x *expander) expand(s string) string {
	if x.host == ClaudeDesktop || x.host == Generic || !strings.Contains(s, "${") {
		return s
	}
	var b strings.Builder
	for {
		i := strings.Index(s, "${")
		if i < 0 {
			b.WriteString(s)
			return b.String()
		}
		j := strings.IndexByte(s[i:], '}')
		if j < 0 {
			b.WriteString(s)
			return b.String()
		}
		b.WriteString(s[:i])
		ref := s[i+2 : i+j]
		if v, ok := x.resolve(ref); ok {
			b.WriteString(v)
		} else {
			b.WriteString(s[i : i+j+1])
		}
		s = s[i+j+1:]
	}
}

func (x *expander) resolve(ref string) (string, bool) {
	if x.host == ClaudeCode {
		name, def, hasDef := strings.Cut(ref, ":-")
		if v, ok := x.vars.lookup(name); ok {
			return v, true
		}
		if hasDef {
			return def, true
		}
		x.problems = append(x.problems, fmt.Sprintf("${%s} is not set", name))
		return "", false
	}
	// VS Code and Cursor.
	switch {
	case strings.HasPrefix(ref, "env:"):
		v, ok := x.vars.lookup(strings.TrimPrefix(ref, "env:"))
		if !ok {
			// The editors expand an unset variable to nothing, silently:
			// mcptui does the same, and says so.
			x.problems = append(x.problems, fmt.Sprintf("${%s} is not set: %s would pass an empty string, and so does mcptui", ref, x.host))
		}
		return v, true
	case ref == "userHome":
		return x.vars.Home, true
	case ref == "workspaceFolder":
		return x.vars.Workspace, x.workspace(ref)
	case ref == "workspaceFolderBasename":
		return filepath.Base(x.vars.Workspace), x.workspace(ref)
	case ref == "pathSeparator", ref == "/":
		return string(filepath.Separator), true
	case strings.HasPrefix(ref, "input:"):
		p := x.where
		p.Ref = "${" + ref + "}"
		x.prompts = append(x.prompts, p)
		x.problems = append(x.problems, p.Problem(x.host))
		return "", false
	}
	x.problems = append(x.problems, fmt.Sprintf("${%s} is not a variable mcptui knows for %s", ref, x.host))
	return "", false
}

func (x *expander) workspace(ref string) bool {
	if x.vars.Workspace == "" {
		x.problems = append(x.problems, fmt.Sprintf("${%s} needs a workspace: open the project's own file", ref))
		return false
	}
	return true
}

// Prompt is a value the editor asks its user for when it starts the server
// (VS Code's ${input:ID}), which mcptui cannot ask: the reference is left
// as written, and a server opened with one is refused unless the command
// line gives the value.
type Prompt struct {
	// Ref is the reference as written: ${input:api-key}.
	Ref string
	// Field is where it stands: "env" or "header" (Key names the variable
	// or the header), "args", "command", "url", "cwd" or "envFile".
	Field, Key string
}

// Problem says what the prompt means for mcptui, and how to give the value.
func (p Prompt) Problem(h Host) string {
	asked := fmt.Sprintf("%s is asked of the user by %s, and mcptui cannot ask", p.Ref, h)
	switch p.Field {
	case "env":
		return fmt.Sprintf("%s (env %s): give the value with -e %s=VALUE", asked, p.Key, p.Key)
	case "header":
		return fmt.Sprintf("%s (header %s): give the value with --header '%s: VALUE'", asked, p.Key, p.Key)
	case "":
		return asked + ": write the value in the file"
	}
	return fmt.Sprintf("%s (in %s): write the value in the file, or run the command after --", asked, p.Field)
}
