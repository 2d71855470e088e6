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
		v, _ := x.vars.lookup(strings.TrimPrefix(ref, "env:"))
		return v, true // the editors expand an unset variable to nothing
	case ref == "userHome":
		return x.vars.Home, true
	case ref == "workspaceFolder":
		return x.vars.Workspace, x.workspace(ref)
	case ref == "workspaceFolderBasename":
		return filepath.Base(x.vars.Workspace), x.workspace(ref)
	case ref == "pathSeparator", ref == "/":
		return string(filepath.Separator), true
	case strings.HasPrefix(ref, "input:"):
		x.problems = append(x.problems, fmt.Sprintf("${%s} is asked of the user by %s: set it in the file or pass the value with -e", ref, x.host))
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
