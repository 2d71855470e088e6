package load

import (
	"fmt"
	"strings"

	"github.com/mcptui/mcptui/internal/cli"
)

// A ramp step is kept up with when the server answered at least
// (1-RampMargin) of the offered rate within the step, and its p99 stayed
// within the bound: --max-p99 when given, else rampP99Factor times the
// first step's p99 and at least rampP99Floor ms.
const (
	RampMargin    = 0.10
	rampP99Factor = 10
	rampP99Floor  = 100.0
)

// Ramp is a --ramp run's steps and the point where the server stopped
// keeping up.
type Ramp struct {
	From  float64    `json:"from"`
	To    float64    `json:"to"`
	Hold  string     `json:"hold"`
	Steps []RampStep `json:"steps"`
	// Margin is how far below the offered rate the achieved one may fall
	// (0.1: 10%); P99BoundMs the latency bound and P99Bound where it came
	// from.
	Margin     float64 `json:"margin"`
	P99BoundMs float64 `json:"p99BoundMs"`
	P99Bound   string  `json:"p99Bound"`
	// Knee is the step (from 1) where the server stopped keeping up: the
	// first of the steps at the end of the ramp that were all missed, 0
	// when it kept up with the last; KneeRate its offered rate and
	// KneeWhy what gave. Sustained is the highest offered rate kept up
	// with before the knee (0: not even the first). Passing are the steps
	// missed before one that was kept up with again: a stall that passed,
	// the server's or the machine's, not a limit.
	Knee      int     `json:"knee"`
	KneeRate  float64 `json:"kneeRate,omitempty"`
	KneeWhy   string  `json:"kneeWhy,omitempty"`
	Sustained float64 `json:"sustained"`
	Passing   []int   `json:"passing,omitempty"`
}

// RampStep is one step: requests counted by the time they were due, the
// achieved rate by the answers that came within the step.
type RampStep struct {
	Step     int         `json:"step"`
	Offered  float64     `json:"offered"`
	Achieved float64     `json:"achieved"`
	Requests int64       `json:"requests"`
	Answered int64       `json:"answered"`
	Errors   int64       `json:"errors"`
	Latency  Percentiles `json:"latencyMs"`
	KeptUp   bool        `json:"keptUp"`
	Why      string      `json:"why,omitempty"`
}

// rampReport judges the steps' figures.
func rampReport(l cli.LoadConfig, rates []float64, steps []*stepStats) *Ramp {
	r := &Ramp{From: l.RampFrom, To: l.RampTo, Hold: durationString(l.RampHold), Margin: RampMargin}
	for i, st := range steps {
		r.Steps = append(r.Steps, RampStep{
			Step: i + 1, Offered: rates[i], Achieved: float64(st.answersInWindow) / l.RampHold.Seconds(),
			Requests: st.sent, Answered: st.answered, Errors: st.failed, Latency: percentiles(st.latency),
		})
	}
	if l.MaxP99 > 0 {
		r.P99BoundMs, r.P99Bound = float64(l.MaxP99.Microseconds())/1000, "--max-p99"
	} else {
		r.P99BoundMs = max(rampP99Factor*r.Steps[0].Latency.P99, rampP99Floor)
		r.P99Bound = fmt.Sprintf("%d times the first step's p99, at least %g ms", rampP99Factor, rampP99Floor)
	}
	for i := range r.Steps {
		s := &r.Steps[i]
		var why []string
		if s.Achieved < (1-RampMargin)*s.Offered {
			why = append(why, fmt.Sprintf("answered %.0f/s of %.0f/s offered (under %.0f%%)", s.Achieved, s.Offered, 100*(1-RampMargin)))
		}
		if s.Latency.P99 > r.P99BoundMs {
			why = append(why, fmt.Sprintf("p99 %s ms over the %s ms bound", ms(s.Latency.P99), ms(r.P99BoundMs)))
		}
		if s.Errors > 0 && s.Errors*100 >= s.Requests {
			why = append(why, fmt.Sprintf("%d of %d requests failed", s.Errors, s.Requests))
		}
		s.KeptUp, s.Why = len(why) == 0, strings.Join(why, "; ")
	}
	// The knee is where the missed steps at the end begin.
	k := len(r.Steps)
	for k > 0 && !r.Steps[k-1].KeptUp {
		k--
	}
	if k < len(r.Steps) {
		r.Knee, r.KneeRate, r.KneeWhy = r.Steps[k].Step, r.Steps[k].Offered, r.Steps[k].Why
	}
	for _, s := range r.Steps[:k] {
		if s.KeptUp {
			r.Sustained = s.Offered
		} else {
			r.Passing = append(r.Passing, s.Step)
		}
	}
	return r
}

// writeRamp writes the steps as a table and the verdict.
func writeRamp(p func(string, ...any), r *Ramp) {
	p("ramp:       %g/s to %g/s in %d steps of %s; kept up = answered >= %.0f%% of offered and p99 <= %s ms (%s)",
		r.From, r.To, len(r.Steps), r.Hold, 100*(1-r.Margin), ms(r.P99BoundMs), r.P99Bound)
	p("  step   offered  achieved  requests  errors      p50      p99      max  kept up")
	for _, s := range r.Steps {
		kept := "yes"
		if !s.KeptUp {
			kept = "NO: " + s.Why
		}
		p("  %4d  %6.0f/s  %6.0f/s  %8d  %6d  %7s  %7s  %7s  %s", s.Step, s.Offered, s.Achieved, s.Requests, s.Errors,
			ms(s.Latency.P50), ms(s.Latency.P99), ms(s.Latency.Max), kept)
	}
	switch {
	case r.Knee == 0 && len(r.Passing) == 0:
		p("knee:       none: the server kept up with every step, to %g/s", r.To)
	case r.Knee == 0:
		p("knee:       none: the server kept up with the last step, %g/s", r.To)
	case r.Sustained == 0:
		p("knee:       step 1 (%g/s): it did not keep up even with the first step: %s", r.KneeRate, r.KneeWhy)
	default:
		p("knee:       step %d (%g/s): the server stopped keeping up there (%s); it kept up to %g/s", r.Knee, r.KneeRate, r.KneeWhy, r.Sustained)
	}
	if len(r.Passing) > 0 {
		steps := make([]string, len(r.Passing))
		for i, n := range r.Passing {
			steps[i] = fmt.Sprint(n)
		}
		p("            step %s missed, then a higher rate was kept up with again: a stall that passed (the server's or this machine's), not the limit", strings.Join(steps, ", "))
	}
}
