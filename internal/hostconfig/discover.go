package hostconfig

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
)

// Source is one config file a host keeps, whether or not it exists.
type Source struct {
	Host Host
	Path string
	// Workspace is the project the file belongs to ("" for a user file).
	Workspace string
}

// Place is where to look: the user's home, config dir and OS, and the
// project directory mcptui was started in.
type Place struct {
	Home, ConfigDir, AppData, WorkDir, GOOS string
}

// DefaultPlace is this process's home, config directory and working
// directory.
func DefaultPlace() Place {
	home, _ := os.UserHomeDir()
	cfg, _ := os.UserConfigDir()
	wd, _ := os.Getwd()
	return Place{Home: home, ConfigDir: cfg, AppData: os.Getenv("APPDATA"), WorkDir: wd, GOOS: runtime.GOOS}
}

// Sources lists the files each host reads, project files first.
func (p Place) Sources() []Source {
	var out []Source
	if p.WorkDir != "" {
		out = append(out,
			Source{ClaudeCode, filepath.Join(p.WorkDir, ".mcp.json"), p.WorkDir},
			Source{VSCode, filepath.Join(p.WorkDir, ".vscode", "mcp.json"), p.WorkDir},
			Source{Cursor, filepath.Join(p.WorkDir, ".cursor", "mcp.json"), p.WorkDir},
		)
	}
	if p.Home == "" {
		return out
	}
	out = append(out,
		Source{ClaudeCode, filepath.Join(p.Home, ".claude.json"), ""},
		Source{Cursor, filepath.Join(p.Home, ".cursor", "mcp.json"), ""},
	)
	switch p.GOOS {
	case "darwin":
		support := filepath.Join(p.Home, "Library", "Application Support")
		out = append(out,
			Source{ClaudeDesktop, filepath.Join(support, "Claude", "claude_desktop_config.json"), ""},
			Source{VSCode, filepath.Join(support, "Code", "User", "mcp.json"), ""})
	case "windows":
		if p.AppData != "" {
			out = append(out,
				Source{ClaudeDesktop, filepath.Join(p.AppData, "Claude", "claude_desktop_config.json"), ""},
				Source{VSCode, filepath.Join(p.AppData, "Code", "User", "mcp.json"), ""})
		}
	default:
		cfg := p.ConfigDir
		if cfg == "" {
			cfg = filepath.Join(p.Home, ".config")
		}
		out = append(out,
			Source{ClaudeDesktop, filepath.Join(cfg, "Claude", "claude_desktop_config.json"), ""},
			Source{VSCode, filepath.Join(cfg, "Code", "User", "mcp.json"), ""})
	}
	return out
}

// Found is what Discover read: the servers of every file that exists, and
// the files that exist but could not be read.
type Found struct {
	Servers []Server
	Broken  []error
}

// Discover reads every source that exists. In ~/.claude.json only the
// user's servers and those of the working directory's project are kept:
// other projects' servers belong to those projects.
func (p Place) Discover(getenv func(string) (string, bool)) Found {
	var f Found
	for _, src := range p.Sources() {
		servers, err := ReadFile(src.Path, src.Host, Vars{Getenv: getenv, Home: p.Home, Workspace: src.Workspace})
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			f.Broken = append(f.Broken, err)
			continue
		}
		for _, s := range servers {
			if s.Scope != "" && s.Scope != "project "+p.WorkDir {
				continue
			}
			f.Servers = append(f.Servers, s)
		}
	}
	return f
}

// HostOfFile guesses a file's host from its name and place, for --config.
func HostOfFile(path string) Host {
	base, dir := filepath.Base(path), filepath.Base(filepath.Dir(path))
	switch {
	case base == "claude_desktop_config.json":
		return ClaudeDesktop
	case base == ".mcp.json" || base == ".claude.json":
		return ClaudeCode
	case dir == ".vscode" || (dir == "User" && filepath.Base(filepath.Dir(filepath.Dir(path))) == "Code"):
		return VSCode
	case dir == ".cursor":
		return Cursor
	}
	return Generic
}

// Open reads a config file named on the command line: its host from its
// name, its workspace from where a project file sits.
func (p Place) Open(path string, getenv func(string) (string, bool)) ([]Server, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, fmt.Errorf("the config file's path: %w", err)
	}
	host := HostOfFile(abs)
	return ReadFile(abs, host, Vars{Getenv: getenv, Home: p.Home, Workspace: p.workspaceOf(abs, host)})
}

// workspaceOf is the project a file belongs to, or "" for a user file.
func (p Place) workspaceOf(path string, host Host) string {
	dir := filepath.Dir(path)
	switch {
	case host == ClaudeCode && filepath.Base(path) == ".mcp.json":
		return dir
	case (host == VSCode || host == Cursor) && (filepath.Base(dir) == ".vscode" || filepath.Base(dir) == ".cursor"):
		if parent := filepath.Dir(dir); parent != p.Home {
			return parent
		}
	}
	return ""
}
