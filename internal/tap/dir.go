package tap

import (
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// SocketSuffix ends the name of a tap's socket in the runtime directory.
const SocketSuffix = ".sock"

// RuntimeDir is where taps publish: $XDG_RUNTIME_DIR/mcptui, or
// /tmp/mcptui-UID when there is no XDG_RUNTIME_DIR; on Windows
// %LOCALAPPDATA%\mcptui\taps, whose access control list lets in the user
// alone.
func RuntimeDir() string { return runtimeDir() }

// publishDir is where a tap with the environment getenv publishes: what
// RuntimeDir is in that environment.
func publishDir(getenv func(string) string) string {
	if d := getenv("XDG_RUNTIME_DIR"); d != "" {
		return filepath.Join(d, "mcptui")
	}
	tmp := getenv("TMPDIR")
	if tmp == "" {
		tmp = "/tmp" // os.TempDir's default on Unix
	}
	return filepath.Join(tmp, "mcptui-"+strconv.Itoa(os.Getuid()))
}

// RuntimeDirs are the directories a tap of this user may have published
// in, the viewer's own first (getenv reads the viewer's environment). A
// tap runs with its host's environment, not the viewer's: TypeScript-SDK
// hosts give their servers almost none (no XDG_RUNTIME_DIR, no TMPDIR),
// and a viewer started from su, ssh or a login without a session manager
// may lack XDG_RUNTIME_DIR while the host had it.
func RuntimeDirs(getenv func(string) string) []string {
	uid := strconv.Itoa(os.Getuid())
	var dirs []string
	add := func(d string) {
		if !slices.Contains(dirs, d) {
			dirs = append(dirs, d)
		}
	}
	add(publishDir(getenv))
	if d := getenv("XDG_RUNTIME_DIR"); d != "" {
		add(filepath.Join(d, "mcptui"))
	}
	add(filepath.Join("/run/user", uid, "mcptui"))
	if d := getenv("TMPDIR"); d != "" {
		add(filepath.Join(d, "mcptui-"+uid))
	}
	add(filepath.Join("/tmp", "mcptui-"+uid))
	return dirs
}

// EnsureDir creates dir (0700) if it is missing and checks that it is the
// user's own: a directory, not a link, owned by this user, with no
// permissions for anyone else. Anything else is refused, never repaired.
func EnsureDir(dir string) error {
	if err := makeDir(dir); err != nil && !errors.Is(err, os.ErrExist) {
		return fmt.Errorf("tap: runtime dir: %w", err)
	}
	return CheckDir(dir)
}

// CheckDir checks that dir is the user's own (see EnsureDir).
func CheckDir(dir string) error {
	fi, err := os.Lstat(dir)
	if err != nil {
		return fmt.Errorf("tap: runtime dir: %w", err)
	}
	if !fi.IsDir() {
		return fmt.Errorf("tap: runtime dir %s is not a directory (%s)", dir, fi.Mode().Type())
	}
	return checkOwner(dir, fi)
}

// SocketPath is the socket of the tap named name in dir.
func SocketPath(dir, name string) string { return filepath.Join(dir, name+SocketSuffix) }

// listen publishes on a socket named for name in dir (name-2, name-3, ...
// when a live tap has it; a dead tap's socket is removed) and returns the
// listener and the name it got. The socket is owner-only.
func listen(dir, name string) (net.Listener, string, error) {
	if err := EnsureDir(dir); err != nil {
		return nil, "", err
	}
	base := name
	for n := 1; n < 100; n++ {
		if n > 1 {
			name = fmt.Sprintf("%s-%d", base, n)
		}
		path := SocketPath(dir, name)
		if _, err := os.Lstat(path); err == nil {
			if alive(path) {
				continue
			}
			_ = os.Remove(path)
		}
		ln, err := net.Listen("unix", path)
		if err != nil {
			if errors.Is(err, syscall.EADDRINUSE) {
				continue
			}
			return nil, "", fmt.Errorf("tap: publishing: %w", err)
		}
		if err := restrict(path); err != nil {
			ln.Close()
			return nil, "", fmt.Errorf("tap: publishing: %w", err)
		}
		return ln, name, nil
	}
	return nil, "", fmt.Errorf("tap: publishing: every name like %q is taken in %s", base, dir)
}

// alive reports whether a tap answers on the socket.
func alive(path string) bool {
	c, err := net.DialTimeout("unix", path, time.Second)
	if err != nil {
		return false
	}
	c.Close()
	return true
}

// DefaultName is the name of a tap of command when --name is not given:
// the command's base name, without characters that do not belong in a
// file name.
func DefaultName(command string, args []string) string {
	name := filepath.Base(command)
	// A runtime (node, python, npx, uvx) names its script: use the script.
	switch strings.TrimSuffix(name, ".exe") {
	case "node", "python", "python3", "npx", "uvx", "uv", "deno", "bun", "go":
		for _, a := range args {
			if a != "" && !strings.HasPrefix(a, "-") && a != "run" {
				name = filepath.Base(a)
				break
			}
		}
	}
	return CleanName(name)
}

// CleanName keeps letters, digits, '.', '_' and '-' of a name ("tap" when
// nothing is left).
func CleanName(name string) string {
	var b strings.Builder
	for _, r := range name {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '.', r == '_', r == '-':
			b.WriteRune(r)
		case r == '@' || r == '/' || r == ' ':
			b.WriteByte('-')
		}
	}
	s := strings.Trim(b.String(), ".-")
	if s == "" {
		return "tap"
	}
	return s
}
