package check

import (
	"context"
	"encoding/json"
	"strings"
	"sync"

	"github.com/mcptui/mcptui/conn"
	"github.com/mcptui/mcptui/mcp"

	"github.com/mcptui/mcptui/internal/protocol"
)

// robustness sends the main session what a careless client might (a
// second initialize, foreign _meta keys, several requests at once, text
// beyond ASCII, a 1 MiB line, notifications it does not expect) and
// judges that the server answers each and keeps serving. It runs last, on
// the initialize eras, since a server that fails it may not serve on.
func (r *run) robustness() {
	if mcp.Stateless(r.era) {
		return
	}
	if r.wants("basic.meta-tolerated") {
		r.guard([]string{"basic.meta-tolerated"}, r.metaTolerated)
	}
	if r.wants("transport.unicode") {
		r.guard([]string{"transport.unicode"}, r.unicodeRoundTrip)
	}
	if r.wants("transport.concurrent-requests") {
		r.guard([]string{"transport.concurrent-requests"}, r.concurrentRequests)
	}
	if r.wants("lifecycle.reinitialize") {
		r.guard([]string{"lifecycle.reinitialize"}, r.reinitialize)
	}
	if r.wants("transport.large-message") {
		r.guard([]string{"transport.large-message"}, r.largeMessage)
	}
	if r.wants("lifecycle.keeps-serving") {
		r.guard([]string{"lifecycle.keeps-serving"}, r.keepsServing)
	}
}

// probeMeta is a _meta key no server knows, in a valid name.
const probeMeta = "dev.mcptui.check/probe"

func (r *run) metaTolerated() {
	meta := map[string]any{probeMeta: "1", "extra": "value"}
	for _, m := range []string{mcp.MethodPing, mcp.MethodListTools} {
		if m == mcp.MethodListTools && r.cur().Session().Capabilities.Tools == nil {
			continue
		}
		_, e := r.raw(m, map[string]any{"_meta": meta})
		if transportGone(e) {
			continue
		}
		r.judge("basic.meta-tolerated", e == nil, `%s with "_meta":{"%s":"1","extra":"value"} got %s`, m, probeMeta, describe(e))
	}
}

// unicodeProbe is the text sent beyond ASCII (two-, three- and four-byte
// UTF-8 sequences).
const unicodeProbe = "héllo 世界 🚀"

// unicodeRoundTrip sends the probe where servers tend to quote it back
// (an unknown tool's, prompt's or resource's name) and judges the answers
// that quote it: the probe whole, or mojibake of it.
func (r *run) unicodeRoundTrip() {
	name := "mcptui-check " + unicodeProbe
	caps := r.cur().Session().Capabilities
	probes := []struct {
		method string
		params map[string]any
		ok     bool
	}{
		{mcp.MethodCallTool, map[string]any{"name": name, "arguments": map[string]any{}}, caps.Tools != nil},
		{mcp.MethodGetPrompt, map[string]any{"name": name}, caps.Prompts != nil},
		{mcp.MethodReadResource, map[string]any{"uri": "mcptui-check:///" + unicodeProbe}, caps.Resources != nil},
		{"mcptui/" + unicodeProbe, map[string]any{}, true},
	}
	for _, p := range probes {
		if !p.ok {
			continue
		}
		res, e := r.raw(p.method, p.params)
		if transportGone(e) {
			continue
		}
		text := string(res)
		if e != nil {
			text = e.Message + " " + string(e.Data)
		}
		if bad := mangled(text); bad != "" {
			r.fail("transport.unicode", "%s naming %q came back with %q: %s", p.method, unicodeProbe, bad, clip(text, 160))
		} else if strings.Contains(text, unicodeProbe) {
			r.pass("transport.unicode")
		}
	}
	r.skip("transport.unicode", "the server quoted none of the names sent, so the round trip could not be seen")
}

// mangled returns the first trace of the probe mis-decoded in text: its
// bytes read as Latin-1 (or cp1252), or a replacement character.
func mangled(text string) string {
	for _, s := range []string{"\uFFFD", "Ã©", "ä¸", "ðŸ", "Ã"} {
		if strings.Contains(text, s) {
			return s
		}
	}
	return ""
}

// concurrency is how many pings are in flight at once.
const concurrency = 8

func (r *run) concurrentRequests() {
	type answer struct {
		res json.RawMessage
		e   *mcp.Error
	}
	answers := make([]answer, concurrency)
	var wg sync.WaitGroup
	for i := range answers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			answers[i].res, answers[i].e = r.raw(mcp.MethodPing, map[string]any{})
		}()
	}
	wg.Wait()
	for _, a := range answers {
		if notAsked(a.e) {
			r.skip("transport.concurrent-requests", describe(a.e))
			return
		}
	}
	failed := 0
	var first answer
	for _, a := range answers {
		if a.e != nil || !isObject(a.res) {
			if failed == 0 {
				first = a
			}
			failed++
		}
	}
	r.judge("transport.concurrent-requests", failed == 0, "%d of %d pings sent at once were not answered with a result (first: %s %s)",
		failed, concurrency, describe(first.e), clip(string(first.res), 60))
}

func (r *run) reinitialize() {
	res, e := r.raw(mcp.MethodInitialize, r.initParams(r.era))
	if transportGone(e) {
		r.skip("lifecycle.reinitialize", "the second initialize got no answer: "+describe(e))
		return
	}
	r.judge("lifecycle.reinitialize", e != nil, "a second initialize on the initialized session got a result: %s", clip(string(res), 120))
	if e == nil {
		// The server began again: tell it the client is ready, as after
		// the first one.
		r.cur().Transport().Notify(r.ctx, mcp.NotificationInitialized, map[string]any{})
	}
}

// largeSize is the size of the large message's padding.
const largeSize = 1 << 20

func (r *run) largeMessage() {
	pad := strings.Repeat("A", largeSize)
	_, e := r.raw("mcptui/large-message", map[string]any{"data": pad})
	if notAsked(e) {
		r.skip("transport.large-message", describe(e))
		return
	}
	if transportFailed(e) || e != nil && e.Code == conn.CodeTimeout {
		r.fail("transport.large-message", "a 1 MiB request (an unknown method) got %s", describe(e))
		return
	}
	pong, e := r.raw(mcp.MethodPing, map[string]any{})
	if notAsked(e) {
		r.skip("transport.large-message", describe(e))
		return
	}
	r.judge("transport.large-message", e == nil && isObject(pong), "after a 1 MiB request, ping got %s", describe(e))
}

// keepsServing sends what the server cannot handle, then pings it.
func (r *run) keepsServing() {
	c := r.cur().Transport()
	ctx, cancel := context.WithCancel(r.ctx)
	defer cancel()
	c.Notify(ctx, protocol.NotificationProgress, map[string]any{"progressToken": "mcptui-check-no-such-token", "progress": 1})
	c.Notify(ctx, protocol.NotificationRootsListChanged, map[string]any{})
	c.Notify(ctx, "notifications/mcptui-check/unexpected", map[string]any{"x": 1})
	c.Notify(ctx, protocol.NotificationCancelled, map[string]any{"requestId": 987654321, "reason": "mcptui check"})
	// Whether these are answered is other rules' to judge (a server may
	// drop a request it cannot parse); this one judges the ping after.
	_, _ = r.raw("mcptui/no-such-method", map[string]any{})
	pong, e := r.raw(mcp.MethodPing, map[string]any{})
	if notAsked(e) {
		r.skip("lifecycle.keeps-serving", describe(e))
		return
	}
	r.judge("lifecycle.keeps-serving", e == nil && isObject(pong),
		"after unexpected notifications and an unknown method, ping got %s %s", describe(e), clip(string(pong), 60))
}
