package cli

import (
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"
)

func TestParseServerCommand(t *testing.T) {
	cfg, err := Parse([]string{"-e", "A=1", "--env", "B=x=y", "--unset", "HOME", "--cwd", "/tmp",
		"--timeout", "5s", "--max-line-bytes", "1MiB", "--protocol", "2025-11-25", "--root", "file:///a",
		"--", "./server", "--its", "-flags"})
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Mode != ModeInspect || cfg.Command != "./server" || !reflect.DeepEqual(cfg.Args, []string{"--its", "-flags"}) {
		t.Fatalf("command: %+v", cfg)
	}
	if len(cfg.Env) != 3 || *cfg.Env[0].Value != "1" || *cfg.Env[1].Value != "x=y" || cfg.Env[2].Value != nil || cfg.Env[2].Name != "HOME" {
		t.Fatalf("env: %+v", cfg.Env)
	}
	if cfg.Dir != "/tmp" || cfg.Timeout != 5*time.Second || cfg.MaxLineBytes != 1<<20 {
		t.Fatalf("options: %+v", cfg)
	}
	if !reflect.DeepEqual(cfg.Protocols, []string{"2025-11-25"}) || !reflect.DeepEqual(cfg.Roots, []string{"file:///a"}) {
		t.Fatalf("lists: %+v", cfg)
	}
	if !cfg.ResetOnProgress || !cfg.Bell || cfg.Theme != "auto" {
		t.Fatalf("defaults: %+v", cfg)
	}
}

func TestParseModes(t *testing.T) {
	for args, want := range map[string]Mode{
		"--demo":           ModeDemo,
		"demo-server":      ModeDemoServer,
		"--version":        ModeVersion,
		"--help":           ModeHelp,
		"-h":               ModeHelp,
		"--demo --no-bell": ModeDemo,
	} {
		cfg, err := Parse(strings.Fields(args))
		if err != nil || cfg.Mode != want {
			t.Errorf("%q: mode %v, err %v; want %v", args, cfg, err, want)
		}
	}
}

func TestParseErrorsAreUsageErrors(t *testing.T) {
	for _, args := range []string{
		"./server",
		"--bogus -- x",
		"--timeout soon -- x",
		"--theme purple -- x",
		"--protocol 2023-01-01 -- x",
		"--probe-timeout -1s -- x",
		"-e NOVALUE -- x",
		"--max-line-bytes -5 -- x",
		"--history-bytes 0 -- x",
		"--demo -- x",
		"demo-server extra",
	} {
		_, err := Parse(strings.Fields(args))
		if !errors.Is(err, ErrUsage) {
			t.Errorf("%q: err %v, want a usage error", args, err)
			continue
		}
		if strings.Contains(err.Error(), "\n") {
			t.Errorf("%q: error spans lines: %q", args, err)
		}
	}
}

func TestParseSize(t *testing.T) {
	for in, want := range map[string]int{"10": 10, "2KiB": 2048, "16MiB": 16 << 20, "1G": 1 << 30, "3 M": 3 << 20} {
		if got, err := ParseSize(in); err != nil || got != want {
			t.Errorf("ParseSize(%q) = %d, %v; want %d", in, got, err, want)
		}
	}
	if _, err := ParseSize("lots"); err == nil {
		t.Error("ParseSize(lots) succeeded")
	}
}
