package load

import (
	"context"
	"testing"

	"github.com/mcptui/mcptui/internal/testkit/everything"
)

// The everything server under load, over stdio (its process measured) and
// over Streamable HTTP (two sessions, both closed): every call answered.
func TestEverythingServer(t *testing.T) {
	t.Parallel() // waits on its rates and durations, not on the CPU
	if testing.Short() {
		t.Skip("starts the everything server")
	}
	node, args := everything.Server(t)
	t.Run("stdio", func(t *testing.T) {
		r := runLoad(t, context.Background(), append([]string{"call", "echo", "--arg", "message=hi", "--rate", "100", "--duration", "1s", "--warmup", "200ms", "--max-error-rate", "0", "--"}, append([]string{node}, args...)...)...)
		if r.code != 0 || r.rep.Requests != 100 || r.rep.Answered != 100 || r.rep.Server == nil || r.rep.Server.NotMeasured != "" || r.rep.Server.RSSPeakBytes == 0 {
			t.Fatalf("exit %d: %+v\n%s", r.code, r.rep, r.stderr)
		}
	})
	t.Run("http", func(t *testing.T) {
		url := everything.HTTPServer(t, "streamableHttp")
		r := runLoad(t, context.Background(), "call", "echo", "--arg", "message=hi", "--concurrency", "4", "--sessions", "2", "--duration", "1s", "--max-error-rate", "0", url)
		if r.code != 0 || r.rep.Requests == 0 || r.rep.Answered != r.rep.Requests || r.rep.HTTP == nil || r.rep.HTTP.Opened != 2 || r.rep.HTTP.Closed != 2 {
			t.Fatalf("exit %d: %+v %+v\n%s", r.code, r.rep, r.rep.HTTP, r.stderr)
		}
	})
}
