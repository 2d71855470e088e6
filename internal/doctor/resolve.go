package doctor

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
)

// resolution is where the command resolved, and what is wrong with it.
type resolution struct {
	path      string
	diagnosis *Diagnosis
	// fatal: the command cannot run; the server is not started.
	fatal bool
}

// launchers reports where npx, uvx and node are on PATH.
func launchers() map[string]string {
	out := map[string]string{}
	for _, name := range []string{"npx", "uvx", "node"} {
		p, _ := exec.LookPath(name)
		out[name] = p
	}
	return out
}

// installHint is how to get a well-known command.
func installHint(name string) string {
	switch name {
	case "npx", "npm", "node":
		return "install Node.js, which brings npm and npx (https://nodejs.org, or your package manager), then check that `command -v " + name + "` finds it"
	case "uvx", "uv":
		return "install uv, which brings uvx (https://docs.astral.sh/uv/: curl -LsSf https://astral.sh/uv/install.sh | sh), then open a new shell so PATH has it"
	case "python", "python3":
		return "install Python 3, or name the interpreter by its full path (which python3)"
	case "docker":
		return "install Docker and make sure the docker command is on PATH"
	case "bun", "deno":
		return "install " + name + " and make sure it is on PATH"
	}
	return ""
}

// resolve finds the executable the way conn will (a name with a slash is a
// path from the current directory, anything else is looked up on PATH) and
// checks that it can run: it exists, it is a file, it has the executable
// bit, and a script's #! interpreter exists.
func resolve(command, dir string) resolution {
	if strings.ContainsRune(command, ' ') && !strings.Contains(command, "/") {
		if _, err := exec.LookPath(command); err != nil {
			first, _, _ := strings.Cut(command, " ")
			return fatalRes(KindNotFound, fmt.Sprintf("the command %q is one word with spaces in it, and nothing is called that", command),
				fmt.Sprintf("put the program and its arguments as separate words after --: mcptui doctor -- %s ...", first))
		}
	}
	if strings.Contains(command, "/") {
		abs, _ := filepath.Abs(command)
		st, err := os.Stat(command)
		switch {
		case errors.Is(err, os.ErrNotExist):
			fix := "check the path"
			if dir != "" && !filepath.IsAbs(command) {
				fix += fmt.Sprintf("; a relative command is found from the directory mcptui runs in, not from --cwd %s", dir)
			}
			return fatalRes(KindNotFound, fmt.Sprintf("%s does not exist", abs), fix)
		case err != nil:
			return fatalRes(KindNotExecutable, fmt.Sprintf("%s cannot be examined: %v", abs, err), "check the permissions of the file and of its directories")
		case st.IsDir():
			return fatalRes(KindNotExecutable, fmt.Sprintf("%s is a directory", abs), "name the server's executable (or script) inside it")
		case st.Mode()&0o111 == 0:
			return fatalRes(KindNotExecutable, fmt.Sprintf("%s is not executable (mode %v)", abs, st.Mode().Perm()),
				fmt.Sprintf("make it executable: chmod +x %s; or run it through its interpreter, e.g. mcptui doctor -- node %s", command, command))
		}
		r := checkContents(abs)
		r.path = abs
		return r
	}
	p, err := exec.LookPath(command)
	if err != nil {
		fix := installHint(command)
		if fix == "" {
			fix = "check the spelling, give its path (./server, /opt/x/server) or add its directory to PATH; mcptui runs the command directly, without a shell, so aliases, shell functions and ~ do not work"
		}
		return fatalRes(KindNotFound, fmt.Sprintf("%q is not on PATH", command), fix)
	}
	abs, _ := filepath.Abs(p)
	r := checkContents(abs)
	r.path = abs
	return r
}

func fatalRes(kind, summary, fix string) resolution {
	return resolution{diagnosis: &Diagnosis{Kind: kind, Severity: Error, Summary: summary, Fix: fix}, fatal: true}
}

// checkContents looks at the start of an executable: a script's #! line
// must name an interpreter that exists; a text file without one cannot be
// run at all.
func checkContents(path string) resolution {
	f, err := os.Open(path)
	if err != nil {
		return resolution{} // conn will say why it cannot start it
	}
	defer f.Close()
	head, _ := bufio.NewReader(io.LimitReader(f, 512)).Peek(512)
	if len(head) == 0 {
		return fatalRes(KindNotExecutable, fmt.Sprintf("%s is empty", path), "rebuild or reinstall the server")
	}
	if bytes.HasPrefix(head, []byte("#!")) {
		line, _, _ := bytes.Cut(head[2:], []byte("\n"))
		fields := strings.Fields(string(line))
		if len(fields) == 0 {
			return fatalRes(KindNotExecutable, fmt.Sprintf("%s has an empty #! line", path), "name its interpreter on the first line, e.g. #!/usr/bin/env node")
		}
		interp := fields[0]
		if filepath.Base(interp) == "env" {
			name := ""
			for _, f := range fields[1:] {
				if !strings.HasPrefix(f, "-") && !strings.Contains(f, "=") {
					name = f
					break
				}
			}
			if name == "" {
				return resolution{}
			}
			if _, err := exec.LookPath(name); err != nil {
				fix := installHint(name)
				if fix == "" {
					fix = "install " + name + " or put it on PATH"
				}
				return fatalRes(KindNotExecutable, fmt.Sprintf("%s is a script for %s (its #! line), and %s is not on PATH", path, name, name), fix)
			}
			return resolution{}
		}
		if _, err := os.Stat(interp); err != nil {
			return fatalRes(KindNotExecutable, fmt.Sprintf("%s is a script for %s (its #! line), which does not exist", path, interp),
				"fix the #! line (#!/usr/bin/env NAME finds the interpreter on PATH) or install the interpreter")
		}
		return resolution{}
	}
	if isBinary(head) || !isText(head) {
		return resolution{}
	}
	return fatalRes(KindNotExecutable, fmt.Sprintf("%s is a text file without a #! line, so the system cannot run it", path),
		"add a first line naming its interpreter (e.g. #!/usr/bin/env python3), or run it through the interpreter: mcptui doctor -- python3 "+path)
}

func isBinary(head []byte) bool {
	for _, magic := range [][]byte{{0x7f, 'E', 'L', 'F'}, {0xfe, 0xed, 0xfa, 0xce}, {0xfe, 0xed, 0xfa, 0xcf},
		{0xce, 0xfa, 0xed, 0xfe}, {0xcf, 0xfa, 0xed, 0xfe}, {0xca, 0xfe, 0xba, 0xbe}, {'M', 'Z'}} {
		if bytes.HasPrefix(head, magic) {
			return true
		}
	}
	return false
}

func isText(head []byte) bool {
	for _, c := range head {
		if c < 0x20 && c != '\n' && c != '\r' && c != '\t' {
			return false
		}
	}
	return true
}

// tail keeps the last lines written to it.
type tail struct {
	mu      sync.Mutex
	max     int
	kept    []string
	partial []byte
}

func newTail(n int) *tail { return &tail{max: n} }

func (t *tail) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.partial = append(t.partial, p...)
	for {
		i := bytes.IndexByte(t.partial, '\n')
		if i < 0 {
			break
		}
		t.add(string(bytes.TrimSuffix(t.partial[:i], []byte("\r"))))
		t.partial = t.partial[i+1:]
	}
	if len(t.partial) > 16<<10 {
		t.add(string(t.partial))
		t.partial = nil
	}
	return len(p), nil
}

func (t *tail) add(s string) {
	t.kept = append(t.kept, clip(s))
	if len(t.kept) > t.max {
		t.kept = t.kept[len(t.kept)-t.max:]
	}
}

func (t *tail) lines() []string {
	t.mu.Lock()
	defer t.mu.Unlock()
	out := append([]string{}, t.kept...)
	if len(t.partial) > 0 {
		out = append(out, clip(string(t.partial)))
	}
	if len(out) > t.max {
		out = out[len(out)-t.max:]
	}
	return out
}
