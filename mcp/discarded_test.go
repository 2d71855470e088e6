package mcp

import (
	"strings"
	"testing"
)

func init() {
	// An initialize-era server whose answer to the probe is nested past
	// the parser's limit: discarded, its id readable.
	fakes["legacy-deep"] = func(f *fake) {
		legacyServer(f, func(m *msg) bool {
			f.reply(m, strings.Repeat("[", 10001)+strings.Repeat("]", 10001))
			return true
		})
	}
}

// A probe whose answer was discarded (conn's FailLostAnswers) failed at
// once, but the server did not exit: it is an answer, so an
// initialize-era server, initialized on the same process, not a process
// abandoned and started again.
func TestNegotiateProbeAnswerDiscarded(t *testing.T) {
	s := newFake(t, "legacy-deep", "")
	s.opts.Conn.FailLostAnswers = true
	c := s.mustConnect(testCtx(t))
	checkNegotiation(t, s, c, Version20251125, 1, 1, StepSpawn, StepProbe, StepInitialize, StepInitialized)
}
