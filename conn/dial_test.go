package conn_test

// Rules 1-3: spawning the server (lookup, start failures, options, Env, Dir,
// stderr).

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/mcptui/mcptui/conn"
)

// Rule 1: args reach the command as they are, with no shell in between.
func TestDialPassesArgsWithoutShell(t *testing.T) {
	t.Parallel()
	text := "$HOME `id` * ; echo no|cat\n"
	h := start(t, conn.Options{}, "-stderr="+text)
	h.ping()
	if got := h.stderr.waitFor(t, text); got != text {
		t.Fatalf("stderr %q, want exactly %q", got, text)
	}
}

// PID is the process the fake server runs in.
func TestDialPID(t *testing.T) {
	t.Parallel()
	h := start(t, conn.Options{})
	jsonEq(t, h.mustCall("pid", nil), fmt.Sprintf(`{"pid":%d}`, h.c.PID()))
}

// Rule 1: a relative path such as ./server resolves against the current
// directory (exec.LookPath), also when Options.Dir points elsewhere.
func TestDialRelativePath(t *testing.T) {
	binDir := t.TempDir()
	if err := os.Symlink(fakeExe, filepath.Join(binDir, "fakeserver")); err != nil {
		t.Fatal(err)
	}
	t.Chdir(binDir)
	for _, dir := range []string{"", t.TempDir()} {
		t.Run(fmt.Sprintf("Dir=%q", dir), func(t *testing.T) {
			c, err := conn.Dial(context.Background(), "./fakeserver", nil, conn.Options{Dir: dir, Stderr: &textWatch{}})
			if err != nil {
				t.Fatalf("Dial(./fakeserver): %v", err)
			}
			defer c.Shutdown(5 * time.Second)
			res, err := c.Call(context.Background(), "cwd", nil, conn.WithTimeout(waitTimeout))
			if err != nil {
				t.Fatalf("Call: %v", err)
			}
			want := binDir
			if dir != "" {
				want = dir
			}
			var got struct{ Cwd string }
			json.Unmarshal(res, &got)
			if !sameDir(t, got.Cwd, want) {
				t.Fatalf("server runs in %q, want %q", got.Cwd, want)
			}
		})
	}
}

// Rule 1: a command that cannot be found is -32000 "Executable not found:
// <command>", and nothing is started.
func TestDialExecutableNotFound(t *testing.T) {
	t.Parallel()
	missing := filepath.Join(t.TempDir(), "missing")
	notExecutable := filepath.Join(t.TempDir(), "plain-file")
	if err := os.WriteFile(notExecutable, []byte("#!/bin/sh\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, command := range []string{"conn-test-no-such-command-anywhere", "./conn-test-no-such-server", missing, notExecutable} {
		var events []conn.Event
		c, err := conn.Dial(context.Background(), command, nil, conn.Options{
			Observer: func(e conn.Event) { events = append(events, e) },
		})
		if c != nil {
			t.Errorf("Dial(%q) returned a connection", command)
			c.Shutdown(time.Second)
		}
		wantErr(t, err, conn.CodeConnection, "Executable not found: "+command)
		if len(events) != 0 {
			t.Errorf("Dial(%q): the Observer saw %v, want nothing", command, events)
		}
	}
}

// Rule 1: any other start failure is -32000 with the OS error as Cause.
func TestDialStartFailure(t *testing.T) {
	t.Parallel()
	garbage := filepath.Join(t.TempDir(), "garbage")
	if err := os.WriteFile(garbage, []byte("\x00\x01 not a program\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name    string
		command string
		opts    conn.Options
		cause   error
	}{
		{"not an executable format", garbage, conn.Options{}, syscall.ENOEXEC},
		{"missing directory", fakeExe, conn.Options{Dir: filepath.Join(t.TempDir(), "gone")}, fs.ErrNotExist},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c, err := conn.Dial(context.Background(), tc.command, nil, tc.opts)
			if c != nil {
				c.Shutdown(time.Second)
				t.Fatal("Dial returned a connection")
			}
			e := wantErr(t, err, conn.CodeConnection, "Could not start the stdio server")
			if e.Cause == nil || !errors.Is(err, tc.cause) {
				t.Fatalf("Cause %v, want one that is %v", e.Cause, tc.cause)
			}
		})
	}
}

// Rule 2: negative MaxLineBytes or MaxServerRequests is an error from Dial
// naming the option, and nothing is started.
func TestDialInvalidOptions(t *testing.T) {
	t.Parallel()
	cases := map[string]conn.Options{
		"MaxLineBytes":      {MaxLineBytes: -1},
		"MaxServerRequests": {MaxServerRequests: -5},
	}
	for option, opts := range cases {
		spawned := false
		opts.Observer = func(conn.Event) { spawned = true }
		c, err := conn.Dial(context.Background(), fakeExe, nil, opts)
		if c != nil {
			c.Shutdown(time.Second)
			t.Errorf("%s: Dial returned a connection", option)
		}
		if err == nil || !strings.Contains(err.Error(), option) {
			t.Errorf("%s: error %v, want one naming %s", option, err, option)
		}
		if spawned {
			t.Errorf("%s: the Observer saw events", option)
		}
	}
}

// Rule 2: Env adds to the inherited environment, replaces a variable, and a
// nil Value removes one.
func TestDialEnv(t *testing.T) {
	t.Parallel()
	added, replaced := "added value", "replaced value"
	h := start(t, conn.Options{Env: []conn.EnvVar{
		{Name: "CONN_TEST_ADDED", Value: &added},
		{Name: envUnset, Value: nil},
		{Name: "CONN_TEST_REPLACED", Value: &replaced},
	}})
	res := h.mustCall("env", map[string]any{"names": []string{envInherited, "CONN_TEST_ADDED", envUnset, "CONN_TEST_REPLACED", "PATH"}})
	var env map[string]*string
	if err := json.Unmarshal(res, &env); err != nil {
		t.Fatal(err)
	}
	check := func(name string, want *string) {
		got := env[name]
		switch {
		case want == nil && got != nil:
			t.Errorf("%s = %q in the child, want it unset", name, *got)
		case want != nil && (got == nil || *got != *want):
			t.Errorf("%s = %v in the child, want %q", name, got, *want)
		}
	}
	inherited, path := "inherited", os.Getenv("PATH")
	check(envInherited, &inherited)
	check("PATH", &path)
	check("CONN_TEST_ADDED", &added)
	check("CONN_TEST_REPLACED", &replaced)
	check(envUnset, nil)
}

// Rule 2: Env can override an inherited variable.
func TestDialEnvOverridesInherited(t *testing.T) {
	t.Parallel()
	v := "overridden"
	h := start(t, conn.Options{Env: []conn.EnvVar{{Name: envInherited, Value: &v}}})
	jsonEq(t, h.mustCall("env", map[string]any{"names": []string{envInherited}}), `{"`+envInherited+`":"overridden"}`)
}

// Rule 2: Dir is the child's working directory; "" is ours.
func TestDialDir(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	h := start(t, conn.Options{Dir: dir})
	var got struct{ Cwd string }
	json.Unmarshal(h.mustCall("cwd", nil), &got)
	if !sameDir(t, got.Cwd, dir) {
		t.Errorf("server runs in %q, want %q", got.Cwd, dir)
	}

	ours, _ := os.Getwd()
	h2 := start(t, conn.Options{})
	json.Unmarshal(h2.mustCall("cwd", nil), &got)
	if !sameDir(t, got.Cwd, ours) {
		t.Errorf("without Dir the server runs in %q, want ours %q", got.Cwd, ours)
	}
}

// Rule 3: with Options.Stderr the child's stderr goes to that writer.
func TestStderrCaptured(t *testing.T) {
	t.Parallel()
	h := start(t, conn.Options{}, "-stderr=at start\n")
	h.stderr.waitFor(t, "at start\n")
	h.mustCall("stderr", map[string]string{"text": "during a call\n"})
	if got := h.stderr.waitFor(t, "during a call\n"); got != "at start\nduring a call\n" {
		t.Fatalf("stderr %q", got)
	}
}

// Rule 3: without Options.Stderr the child inherits ours; with it, nothing
// reaches ours. A dialer process (this binary again) dials the fake server,
// and this test reads the dialer's own stderr.
func TestStderrInherited(t *testing.T) {
	t.Parallel()
	const marker = "marker from the server"
	for _, mode := range []string{"inherit", "capture"} {
		t.Run(mode, func(t *testing.T) {
			t.Parallel()
			cmd := exec.Command(fakeExe, mode)
			cmd.Env = append(os.Environ(), roleEnv+"=dialer")
			cmd.WaitDelay = waitTimeout
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			if err := cmd.Run(); err != nil {
				t.Fatalf("dialer: %v\nstdout: %s\nstderr: %s", err, &stdout, &stderr)
			}
			inherited := strings.Contains(stderr.String(), marker)
			captured := strings.Contains(stdout.String(), fmt.Sprintf("captured: %q", marker+"\n"))
			if mode == "inherit" && (!inherited || captured) {
				t.Fatalf("inherited stderr: dialer's stderr %q, stdout %q", &stderr, &stdout)
			}
			if mode == "capture" && (inherited || !captured) {
				t.Fatalf("captured stderr: dialer's stderr %q, stdout %q", &stderr, &stdout)
			}
		})
	}
}

// runDialer is the dialer role of TestStderrInherited: it dials the fake
// server (which writes a marker to stderr at start), with Options.Stderr
// unset ("inherit") or set ("capture"), and prints what it captured.
func runDialer(args []string) int {
	os.Setenv(roleEnv, "server")
	if len(args) > 0 && args[0] == "orphan" {
		return runOrphanDialer()
	}
	exe, err := os.Executable()
	if err != nil {
		fmt.Println(err)
		return 1
	}
	ctx, cancel := context.WithTimeout(context.Background(), waitTimeout)
	defer cancel()
	var opts conn.Options
	captured := &textWatch{}
	if len(args) > 0 && args[0] == "capture" {
		opts.Stderr = captured
	}
	c, err := conn.Dial(ctx, exe, []string{"-stderr=marker from the server\n"}, opts)
	if err != nil {
		fmt.Println("dial:", err)
		return 1
	}
	if _, err := c.Call(ctx, "echo", nil); err != nil {
		fmt.Println("call:", err)
		return 1
	}
	if err := c.Shutdown(waitTimeout); err != nil {
		fmt.Println("shutdown:", err)
		return 1
	}
	fmt.Printf("captured: %q\n", captured.String())
	return 0
}

// sameDir reports whether a and b name the same directory.
func sameDir(t *testing.T, a, b string) bool {
	t.Helper()
	ia, errA := os.Stat(a)
	ib, errB := os.Stat(b)
	if errA != nil || errB != nil {
		t.Fatalf("stat: %v, %v", errA, errB)
	}
	return os.SameFile(ia, ib)
}
