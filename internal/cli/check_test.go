package cli

import (
	"errors"
	"reflect"
	"strings"
	"testing"
)

func TestParseCheck(t *testing.T) {
	cfg, err := Parse(strings.Fields("check --era all --level should --call-tools --rule tools.names,resources --rule lifecycle.ping --format sarif --junit j.xml --sarif s.json --answer elicitation=decline -- ./srv x"))
	if err != nil {
		t.Fatal(err)
	}
	want := CheckConfig{Era: "all", Level: "should", CallTools: true, SARIF: "s.json", Rules: []string{"tools.names", "resources", "lifecycle.ping"}}
	if cfg.Mode != ModeCheck || !cfg.Mode.Headless() || !reflect.DeepEqual(cfg.Check, want) || cfg.Format != "sarif" || cfg.JUnit != "j.xml" || cfg.Command != "./srv" {
		t.Errorf("check: %+v", cfg)
	}
	if cfg, _ := Parse(strings.Fields("check -- srv")); cfg.Format != "text" || cfg.Check.Level != "must" {
		t.Errorf("defaults: %+v", cfg)
	}
	for _, bad := range []string{"check --era 2099-01-01 -- srv", "check --level may -- srv", "check --rule tools.nope -- srv", "check", "tools --format sarif -- srv", "tools --era all -- srv"} {
		if _, err := Parse(strings.Fields(bad)); !errors.Is(err, ErrUsage) {
			t.Errorf("%q: %v, want a usage error", bad, err)
		}
	}
}
