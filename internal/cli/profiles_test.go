package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestProfileFlags: check takes --host/--model/--server-name/--context,
// tools --cost, doctor --as; each only where it means something.
func TestProfileFlags(t *testing.T) {
	cfg, err := Parse([]string{"check", "--host", "claude-code,gemini-cli", "--model", "all", "--server-name", "gh", "--context", "1000", "--budget", "5000", "--", "srv"})
	if err != nil {
		t.Fatal(err)
	}
	p := cfg.Profiles
	if len(p.Hosts) != 2 || p.Hosts[1].Name != "gemini-cli" || len(p.Models) != 5 || p.ServerName != "gh" || p.Context != 1000 || p.Budget != 5000 {
		t.Fatalf("profiles %+v", p)
	}
	if cfg, err = Parse([]string{"tools", "--cost", "--", "srv"}); err != nil || !cfg.Profiles.Cost {
		t.Fatalf("tools --cost: %v", err)
	}
	if cfg, err = Parse([]string{"doctor", "--as", "claude-desktop", "--", "srv"}); err != nil || cfg.Profiles.As == nil || cfg.Profiles.As.Name != "claude-desktop" {
		t.Fatalf("doctor --as: %v", err)
	}
	for args, want := range map[string]string{
		"check --host nope -- srv":        `unknown host "nope"`,
		"check --model gpt -- srv":        `unknown model "gpt"`,
		"tools --host claude-code -- srv": "tools does not take --host",
		"call x --cost -- srv":            "call does not take --cost",
		"doctor --as claude-code -- srv":  "not recorded",
		"check --context -5 -- srv":       "--context must be",
	} {
		_, err := Parse(strings.Fields(args))
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want %q", args, err, want)
		}
	}
}

// TestProfilesFile: --profiles is read before the names resolve, wherever
// it stands: a host only the file has is known to --host and --as.
func TestProfilesFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "profiles.json")
	body := `{"hosts":[{"name":"ours","nameLimit":30,"nameSource":"our proxy","launch":{"platform":"Linux","path":"/usr/bin:/bin","pathSource":"our image","shellSource":"our launcher"}}]}`
	if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg, err := Parse([]string{"check", "--host", "ours,claude-code", "--profiles", path, "--", "srv"})
	if err != nil {
		t.Fatal(err)
	}
	if len(cfg.Profiles.Hosts) != 2 || cfg.Profiles.Hosts[0].NameLimit != 30 {
		t.Fatalf("%+v", cfg.Profiles.Hosts)
	}
	if cfg, err = Parse([]string{"doctor", "--as", "ours", "--profiles", path, "--", "srv"}); err != nil || cfg.Profiles.As.Launch.PATH != "/usr/bin:/bin" {
		t.Fatalf("doctor --as ours: %v", err)
	}
	if _, err := Parse([]string{"check", "--host", "ours", "--", "srv"}); err == nil || !strings.Contains(err.Error(), `unknown host "ours"`) {
		t.Fatalf("without the file: %v", err)
	}
}

// TestInspectorMarkFlags: the inspector takes --baseline, --host, --model,
// --server-name and --profiles for the catalog's marks, on a server, the
// demo or a config's server; a name it does not know is a usage error.
func TestInspectorMarkFlags(t *testing.T) {
	cfg, err := Parse([]string{"--baseline", "base.json", "--host", "claude-code", "--model", "gemini", "--server-name", "gh", "--", "srv"})
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Mode != ModeInspect || cfg.Drift.Baseline != "base.json" || len(cfg.Profiles.Hosts) != 1 || cfg.Profiles.Hosts[0].Name != "claude-code" ||
		len(cfg.Profiles.Models) != 1 || cfg.Profiles.ServerName != "gh" {
		t.Fatalf("mode %v, baseline %q, profiles %+v", cfg.Mode, cfg.Drift.Baseline, cfg.Profiles)
	}
	if cfg, err = Parse([]string{"--demo", "--host", "all"}); err != nil || cfg.Mode != ModeDemo || len(cfg.Profiles.Hosts) != 6 {
		t.Fatalf("--demo --host all: %v", err)
	}
	if _, err := Parse([]string{"--host", "nope", "--", "srv"}); err == nil || !strings.Contains(err.Error(), `unknown host "nope"`) {
		t.Fatalf("--host nope: %v", err)
	}
}

// TestAsPlatform: doctor --as HOST:PLATFORM names the platform whose
// launch is rehearsed; an unknown platform is refused.
func TestAsPlatform(t *testing.T) {
	for arg, want := range map[string]string{"claude-desktop": "", "claude-desktop:macos": "darwin", "claude-desktop:windows": "windows", "claude-desktop:linux": "linux"} {
		cfg, err := Parse([]string{"doctor", "--as", arg, "--", "srv"})
		if err != nil || cfg.Profiles.As == nil || cfg.Profiles.AsOS != want {
			t.Errorf("--as %s: %v %q", arg, err, cfg.Profiles.AsOS)
		}
	}
	if _, err := Parse([]string{"doctor", "--as", "claude-desktop:beos", "--", "srv"}); err == nil || !strings.Contains(err.Error(), "none of macos, windows, linux") {
		t.Errorf("beos: %v", err)
	}
	if _, err := Parse([]string{"doctor", "--as", "cursor", "--", "srv"}); err == nil || !strings.Contains(err.Error(), "not recorded") {
		t.Errorf("cursor: %v", err)
	}
}

// TestCheckRecording: check --recording takes no server, and needs a host,
// model or budget to judge against.
func TestCheckRecording(t *testing.T) {
	cfg, err := Parse([]string{"check", "--host", "claude-code", "--recording", "rec.jsonl"})
	if err != nil || cfg.Check.Recording != "rec.jsonl" || cfg.Command != "" {
		t.Fatalf("%v %+v", err, cfg)
	}
	for args, want := range map[string]string{
		"check --recording rec.jsonl":                                 "add --host NAME",
		"check --host claude-code --recording rec.jsonl -- ./srv":     "give no server",
		"check --host claude-code --recording rec.jsonl --call-tools": "calls nothing",
	} {
		if _, err := Parse(strings.Fields(args)); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want %q", args, err, want)
		}
	}
}
