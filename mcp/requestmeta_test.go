package mcp

import (
	"encoding/json"
	"fmt"
	"sync"
	"testing"
)

// traceMeta is a RequestMeta that hands out a new traceparent each call.
type traceMeta struct {
	mu      sync.Mutex
	n       int
	methods []string
}

func (m *traceMeta) meta(method string) json.RawMessage {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.n++
	m.methods = append(m.methods, method)
	return json.RawMessage(fmt.Sprintf(`{"traceparent":"00-0af7651916cd43dd8448eb211c80319c-%016x-01"}`, m.n))
}

// TestRequestMetaEveryRound: on 2026-07-28 every round of a request is a
// request of its own, with its own traceparent, beside the dialect _meta.
func TestRequestMetaEveryRound(t *testing.T) {
	a := newAnswers()
	tm := &traceMeta{}
	s, c := modernClient(t, func(s *fakeSetup) {
		a.all(&s.opts)
		s.opts.RequestMeta = tm.meta
	})
	if _, err := c.CallTool(testCtx(t), "mrtr", map[string]any{"n": 1}); err != nil {
		t.Fatal(err)
	}
	calls := s.wire.sent(MethodCallTool)
	if len(calls) != 3 {
		t.Fatalf("%d tools/call lines, want 3", len(calls))
	}
	seen := map[string]bool{}
	for i, m := range calls {
		tp, _ := stringMember(m.meta(), "traceparent")
		if tp == "" || seen[tp] {
			t.Errorf("round %d traceparent %q (seen: %v)", i+1, tp, seen)
		}
		seen[tp] = true
		if v, _ := stringMember(m.meta(), MetaProtocolVersion); v != Version20260728 {
			t.Errorf("round %d lost the dialect _meta: %s", i+1, m.line)
		}
	}
}

// TestRequestMetaLegacy: on the initialize era the members join the
// request's _meta (its progress token kept), and the caller's WithMeta
// wins over them; the handshake carries none.
func TestRequestMetaLegacy(t *testing.T) {
	tm := &traceMeta{}
	s, c := legacyClient(t, "", func(s *fakeSetup) { s.opts.RequestMeta = tm.meta })
	if init := s.wire.sent(MethodInitialize)[0]; init.meta().get("traceparent") != nil {
		t.Errorf("initialize carries a traceparent: %s", init.line)
	}
	if _, err := c.ListTools(testCtx(t)); err != nil {
		t.Fatal(err)
	}
	list := s.wire.sent(MethodListTools)
	if len(list) == 0 {
		t.Fatal("no tools/list sent")
	}
	if tp, _ := stringMember(list[0].meta(), "traceparent"); tp != "00-0af7651916cd43dd8448eb211c80319c-0000000000000001-01" {
		t.Errorf("tools/list _meta %s", list[0].meta().encode())
	}
	if _, err := c.Request(testCtx(t), MethodListTools, nil, WithMeta(json.RawMessage(`{"traceparent":"mine"}`))); err != nil {
		t.Fatal(err)
	}
	list = s.wire.sent(MethodListTools)
	if tp, _ := stringMember(list[len(list)-1].meta(), "traceparent"); tp != "mine" {
		t.Errorf("WithMeta lost to RequestMeta: %s", list[len(list)-1].line)
	}
}
