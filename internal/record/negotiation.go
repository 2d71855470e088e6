package record

import (
	"encoding/json"
	"errors"
	"time"

	"github.com/mcptui/mcptui/mcp"
)

// Negotiation is mcp.Negotiation as recorded.
type Negotiation struct {
	Allowed    []string  `json:"allowed"`
	Version    string    `json:"version"`
	Reason     string    `json:"reason"`
	Spawns     int       `json:"spawns"`
	Probes     int       `json:"probes"`
	Started    time.Time `json:"started"`
	DurationMs float64   `json:"durationMs"`
	Steps      []Step    `json:"steps"`
}

// Step is one mcp.Step as recorded.
type Step struct {
	Kind     string          `json:"kind"`
	Method   string          `json:"method,omitempty"`
	PID      int             `json:"pid,omitempty"`
	Sent     json.RawMessage `json:"sent,omitempty"`
	Result   json.RawMessage `json:"result,omitempty"`
	Error    string          `json:"error,omitempty"`
	Code     int             `json:"code,omitempty"`
	Decision string          `json:"decision"`
	Start    time.Time       `json:"start"`
	// DurationMs is how long the step took, in milliseconds.
	DurationMs float64 `json:"durationMs"`
}

// Duration is the negotiation's duration.
func (n *Negotiation) Duration() time.Duration { return msDuration(n.DurationMs) }

// Duration is the step's duration.
func (s *Step) Duration() time.Duration { return msDuration(s.DurationMs) }

func msDuration(ms float64) time.Duration { return time.Duration(ms * float64(time.Millisecond)) }

func toMs(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

func negotiationOf(n mcp.Negotiation) *Negotiation {
	out := &Negotiation{
		Allowed: n.Allowed, Version: n.Version, Reason: n.Reason, Spawns: n.Spawns, Probes: n.Probes,
		Started: n.Started, DurationMs: toMs(n.Duration), Steps: []Step{},
	}
	if out.Allowed == nil {
		out.Allowed = []string{}
	}
	for _, s := range n.Steps {
		st := Step{Kind: s.Kind.String(), Method: s.Method, PID: s.PID, Decision: s.Decision,
			Start: s.Start, DurationMs: toMs(s.Duration)}
		if json.Valid(s.Sent) {
			st.Sent = s.Sent
		}
		if json.Valid(s.Result) {
			st.Result = s.Result
		}
		if s.Err != nil {
			st.Error = s.Err.Error()
			var e *mcp.Error
			if errors.As(s.Err, &e) {
				st.Code = e.Code
			}
		}
		out.Steps = append(out.Steps, st)
	}
	return out
}
