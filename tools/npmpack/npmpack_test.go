package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/mcptui/mcptui/internal/testkit/e2e"
	"github.com/mcptui/mcptui/internal/testkit/proctree"
)

func readManifest(t *testing.T, dir string) map[string]any {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, "package.json"))
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatal(err)
	}
	return m
}

// Every release platform gets a package that npm installs only there (its
// os and cpu in Node's names), and the launcher depends on all of them,
// optionally, at its own version.
func TestPackagesDeclareTheirPlatform(t *testing.T) {
	bin := filepath.Join(t.TempDir(), "mcptui")
	if err := os.WriteFile(bin, []byte("binary"), 0o755); err != nil {
		t.Fatal(err)
	}
	var binaries []Binary
	for _, goos := range []string{"linux", "darwin", "windows", "freebsd"} {
		for _, goarch := range []string{"amd64", "arm64"} {
			binaries = append(binaries, Binary{GOOS: goos, GOARCH: goarch, Path: bin})
		}
	}
	out := t.TempDir()
	dirs, err := Write("../../npm/mcptui", binaries, "1.2.3", out)
	if err != nil {
		t.Fatal(err)
	}
	if len(dirs) != 9 {
		t.Fatalf("%d packages, want the launcher and 8 platforms: %v", len(dirs), dirs)
	}
	launcher := readManifest(t, dirs[0])
	if launcher["name"] != "mcptui" || launcher["version"] != "1.2.3" {
		t.Errorf("launcher is %v@%v", launcher["name"], launcher["version"])
	}
	optional, _ := launcher["optionalDependencies"].(map[string]any)
	if len(optional) != 8 {
		t.Errorf("optionalDependencies = %v, want the 8 platforms", optional)
	}
	want := map[string][2]string{
		"@mcptui/win32-x64":     {"win32", "x64"},
		"@mcptui/darwin-arm64":  {"darwin", "arm64"},
		"@mcptui/linux-x64":     {"linux", "x64"},
		"@mcptui/freebsd-arm64": {"freebsd", "arm64"},
	}
	seen := 0
	for _, dir := range dirs[1:] {
		m := readManifest(t, dir)
		name, _ := m["name"].(string)
		if optional[name] != "1.2.3" {
			t.Errorf("the launcher does not depend on %s at 1.2.3", name)
		}
		exe := "bin/mcptui"
		if strings.Contains(name, "win32") {
			exe += ".exe"
		}
		if _, err := os.Stat(filepath.Join(dir, exe)); err != nil {
			t.Errorf("%s: %v", name, err)
		}
		if w, ok := want[name]; ok {
			seen++
			if osList := m["os"].([]any); len(osList) != 1 || osList[0] != w[0] {
				t.Errorf("%s: os %v, want [%s]", name, osList, w[0])
			}
			if cpu := m["cpu"].([]any); len(cpu) != 1 || cpu[0] != w[1] {
				t.Errorf("%s: cpu %v, want [%s]", name, cpu, w[1])
			}
		}
	}
	if seen != len(want) {
		t.Errorf("saw %d of the packages %v", seen, want)
	}
	if _, err := Write("../../npm/mcptui", []Binary{{GOOS: "plan9", GOARCH: "386", Path: bin}}, "1.2.3", t.TempDir()); err == nil {
		t.Error("a platform npm cannot name was packaged")
	}
}

// The packed packages, installed by npm from their tarballs, run mcptui
// through npx: its version, and a headless command whose server is the
// same launcher (standard streams pass through node both ways). A signal
// to the launcher reaches the binary: nothing outlives it.
func TestNpxRunsThePackedPackage(t *testing.T) {
	e2e.Require(t)
	npm, err := exec.LookPath("npm")
	if err != nil {
		t.Skipf("SKIP: no npm to pack and install the package: %v", err)
	}
	if _, err := (Binary{GOOS: runtime.GOOS, GOARCH: runtime.GOARCH}).PackageName(); err != nil {
		t.Skipf("SKIP: %v", err)
	}
	work := t.TempDir()
	bin := filepath.Join(work, "mcptui")
	if runtime.GOOS == "windows" {
		bin += ".exe"
	}
	build := exec.Command("go", "build", "-o", bin, "../..")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	out := filepath.Join(work, "npm")
	dirs, err := Write("../../npm/mcptui", []Binary{{GOOS: runtime.GOOS, GOARCH: runtime.GOARCH, Path: bin}}, "0.0.0-test", out)
	if err != nil {
		t.Fatal(err)
	}
	var tarballs []string
	for _, dir := range dirs {
		tarball, err := Pack(dir, out)
		if err != nil {
			t.Fatal(err)
		}
		tarballs = append(tarballs, tarball)
	}
	project := filepath.Join(work, "project")
	if err := os.MkdirAll(project, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(project, "package.json"), []byte(`{"name":"project","version":"1.0.0","private":true}`), 0o644); err != nil {
		t.Fatal(err)
	}
	install := exec.Command(npm, append([]string{"install", "--offline", "--no-audit", "--no-fund"}, tarballs...)...)
	install.Dir = project
	if b, err := install.CombinedOutput(); err != nil {
		t.Fatalf("npm install: %v\n%s", err, b)
	}
	npx := func(args ...string) *exec.Cmd {
		cmd := exec.Command("npx", append([]string{"--no-install", "mcptui"}, args...)...)
		cmd.Dir = project
		return cmd
	}
	version, err := npx("--version").CombinedOutput()
	if err != nil || !strings.HasPrefix(string(version), "mcptui ") || !strings.Contains(string(version), "protocols:") {
		t.Fatalf("npx mcptui --version: %v\n%s", err, version)
	}
	t.Logf("npx mcptui --version:\n%s", version)
	launcher := filepath.Join(project, "node_modules", ".bin", "mcptui")
	tools, err := npx("tools", "--", launcher, "demo-server").CombinedOutput()
	if err != nil || !strings.Contains(string(tools), "echo") {
		t.Fatalf("npx mcptui tools -- <launcher> demo-server: %v\n%s", err, tools)
	}

	if runtime.GOOS != "linux" {
		return // proctree reads /proc
	}
	mark := proctree.NewMark(t)
	serve := exec.Command(launcher, "demo-server")
	serve.Env = append(os.Environ(), mark.Env())
	// The server waits for requests as long as its stdin is open: held
	// open here (not a StdinPipe, which Wait closes) until the end, so
	// only the signal can end it.
	stdin, held, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer held.Close()
	serve.Stdin = stdin
	if err := serve.Start(); err != nil {
		t.Fatal(err)
	}
	stdin.Close()
	deadline := time.Now().Add(60 * time.Second)
	for len(mark.Alive()) < 2 { // node and the binary
		if time.Now().After(deadline) {
			t.Fatalf("the launcher did not start the binary: %v", mark.Alive())
		}
		time.Sleep(20 * time.Millisecond)
	}
	if err := serve.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	_ = serve.Wait()
	for left := mark.Alive(); len(left) > 0; left = mark.Alive() {
		if time.Now().After(deadline) {
			t.Fatalf("the binary outlived its launcher's SIGTERM: %v", left)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
