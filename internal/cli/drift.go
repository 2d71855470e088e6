package cli

import (
	"flag"
	"slices"
	"strings"

	"github.com/mcptui/mcptui/mcp"

	"github.com/mcptui/mcptui/internal/protocol"
)

// DriftConfig is what snapshot, diff, check --baseline and replay --verify
// were asked for.
type DriftConfig struct {
	// Sides are diff's two sides: a snapshot or recording file, or "" for
	// the live server (Command and Args: after --, or a URL).
	Sides [2]string
	// FailOn is the weakest change class that fails diff or replay
	// --verify: breaking, risky (default), any or none.
	FailOn string
	// Baseline is check --baseline FILE: a snapshot (or recording) the
	// server is compared with, as the drift rule group.
	Baseline string
	// Ignore are replay --verify's --ignore paths (.a.b, .a[].c).
	Ignore []string
	// Eras are diff --eras A,B: the live server's surfaces on two
	// revisions compared (nil: sides are compared).
	Eras []string
}

// FailOnLevels are the values of --fail-on, strictest bar last.
var FailOnLevels = []string{"none", "breaking", "risky", "any"}

// driftFlags adds the flags of snapshot, diff, check --baseline and
// replay --verify; the result is --verify's value once parsed.
func driftFlags(fs *flag.FlagSet, cfg *Config) *bool {
	verify := new(bool)
	fs.BoolVar(verify, "verify", false, "")
	fs.StringVar(&cfg.Drift.FailOn, "fail-on", "", "")
	fs.StringVar(&cfg.Drift.Baseline, "baseline", "", "")
	fs.Func("eras", "", func(v string) error {
		cfg.Drift.Eras = strings.Split(v, ",")
		return nil
	})
	fs.Func("ignore", "", func(v string) error {
		cfg.Drift.Ignore = append(cfg.Drift.Ignore, v)
		return nil
	})
	return verify
}

// verifyCommand is replay's command turned into replay --verify's when
// --verify was given: it takes a server after --, the server flags,
// --ignore, --fail-on and --format.
func verifyCommand(c command, cfg *Config, verify bool) command {
	if c.mode != ModeReplay || !verify {
		return c
	}
	cfg.Mode = ModeReplayVerify
	c.mode, c.server, c.answers, c.format = ModeReplayVerify, true, true, "text"
	c.flags = append(slices.Clip(c.flags), "ignore", "fail-on")
	return c
}

// diffSides takes diff's words and server: two files (one may be a URL),
// or one and a server after --. It returns the live server's command line
// (nil when both sides are files).
func (cfg *Config) diffSides(words, server []string) ([]string, error) {
	if cfg.Drift.Eras != nil {
		// diff --eras A,B -- server: one server, two revisions.
		for _, e := range cfg.Drift.Eras {
			if !slices.Contains(protocol.Revisions(), e) {
				return nil, usageError("diff --eras: want two of %s, comma-separated (got %q)", strings.Join(protocol.NewestFirst(), ", "), e)
			}
		}
		switch {
		case len(cfg.Drift.Eras) != 2 || cfg.Drift.Eras[0] == cfg.Drift.Eras[1]:
			return nil, usageError("diff --eras: want two different revisions, e.g. --eras 2025-11-25,2026-07-28")
		case len(words) == 1 && server == nil && mcp.IsURL(words[0]):
			return words, nil
		case len(words) > 0 || server == nil:
			return nil, usageError("diff --eras compares one server with itself: mcptui diff --eras A,B -- command...")
		}
		return server, nil
	}
	switch {
	case server != nil && len(words) == 1:
		cfg.Drift.Sides = [2]string{words[0], ""}
		return server, nil
	case server != nil:
		return nil, usageError("diff: one snapshot or recording before -- and the server after it, e.g. mcptui diff v1.json -- ./server")
	case len(words) != 2:
		return nil, usageError("diff needs two sides: snapshot or recording files, a URL, or -- a server command, e.g. mcptui diff v1.json v2.json")
	case mcp.IsURL(words[0]) && mcp.IsURL(words[1]):
		return nil, usageError("diff: one side at most is a live server")
	}
	for i, w := range words {
		if w == "" {
			return nil, usageError("diff: side %d is empty", i+1)
		}
		if mcp.IsURL(w) {
			cfg.Drift.Sides[1-i] = words[1-i] // side i stays "": the live one
			return []string{w}, nil
		}
	}
	cfg.Drift.Sides = [2]string{words[0], words[1]}
	return nil, nil
}

// LiveSide is the index of diff's live side, or -1.
func (d DriftConfig) LiveSide() int {
	return slices.Index(d.Sides[:], "")
}

// validateDrift checks the drift flags for mode.
func (cfg *Config) validateDrift(mode Mode) error {
	d := &cfg.Drift
	if d.FailOn == "" {
		d.FailOn = "risky"
	}
	if !slices.Contains(FailOnLevels, d.FailOn) {
		return usageError("--fail-on must be one of %s (got %q)", strings.Join(FailOnLevels, ", "), d.FailOn)
	}
	switch mode {
	case ModeSnapshot:
		if cfg.Format != "json" {
			return usageError("snapshot: --format must be json (got %q)", cfg.Format)
		}
		if e := cfg.Check.Era; e != "" && e != "all" && !slices.Contains(protocol.Revisions(), e) {
			return usageError("snapshot: --era must be all or one of %s (got %q)", strings.Join(protocol.NewestFirst(), ", "), e)
		}
	case ModeReplayVerify:
		for _, p := range d.Ignore {
			if !strings.HasPrefix(p, ".") {
				return usageError("replay --verify: --ignore %q: a path starts with a dot, e.g. .result._meta or .result.content[].text", p)
			}
		}
	}
	return nil
}
