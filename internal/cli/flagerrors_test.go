package cli

import (
	"errors"
	"strings"
	"testing"
)

// A mistyped flag is named as it was typed (--bogus, not the flag
// package's -bogus), with the nearest flag the command takes when one is
// a slip away.
func TestFlagErrorsSayTheFlagAsTyped(t *testing.T) {
	for _, c := range []struct {
		args    string
		want    string
		notWant string
	}{
		{"--bogus -- x", "unknown flag --bogus", "did you mean"},
		{"tools --bogus -- x", "tools: unknown flag --bogus", "did you mean"},
		{"-bogus -- x", "unknown flag -bogus", ""},
		{"--timout 5s -- x", "unknown flag --timout (did you mean --timeout?)", ""},
		{"tools --timout=5s -- x", "tools: unknown flag --timout (did you mean --timeout?)", ""},
		{"call echo --ars {} -- x", "unknown flag --ars (did you mean --arg?)", ""},
		// tools does not take --args: it is not offered there.
		{"tools --argz {} -- x", "unknown flag --argz", "did you mean --args"},
		{"attach --brake x", "attach: unknown flag --brake (did you mean --break?)", ""},
		{"--timeout soon -- x", `invalid value "soon" for flag --timeout`, "flag -timeout"},
		{"tools --timeout", "flag needs an argument: --timeout", ""},
	} {
		_, err := Parse(strings.Fields(c.args))
		if !errors.Is(err, ErrUsage) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: err %v, want a usage error saying %q", c.args, err, c.want)
			continue
		}
		if c.notWant != "" && strings.Contains(err.Error(), c.notWant) {
			t.Errorf("%q: err %v says %q", c.args, err, c.notWant)
		}
	}
}
