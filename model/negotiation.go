package model

import (
	"fmt"
	"time"

	"github.com/mcptui/mcptui/internal/protocol"
)

// maxSteps bounds the negotiation steps kept per connection.
const maxSteps = 32

// Step is one step of starting a connection, for the person watching it
// start: the probe sent, its answer, initialize, a respawn.
type Step struct {
	Time time.Time
	Text string
}

// addStep records a step of the current connection's start.
func (s *Session) addStep(t time.Time, text string) {
	s.conn.Step = text
	if len(s.conn.Steps) < maxSteps {
		s.conn.Steps = append(s.conn.Steps, Step{Time: t, Text: text})
	}
}

// negotiationRequest follows a request of ours that is part of the version
// negotiation, while the connection is not ready yet.
func (s *Session) negotiationRequest(w Wire, env envelope) {
	if w.Dir != Out || s.conn.Phase == PhaseReady {
		return
	}
	if env.method != protocol.MethodDiscover && env.method != protocol.MethodInitialize {
		return
	}
	if s.conn.Phase == PhaseExited {
		// The first process was abandoned; this is its replacement.
		s.conn.ExitStatus, s.conn.Failure = "", ""
		s.addStep(w.Time, "the server was started again")
	}
	switch env.method {
	case protocol.MethodDiscover:
		s.conn.Phase = PhaseNegotiating
		s.addStep(w.Time, "probe sent: server/discover")
	case protocol.MethodInitialize:
		s.conn.Phase = PhaseNegotiating
		v, _ := str(member(env.params, "protocolVersion"))
		s.addStep(w.Time, "initialize sent, asking for "+v)
	}
}

// negotiationResponse follows the answer to a negotiation request.
func (s *Session) negotiationResponse(c *Call, env envelope, t time.Time) {
	if c.Dir != Out || s.conn.Phase == PhaseReady {
		return
	}
	took := fmtDuration(t.Sub(c.Start))
	switch c.Method {
	case protocol.MethodDiscover:
		switch {
		case env.err != nil && env.err.Code == protocol.CodeUnsupportedVersion:
			s.addStep(t, fmt.Sprintf("probe answered in %s: -32022, the server names its versions", took))
		case env.err != nil:
			s.addStep(t, fmt.Sprintf("probe answered in %s with error %d: an initialize-era server", took, env.err.Code))
		default:
			vs := clipRaw(member(env.result, "supportedVersions"))
			s.addStep(t, fmt.Sprintf("probe answered in %s: versions %s", took, vs))
		}
	case protocol.MethodInitialize:
		if env.err != nil {
			s.addStep(t, fmt.Sprintf("initialize failed in %s: %s", took, env.err.Error()))
			return
		}
		v, _ := str(member(env.result, "protocolVersion"))
		s.addStep(t, fmt.Sprintf("initialize answered in %s: protocol %s", took, v))
	}
}

// fmtDuration is a short duration for a step: 81ms, 1.2s.
func fmtDuration(d time.Duration) string {
	if d < time.Second {
		return fmt.Sprintf("%dms", d.Milliseconds())
	}
	return fmt.Sprintf("%.1fs", d.Seconds())
}

// probeAbandoned notes a probe we gave up on: its process is abandoned and
// another one started, so the exit that follows is the old process's, not
// the connection's.
func (s *Session) probeAbandoned(w Wire, c *Call) {
	if w.Dir == Out && c.Method == protocol.MethodDiscover && s.conn.Phase != PhaseReady {
		s.abandoned++
		s.addStep(w.Time, "no answer to the probe: that process is abandoned and the server started again")
	}
}

// abandonedExit absorbs the exit of a process abandoned during the
// negotiation; it reports false for any other exit.
func (s *Session) abandonedExit(t time.Time, status string) bool {
	if s.abandoned == 0 || s.conn.Phase == PhaseReady {
		return false
	}
	s.abandoned--
	if status == "" {
		status = "exit status 0"
	}
	s.addStep(t, "the abandoned process exited ("+status+")")
	return true
}
