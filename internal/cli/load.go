package cli

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
)

// LoadConfig is what mcptui load was asked: what to send, how hard, for
// how long, and the limits (SLOs) whose breach fails the run.
type LoadConfig struct {
	// Kind is what each request is: "call" (the tool named by
	// Config.Target, arguments Config.Input), "request" (the method named
	// by Config.Target, params Config.Input) or "script" (the request
	// steps of Script, in turn).
	Kind   string
	Script string
	// Rate is the open loop's offered rate in requests per second (0: the
	// closed loop at Concurrency).
	Rate float64
	// Concurrency is the closed loop's number of requests kept in flight.
	Concurrency int
	// Duration is the measured part of the run; Warmup runs before it, the
	// same way, and is left out of every figure.
	Duration time.Duration
	Warmup   time.Duration
	// Sessions is how many server processes (stdio) or sessions (HTTP)
	// the requests are spread over.
	Sessions int
	// MaxInFlight bounds the open loop's requests in flight: a request
	// due when the bound is reached waits, and its wait counts in its
	// latency (which is measured from the time it was due).
	MaxInFlight int
	// MaxRequests bounds how many requests are sent in all (0: no bound
	// beyond the duration's).
	MaxRequests int64
	// Ramp, when set, is --ramp FROM..TO/HOLD: the open loop's rate rises
	// in RampSteps steps from RampFrom to RampTo, each held RampHold (Rate
	// is RampFrom and Duration the steps' sum, set by Parse).
	Ramp      bool
	RampFrom  float64
	RampTo    float64
	RampHold  time.Duration
	RampSteps int
	// The SLOs: a zero duration or a negative rate is not set.
	MaxP50       time.Duration
	MaxP99       time.Duration
	MaxErrorRate float64
}

// DefaultMaxInFlight is the open loop's default bound on requests in flight.
const DefaultMaxInFlight = 1000

// DefaultRampSteps is how many steps --ramp takes without --ramp-steps;
// MaxRampSteps the most it may take.
const (
	DefaultRampSteps = 5
	MaxRampSteps     = 100
)

// loadFlags are the flags of mcptui load.
var loadFlags = []string{"args", "arg", "params", "script", "rate", "concurrency", "duration", "warmup", "sessions",
	"max-in-flight", "max-requests", "max-p50", "max-p99", "max-error-rate", "ramp", "ramp-steps"}

// loadWordCount is how many of words the load command takes for itself:
// "call NAME" and "request METHOD" are two, a --script run none.
func loadWordCount(words []string) int {
	if len(words) > 0 && (words[0] == "call" || words[0] == "request") {
		return 2
	}
	return 0
}

// parseLoad checks mcptui load's words and flags.
func (cfg *Config) parseLoad(words []string) error {
	l := &cfg.Load
	own := len(words) == 2 && loadWordCount(words) == 2
	switch {
	case own && l.Script != "":
		return usageError("load: %s %s and --script FILE both say what to send: give one", words[0], words[1])
	case own:
		l.Kind, cfg.Target = words[0], words[1]
		if cfg.Target == "" {
			return usageError("load: the %s's name must not be empty", map[string]string{"call": "tool", "request": "method"}[l.Kind])
		}
	case len(words) == 0 && l.Script != "":
		l.Kind, cfg.Target = "script", l.Script
		if cfg.Input != nil {
			return usageError("load: --args, --arg and --params are for call and request; a script's steps carry their own")
		}
	case len(words) == 0:
		return usageError("load: say what to send: call NAME [--args JSON], request METHOD [--params JSON] or --script FILE, e.g. mcptui load call echo --arg message=hi --rate 50 --duration 10s -- ./server")
	default:
		return usageError("load: unexpected %q: what to send is call NAME, request METHOD or --script FILE", words[0])
	}
	if l.Ramp {
		switch {
		case l.Rate != 0 || l.Concurrency != 0 || l.Duration != 0:
			return usageError("load: --ramp FROM..TO/HOLD sets the rates and the duration; remove --rate, --concurrency and --duration")
		case l.RampSteps < 2 || l.RampSteps > MaxRampSteps:
			return usageError("load: --ramp-steps must be between 2 and %d", MaxRampSteps)
		}
		l.Rate, l.Duration = l.RampFrom, time.Duration(l.RampSteps)*l.RampHold
	} else if l.RampSteps != DefaultRampSteps {
		return usageError("load: --ramp-steps needs --ramp FROM..TO/HOLD")
	}
	switch {
	case l.Rate == 0 && l.Concurrency == 0:
		return usageError("load: give --rate R (requests per second, open loop) or --concurrency C (requests in flight, closed loop)")
	case l.Rate != 0 && l.Concurrency != 0:
		return usageError("load: --rate and --concurrency are two ways to load the server: give one")
	case l.Rate < 0 || math.IsNaN(l.Rate) || math.IsInf(l.Rate, 0):
		return usageError("load: --rate must be a positive number of requests per second")
	case l.Rate > 1e6:
		return usageError("load: --rate %g is above the 1000000 per second mcptui can schedule", l.Rate)
	case l.Concurrency < 0 || l.Concurrency > 100000:
		return usageError("load: --concurrency must be between 1 and 100000")
	case l.Duration <= 0:
		return usageError("load: give --duration D, the measured time (e.g. 10s); the run is bounded by it")
	case l.Warmup < 0:
		return usageError("load: --warmup must not be negative")
	case l.Sessions < 1 || l.Sessions > 1000:
		return usageError("load: --sessions must be between 1 and 1000")
	case l.MaxInFlight < 1 || l.MaxInFlight > 100000:
		return usageError("load: --max-in-flight must be between 1 and 100000")
	case l.MaxRequests < 0:
		return usageError("load: --max-requests must not be negative (0: bounded by the duration only)")
	case l.MaxP50 < 0 || l.MaxP99 < 0:
		return usageError("load: --max-p50 and --max-p99 must be positive durations")
	case l.MaxErrorRate > 1 || math.IsNaN(l.MaxErrorRate):
		return usageError("load: --max-error-rate is a fraction of the requests, between 0 and 1 (got %g)", l.MaxErrorRate)
	}
	return nil
}

// errorRateFlag is --max-error-rate: a fraction (0.01) or a percentage
// (1%); unset is -1.
type errorRateFlag struct{ v *float64 }

func (f errorRateFlag) String() string { return "" }

func (f errorRateFlag) Set(s string) error {
	pct := strings.HasSuffix(s, "%")
	n, err := strconv.ParseFloat(strings.TrimSuffix(s, "%"), 64)
	if err != nil || n < 0 {
		return fmt.Errorf("want a fraction such as 0.01, or a percentage such as 1%%, got %q", s)
	}
	if pct {
		n /= 100
	}
	*f.v = n
	return nil
}

// rampFlag is --ramp FROM..TO/HOLD: rates in requests per second, HOLD a
// duration, e.g. 100..2000/10s.
type rampFlag struct{ l *LoadConfig }

func (f rampFlag) String() string { return "" }

func (f rampFlag) Set(s string) error {
	bad := fmt.Errorf("want FROM..TO/HOLD, rates a second and how long each step lasts, e.g. 100..2000/10s, got %q", s)
	rates, hold, ok := strings.Cut(s, "/")
	if !ok {
		return bad
	}
	a, b, ok := strings.Cut(rates, "..")
	if !ok {
		return bad
	}
	from, err1 := strconv.ParseFloat(a, 64)
	to, err2 := strconv.ParseFloat(b, 64)
	d, err3 := time.ParseDuration(hold)
	switch {
	case err1 != nil || err2 != nil || err3 != nil:
		return bad
	case !(from > 0) || !(to > from) || math.IsInf(to, 0) || to > 1e6:
		return fmt.Errorf("the rates must rise: 0 < FROM < TO <= 1000000 (got %g..%g)", from, to)
	case d <= 0:
		return fmt.Errorf("each step must last a positive time (got %s)", hold)
	}
	f.l.Ramp, f.l.RampFrom, f.l.RampTo, f.l.RampHold = true, from, to, d
	return nil
}

// RampRates are the offered rates of the ramp's steps: RampSteps steps
// evenly spaced from RampFrom to RampTo, both included.
func (l LoadConfig) RampRates() []float64 {
	if !l.Ramp || l.RampSteps < 2 {
		return nil
	}
	out := make([]float64, l.RampSteps)
	for i := range out {
		out[i] = l.RampFrom + (l.RampTo-l.RampFrom)*float64(i)/float64(l.RampSteps-1)
	}
	return out
}
