package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
)

// Binary is one release binary and the platform it runs on.
type Binary struct {
	GOOS, GOARCH string
	Path         string
}

// nodePlatform and nodeArch are Go's names in Node's spelling
// (process.platform, process.arch), which npm's os and cpu fields use.
var (
	nodePlatform = map[string]string{"linux": "linux", "darwin": "darwin", "windows": "win32", "freebsd": "freebsd"}
	nodeArch     = map[string]string{"amd64": "x64", "arm64": "arm64"}
)

// PackageName is the npm package that holds b's binary.
func (b Binary) PackageName() (string, error) {
	p, ok := nodePlatform[b.GOOS]
	a, ok2 := nodeArch[b.GOARCH]
	if !ok || !ok2 {
		return "", fmt.Errorf("%s/%s: npm has no name for this platform", b.GOOS, b.GOARCH)
	}
	return "@mcptui/" + p + "-" + a, nil
}

// ReadArtifacts lists the binaries of GoReleaser's artifacts.json.
func ReadArtifacts(file string) ([]Binary, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, fmt.Errorf("reading the release's artifacts: %w", err)
	}
	var list []struct {
		Type, Path, Goos, Goarch string
	}
	if err := json.Unmarshal(data, &list); err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	var out []Binary
	for _, a := range list {
		if a.Type == "Binary" {
			out = append(out, Binary{GOOS: a.Goos, GOARCH: a.Goarch, Path: a.Path})
		}
	}
	return out, nil
}

// Write makes out anew and writes into it the launcher package (from the
// launcher folder, with version and one optional dependency per binary)
// and a package per binary. It returns the packages' folders, the
// launcher's first.
func Write(launcher string, binaries []Binary, version, out string) ([]string, error) {
	if err := os.RemoveAll(out); err != nil {
		return nil, err
	}
	optional := map[string]string{}
	var dirs []string
	for _, b := range binaries {
		name, err := b.PackageName()
		if err != nil {
			return nil, err
		}
		if _, dup := optional[name]; dup {
			return nil, fmt.Errorf("two binaries for %s", name)
		}
		optional[name] = version
		dir := filepath.Join(out, strings.TrimPrefix(strings.ReplaceAll(name, "/", "-"), "@"))
		if err := writePlatform(dir, name, version, b); err != nil {
			return nil, err
		}
		dirs = append(dirs, dir)
	}
	sort.Strings(dirs)
	main := filepath.Join(out, "mcptui")
	if err := writeLauncher(launcher, main, version, optional); err != nil {
		return nil, err
	}
	return append([]string{main}, dirs...), nil
}

// writeLauncher copies the launcher package, setting its version and its
// optional dependencies.
func writeLauncher(src, dst, version string, optional map[string]string) error {
	var manifest map[string]any
	data, err := os.ReadFile(filepath.Join(src, "package.json"))
	if err != nil {
		return fmt.Errorf("reading the launcher package: %w", err)
	}
	if err := json.Unmarshal(data, &manifest); err != nil {
		return fmt.Errorf("%s/package.json: %w", src, err)
	}
	manifest["version"] = version
	manifest["optionalDependencies"] = optional
	for _, f := range []string{"README.md", "bin/mcptui.js"} {
		if err := copyFile(filepath.Join(src, f), filepath.Join(dst, f)); err != nil {
			return err
		}
	}
	return writeJSON(filepath.Join(dst, "package.json"), manifest)
}

// writePlatform writes the package that holds one platform's binary.
func writePlatform(dir, name, version string, b Binary) error {
	exe := "mcptui"
	if b.GOOS == "windows" {
		exe += ".exe"
	}
	if err := copyFile(b.Path, filepath.Join(dir, "bin", exe)); err != nil {
		return err
	}
	manifest := map[string]any{
		"name":            name,
		"version":         version,
		"description":     fmt.Sprintf("mcptui's binary for %s/%s; install the package mcptui, which runs it", b.GOOS, b.GOARCH),
		"license":         "MIT",
		"homepage":        "https://github.com/mcptui/mcptui",
		"repository":      map[string]string{"type": "git", "url": "git+https://github.com/mcptui/mcptui.git"},
		"os":              []string{nodePlatform[b.GOOS]},
		"cpu":             []string{nodeArch[b.GOARCH]},
		"files":           []string{"bin/" + exe},
		"preferUnplugged": true,
	}
	return writeJSON(filepath.Join(dir, "package.json"), manifest)
}

// Pack runs npm pack in dir, leaving the tarball in dest; it returns the
// tarball's path.
func Pack(dir, dest string) (string, error) {
	abs, err := filepath.Abs(dest)
	if err != nil {
		return "", err
	}
	cmd := exec.Command("npm", "pack", "--silent", "--pack-destination", abs)
	cmd.Dir = dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("npm pack in %s: %w: %s", dir, err, strings.TrimSpace(stderr.String()))
	}
	lines := strings.Fields(string(out))
	if len(lines) == 0 {
		return "", fmt.Errorf("npm pack in %s named no tarball", dir)
	}
	return filepath.Join(abs, lines[len(lines)-1]), nil
}

func writeJSON(file string, v any) error {
	data, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
		return err
	}
	return os.WriteFile(file, append(data, '\n'), 0o644)
}

// copyFile copies src to dst, keeping its mode (a binary stays executable).
func copyFile(src, dst string) error {
	data, err := os.ReadFile(src)
	if err != nil {
		return fmt.Errorf("packaging %s: %w", src, err)
	}
	info, err := os.Stat(src)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return err
	}
	return os.WriteFile(dst, data, info.Mode().Perm())
}
