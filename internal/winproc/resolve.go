package winproc

import (
	"errors"
	"fmt"
	"strings"
	"unicode"
)

// DefaultPathExt is what Windows uses when PATHEXT is unset.
const DefaultPathExt = ".COM;.EXE;.BAT;.CMD"

// DefaultComSpec is cmd.exe where COMSPEC is unset.
const DefaultComSpec = `C:\Windows\System32\cmd.exe`

// Env is what a lookup reads of the environment, and how it asks whether
// a file exists (so that it can be tested away from Windows).
type Env struct {
	Path    string // PATH, ';'-separated
	PathExt string // PATHEXT ("" = DefaultPathExt)
	ComSpec string // COMSPEC ("" = DefaultComSpec)
	Dir     string // the directory a relative command (.\server) resolves against
	// IsFile reports whether path names a regular file.
	IsFile func(path string) bool
}

// Command is what to start: Path is the executable CreateProcess runs and
// Args the argument vector; CmdLine, when set, is the exact command line
// (a batch file run through cmd.exe), to be used instead of quoting Args.
type Command struct {
	Path    string
	Args    []string
	CmdLine string
}

// ErrNotFound is returned when no file matches the command.
var ErrNotFound = errors.New("executable file not found in %PATH%")

// Resolve finds command as a Windows host finds it: a name without a
// directory is looked for in each directory of PATH, trying it as given if
// it already ends in one of PATHEXT's extensions and then with each of
// them in order; a name with a directory is looked for there alone (the
// current directory is never searched implicitly, as Go's exec does not).
// A .bat or .cmd file (npx.cmd, and every npm shim) cannot be started by
// itself: it is run as cmd.exe /d /e:ON /v:OFF /s /c "...", with every
// argument quoted so that cmd.exe passes it on unchanged and expands no
// %variable% in it.
func Resolve(command string, args []string, env Env) (Command, error) {
	if command == "" {
		return Command{}, fmt.Errorf("winproc: empty command")
	}
	exts := extensions(env.PathExt)
	var found string
	if hasDir(command) {
		p := command
		if !isAbs(p) && env.Dir != "" {
			p = join(env.Dir, p)
		}
		found = findExecutable(p, exts, env.IsFile)
	} else {
		for _, dir := range strings.Split(env.Path, ";") {
			dir = strings.Trim(dir, `"`)
			if dir == "" {
				continue
			}
			if found = findExecutable(join(dir, command), exts, env.IsFile); found != "" {
				break
			}
		}
	}
	if found == "" {
		return Command{}, fmt.Errorf("winproc: %s: %w", command, ErrNotFound)
	}
	argv := append([]string{command}, args...)
	switch strings.ToLower(ext(found)) {
	case ".bat", ".cmd":
		line, err := BatchCommandLine(found, args)
		if err != nil {
			return Command{}, err
		}
		comspec := env.ComSpec
		if comspec == "" {
			comspec = DefaultComSpec
		}
		return Command{Path: comspec, Args: argv, CmdLine: line}, nil
	}
	return Command{Path: found, Args: argv}, nil
}

// extensions are PATHEXT's, lower-cased, each with its dot.
func extensions(pathext string) []string {
	if pathext == "" {
		pathext = DefaultPathExt
	}
	var exts []string
	for _, e := range strings.Split(strings.ToLower(pathext), ";") {
		if e == "" {
			continue
		}
		if e[0] != '.' {
			e = "." + e
		}
		exts = append(exts, e)
	}
	return exts
}

// findExecutable is file itself when its extension is one of exts, else
// the first file+ext that exists ("" when none does).
func findExecutable(file string, exts []string, isFile func(string) bool) string {
	if e := strings.ToLower(ext(file)); e != "" {
		for _, x := range exts {
			if e == x && isFile(file) {
				return file
			}
		}
	}
	for _, x := range exts {
		if isFile(file + x) {
			return file + x
		}
	}
	return ""
}

// ext is the extension of the last element of a Windows path ("" if none).
func ext(p string) string {
	base := p[strings.LastIndexAny(p, `\/:`)+1:]
	if i := strings.LastIndexByte(base, '.'); i >= 0 {
		return base[i:]
	}
	return ""
}

func hasDir(p string) bool { return strings.ContainsAny(p, `\/:`) }

func isAbs(p string) bool {
	return strings.HasPrefix(p, `\\`) || strings.HasPrefix(p, `//`) ||
		(len(p) >= 3 && p[1] == ':' && (p[2] == '\\' || p[2] == '/'))
}

func join(dir, name string) string {
	for strings.HasPrefix(name, `.\`) || strings.HasPrefix(name, "./") {
		name = name[2:]
	}
	return strings.TrimRight(dir, `\/`) + `\` + name
}

// BatchCommandLine is the command line that runs the batch file script
// with args through cmd.exe, quoted the way Rust's standard library quotes
// it since CVE-2024-24576 ("BatBadBut"): the whole line is one quoted
// string for /s /c; every argument with anything but letters, digits and
// #$*+-./:?@\_ is quoted; a '"' is doubled; and each '%' is preceded by
// %%cd:~,, a zero-length substring of %cd%, so that cmd.exe expands no
// variable. An argument with a line break or NUL cannot be passed to a
// batch file intact and is refused.
func BatchCommandLine(script string, args []string) (string, error) {
	if strings.ContainsRune(script, '"') || strings.HasSuffix(script, `\`) {
		return "", fmt.Errorf("winproc: batch file name %q cannot be quoted for cmd.exe", script)
	}
	var b strings.Builder
	b.WriteString(`cmd.exe /d /e:ON /v:OFF /s /c ""`)
	b.WriteString(script)
	b.WriteByte('"')
	for _, a := range args {
		if strings.ContainsAny(a, "\r\n\x00") {
			return "", fmt.Errorf("winproc: argument %q for batch file %s holds a line break or NUL, which cmd.exe cannot pass on", a, script)
		}
		b.WriteByte(' ')
		appendBatchArg(&b, a)
	}
	b.WriteByte('"')
	return b.String(), nil
}

func appendBatchArg(b *strings.Builder, arg string) {
	quote := arg == "" || strings.HasSuffix(arg, `\`)
	for _, r := range arg {
		if r < unicode.MaxASCII && !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune(`#$*+-./:?@\_`, r)) {
			quote = true
		}
		if unicode.IsControl(r) {
			quote = true
		}
	}
	if quote {
		b.WriteByte('"')
	}
	backslashes := 0
	for _, r := range arg {
		if r == '\\' {
			backslashes++
		} else {
			switch r {
			case '"':
				b.WriteString(strings.Repeat(`\`, backslashes))
				b.WriteByte('"')
			case '%':
				b.WriteString("%%cd:~,")
			}
			backslashes = 0
		}
		b.WriteRune(r)
	}
	if quote {
		b.WriteString(strings.Repeat(`\`, backslashes))
		b.WriteByte('"')
	}
}
