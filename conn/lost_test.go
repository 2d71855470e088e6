package conn_test

import (
	"strings"
	"testing"

	"github.com/mcptui/mcptui/conn"
	"github.com/mcptui/mcptui/internal/rpccall"
)

// With FailLostAnswers, an answer discarded although its id is readable (a
// line over MaxLineBytes, one nested deeper than the parser's limit) fails
// its call at once with the reason, instead of waiting out the timeout: the
// calls here have no timer at all, so only the fix ends them before the
// harness's deadline. Other calls and later lines are unaffected.
func TestDiscardedAnswerFailsAtOnce(t *testing.T) {
	t.Parallel()
	const limit = 200
	deep := `{"jsonrpc":"2.0","id":$ID,"result":` + strings.Repeat("[", 10001) + strings.Repeat("]", 10001) + "}"
	for name, tc := range map[string]struct {
		limit int
		line  string
		why   []string // what the error's cause must name
	}{
		"too long": {limit, paddedResponse(t, limit+1) + "\n", []string{"201 bytes", "200"}},
		"too deep": {2 * len(deep), deep + "\n", []string{"deeper than 10000 levels"}},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			h := start(t, conn.Options{MaxLineBytes: tc.limit, FailLostAnswers: true})
			other := make(chan error, 1)
			go func() { // a call in flight meanwhile keeps waiting, then gets its answer
				_, err := h.call("hold/a", nil, conn.WithTimeout(0))
				other <- err
			}()
			h.events.waitFor(t, "the held call to be sent", func(es []conn.Event) bool {
				for _, e := range es {
					if e.Kind == conn.Sent && strings.Contains(string(e.Line), `"hold/a"`) {
						return true
					}
				}
				return false
			})

			_, err := h.call("writeonly", map[string]string{"data": tc.line}, conn.WithTimeout(0))
			e := wantErr(t, err, conn.CodeConnection, "The server's answer was discarded")
			if e.Cause == nil || !rpccall.AnswerDiscarded(err) {
				t.Fatalf("error %v: its cause does not say the answer was discarded", err)
			}
			for _, w := range tc.why {
				if !strings.Contains(e.Error(), w) {
					t.Errorf("error %q does not name %q", e.Error(), w)
				}
			}
			h.release("a")
			if err := <-other; err != nil {
				t.Fatalf("the other call: %v", err)
			}
			h.ping()
		})
	}
}
