package cli

import (
	"errors"
	"reflect"
	"strings"
	"testing"
)

func TestParseDriftCommands(t *testing.T) {
	for _, tc := range []struct {
		args   string
		mode   Mode
		sides  [2]string
		server []string
		format string
		failOn string
	}{
		{"snapshot -- ./srv a", ModeSnapshot, [2]string{}, []string{"./srv", "a"}, "json", "risky"},
		{"snapshot --era all -- ./srv", ModeSnapshot, [2]string{}, []string{"./srv"}, "json", "risky"},
		{"snapshot https://h.example/mcp", ModeSnapshot, [2]string{}, []string{"https://h.example/mcp"}, "json", "risky"},
		{"diff a.json b.json", ModeDiff, [2]string{"a.json", "b.json"}, nil, "text", "risky"},
		{"diff --format markdown --fail-on breaking a.json b.jsonl", ModeDiff, [2]string{"a.json", "b.jsonl"}, nil, "markdown", "breaking"},
		{"diff a.json -- ./srv --flag", ModeDiff, [2]string{"a.json", ""}, []string{"./srv", "--flag"}, "text", "risky"},
		{"diff a.json https://h.example/mcp", ModeDiff, [2]string{"a.json", ""}, []string{"https://h.example/mcp"}, "text", "risky"},
		{"diff https://h.example/mcp b.json", ModeDiff, [2]string{"", "b.json"}, []string{"https://h.example/mcp"}, "text", "risky"},
		{"diff --eras 2025-11-25,2026-07-28 -- ./srv", ModeDiff, [2]string{}, []string{"./srv"}, "text", "risky"},
		{"diff --eras 2025-11-25,2026-07-28 https://h.example/mcp", ModeDiff, [2]string{}, []string{"https://h.example/mcp"}, "text", "risky"},
		{"replay --verify rec.jsonl -- ./srv", ModeReplayVerify, [2]string{}, []string{"./srv"}, "text", "risky"},
		{"replay --verify --ignore .result.x --fail-on any --format json rec.jsonl -- ./srv", ModeReplayVerify, [2]string{}, []string{"./srv"}, "json", "any"},
	} {
		cfg, err := Parse(strings.Fields(tc.args))
		if err != nil {
			t.Errorf("%q: %v", tc.args, err)
			continue
		}
		var server []string
		if cfg.Command != "" {
			server = append([]string{cfg.Command}, cfg.Args...)
		}
		if cfg.Mode != tc.mode || cfg.Drift.Sides != tc.sides || !reflect.DeepEqual(server, tc.server) || cfg.Format != tc.format || cfg.Drift.FailOn != tc.failOn {
			t.Errorf("%q: mode %v sides %q server %q format %q fail-on %q", tc.args, cfg.Mode, cfg.Drift.Sides, server, cfg.Format, cfg.Drift.FailOn)
		}
		if !cfg.Mode.Headless() {
			t.Errorf("%q: not headless", tc.args)
		}
	}
	cfg, err := Parse(strings.Fields("check --baseline base.json -- ./srv"))
	if err != nil || cfg.Drift.Baseline != "base.json" {
		t.Errorf("check --baseline: %v %+v", err, cfg)
	}
	cfg, err = Parse(strings.Fields("replay --verify --ignore .result._meta --ignore .result.content[].text rec.jsonl -- ./srv"))
	if err != nil || !reflect.DeepEqual(cfg.Drift.Ignore, []string{".result._meta", ".result.content[].text"}) || cfg.Target != "rec.jsonl" {
		t.Errorf("replay --verify --ignore: %v %+v", err, cfg)
	}
}

func TestParseDriftErrors(t *testing.T) {
	for _, tc := range []struct{ args, want string }{
		{"diff a.json", "diff needs two sides"},
		{"diff a.json b.json c.json", "diff needs two sides"},
		{"diff a.json b.json -- ./srv", "one snapshot or recording before --"},
		{"diff https://a.example/mcp https://b.example/mcp", "one side at most"},
		{"diff --fail-on sometimes a b", "--fail-on must be one of none, breaking, risky, any"},
		{"snapshot --format text -- ./srv", "snapshot: --format must be json"},
		{"diff --eras 2025-11-25 -- ./srv", "want two different revisions"},
		{"diff --eras 2025-11-25,1999-01-01 -- ./srv", "diff --eras: want two of"},
		{"diff --eras 2025-11-25,2026-07-28 a.json -- ./srv", "compares one server with itself"},
		{"snapshot --era 1999-01-01 -- ./srv", "snapshot: --era must be all or one of"},
		{"snapshot", "no server command"},
		{"replay --verify rec.jsonl", "no server command"},
		{"replay --verify --ignore result rec.jsonl -- ./srv", "a path starts with a dot"},
		{"replay --ignore .x rec.jsonl", "replay does not take --ignore"},
		{"tools --baseline b.json -- ./srv", "tools does not take --baseline"},
		{"tools --format markdown -- ./srv", "--format must be json or text"},
	} {
		_, err := Parse(strings.Fields(tc.args))
		if !errors.Is(err, ErrUsage) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: %v, want a usage error with %q", tc.args, err, tc.want)
		}
	}
}
