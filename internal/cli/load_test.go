package cli

import (
	"errors"
	"strings"
	"testing"
	"time"
)

func TestParseLoad(t *testing.T) {
	cfg, err := Parse(strings.Fields(`load call echo --arg message=hi --arg n:=3 --rate 50 --duration 10s --warmup 2s --sessions 4 --max-p99 200ms --max-error-rate 1% -- srv a`))
	if err != nil {
		t.Fatal(err)
	}
	l := cfg.Load
	if cfg.Mode != ModeLoad || !cfg.Mode.Headless() || l.Kind != "call" || cfg.Target != "echo" || string(cfg.Input) != `{"message":"hi","n":3}` ||
		l.Rate != 50 || l.Duration != 10*time.Second || l.Warmup != 2*time.Second || l.Sessions != 4 || l.MaxP99 != 200*time.Millisecond ||
		l.MaxErrorRate != 0.01 || l.MaxInFlight != DefaultMaxInFlight || cfg.Command != "srv" || cfg.Format != "text" {
		t.Fatalf("%+v %+v", cfg, l)
	}
	cfg, err = Parse(strings.Fields(`load request ping --concurrency 8 --duration 1s --format json http://127.0.0.1:1/mcp`))
	if err != nil || cfg.Load.Kind != "request" || cfg.Target != "ping" || cfg.Load.Concurrency != 8 || cfg.Command != "http://127.0.0.1:1/mcp" ||
		cfg.Load.MaxErrorRate != -1 || cfg.Format != "json" {
		t.Fatalf("%+v %v", cfg, err)
	}
	cfg, err = Parse(strings.Fields(`load --script s.mcpt --rate 5 --duration 1s -- srv`))
	if err != nil || cfg.Load.Kind != "script" || cfg.Target != "s.mcpt" {
		t.Fatalf("%+v %v", cfg, err)
	}
	cfg, err = Parse(strings.Fields(`load call echo --ramp 100..2000/10s --ramp-steps 4 -- srv`))
	if err != nil || !cfg.Load.Ramp || cfg.Load.Rate != 100 || cfg.Load.Duration != 40*time.Second || cfg.Load.RampHold != 10*time.Second {
		t.Fatalf("%+v %v", cfg, err)
	}
	if got := cfg.Load.RampRates(); len(got) != 4 || got[0] != 100 || got[1] != 100+1900.0/3 || got[3] != 2000 {
		t.Errorf("ramp rates %v", got)
	}
	cfg, err = Parse(strings.Fields(`load call echo --ramp 10..50/1s -- srv`))
	if err != nil || cfg.Load.RampSteps != DefaultRampSteps || len(cfg.Load.RampRates()) != DefaultRampSteps {
		t.Fatalf("%+v %v", cfg, err)
	}
}

func TestParseLoadErrors(t *testing.T) {
	for _, args := range []string{
		"load --rate 5 --duration 1s -- srv",                                 // nothing to send
		"load call --rate 5 --duration 1s -- srv",                            // no tool name
		"load frob x --rate 5 --duration 1s -- srv",                          // not call or request
		"load call echo --duration 1s -- srv",                                // no rate or concurrency
		"load call echo --rate 5 --concurrency 2 --duration 1s -- srv",       // both
		"load call echo --rate 5 -- srv",                                     // no duration
		"load call echo --rate -1 --duration 1s -- srv",                      // negative rate
		"load call echo --rate 5 --duration 1s --sessions 0 -- srv",          // no session
		"load call echo --rate 5 --duration 1s --max-error-rate 2 -- srv",    // above 1
		"load call echo --rate 5 --duration 1s --max-error-rate x -- srv",    // not a number
		"load call echo --script s --rate 5 --duration 1s -- srv",            // two things to send
		"load --script s --arg a=1 --rate 5 --duration 1s -- srv",            // arguments for a script
		"load call echo --rate 5 --duration 1s --answer sampling=ask -- srv", // no one to ask under load
		"load call echo --rate 5 --duration 1s",                              // no server
		"load call echo --ramp 100..50/1s -- srv",                            // falling rates
		"load call echo --ramp 100..200 -- srv",                              // no hold
		"load call echo --ramp 100..200/0s -- srv",                           // no time
		"load call echo --ramp 1..2/1s --rate 5 -- srv",                      // two rates
		"load call echo --ramp 1..2/1s --duration 5s -- srv",                 // two durations
		"load call echo --ramp 1..2/1s --ramp-steps 1 -- srv",                // one step
		"load call echo --rate 5 --duration 1s --ramp-steps 3 -- srv",        // steps of no ramp
		"tools --rate 5 -- srv",                                              // load's flag
	} {
		if _, err := Parse(strings.Fields(args)); !errors.Is(err, ErrUsage) {
			t.Errorf("%q: err %v, want a usage error", args, err)
		}
	}
}
