package record

import (
	"errors"
	"time"

	"github.com/mcptui/mcptui/internal/rpccall"
)

// GaveUp is the "gaveUp" member of a "sent" notifications/cancelled: why
// mcptui gave up on the request the line cancels (rpccall.GaveUp as
// recorded). Durations are Go duration strings ("1s", "10m0s"), times are
// milliseconds from the request's start.
type GaveUp struct {
	// Why is "timeout" (the per-request timeout fired), "max-total-timeout"
	// (the cap on its restarts by progress fired), "cancelled" (the
	// caller's context was cancelled: Cause says by what, such as the
	// person's cancel key), "deadline" (the caller's own deadline passed,
	// such as mcptui check's call timeout) or "progress-callback".
	Why                    string  `json:"why"`
	Timeout                string  `json:"timeout,omitempty"`
	ResetTimeoutOnProgress bool    `json:"resetTimeoutOnProgress,omitempty"`
	MaxTotalTimeout        string  `json:"maxTotalTimeout,omitempty"`
	Extended               string  `json:"extended,omitempty"`
	AfterMs                float64 `json:"afterMs"`
	Progress               int     `json:"progress,omitempty"`
	LastProgressMs         float64 `json:"lastProgressMs,omitempty"`
	Cause                  string  `json:"cause,omitempty"`
}

// GaveUpOf is err's *rpccall.GaveUp as recorded, nil when err is none.
func GaveUpOf(err error) *GaveUp {
	var g *rpccall.GaveUp
	if !errors.As(err, &g) || g == nil {
		return nil
	}
	out := &GaveUp{Why: g.Why, ResetTimeoutOnProgress: g.ResetOnProgress, AfterMs: msOf(g.After),
		Progress: g.Progress, LastProgressMs: msOf(g.LastProgress)}
	if g.Timeout > 0 {
		out.Timeout = g.Timeout.String()
	}
	if g.MaxTotal > 0 {
		out.MaxTotalTimeout = g.MaxTotal.String()
	}
	if g.Extended > 0 {
		out.Extended = g.Extended.String()
	}
	if g.Cause != nil {
		out.Cause = RedactText(g.Cause.Error())
	}
	return out
}

// Err is g as the rpccall.GaveUp it records (a replay's conn event).
func (g *GaveUp) Err() *rpccall.GaveUp {
	if g == nil {
		return nil
	}
	out := &rpccall.GaveUp{Why: g.Why, ResetOnProgress: g.ResetTimeoutOnProgress, After: fromMs(g.AfterMs),
		Progress: g.Progress, LastProgress: fromMs(g.LastProgressMs)}
	out.Timeout, _ = time.ParseDuration(g.Timeout)
	out.MaxTotal, _ = time.ParseDuration(g.MaxTotalTimeout)
	out.Extended, _ = time.ParseDuration(g.Extended)
	if g.Cause != "" {
		out.Cause = errors.New(g.Cause)
	}
	return out
}

func msOf(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

func fromMs(ms float64) time.Duration { return time.Duration(ms * float64(time.Millisecond)) }
