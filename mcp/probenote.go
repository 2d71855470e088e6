package mcp

import (
	"errors"
	"fmt"
	"time"
)

// ExplainSilentProbe says, when the negotiation n gave up on a server that
// did not answer the server/discover probe within probeTimeout and started
// it again for initialize, what that did to the version and how to avoid
// it; "" otherwise. A server that was only slow to start (a cold npx, a
// container) may speak 2026-07-28: restarted, it is spoken to at the
// older version it was initialized with, which nothing else would say.
func ExplainSilentProbe(n Negotiation, probeTimeout time.Duration) string {
	silent := false
	for _, st := range n.Steps {
		var e *Error
		if st.Kind == StepProbe && errors.As(st.Err, &e) && e.Code == CodeTimeout {
			silent = true
		}
	}
	if !silent || n.Spawns < 2 || n.Version == "" {
		return ""
	}
	more := 60 * time.Second
	if probeTimeout >= more {
		more = 2 * probeTimeout
	}
	return fmt.Sprintf("the server did not answer the server/discover probe within %v, so it was taken for one that cannot answer an unknown first request: "+
		"it was started again and initialized at %s. If it was only slow to start, it may speak %s: "+
		"give it more time with --probe-timeout %v, or pin the version you expect with --protocol (--protocol %s)",
		probeTimeout, n.Version, Version20260728, more, Version20260728)
}
