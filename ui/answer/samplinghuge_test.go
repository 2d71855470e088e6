package answer

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/mcptui/mcptui/model"
)

// hugeSampling is a sampling request of n messages, each a list of
// blocks, offering tools tools.
func hugeSampling(n, tools int) *model.Question {
	var b bytes.Buffer
	b.WriteString(`{"maxTokens":100,"messages":[`)
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		role := "user"
		if i%2 == 1 {
			role = "assistant"
		}
		fmt.Fprintf(&b, `{"role":%q,"content":[{"type":"text","text":"message %d says hello"}]}`, role, i)
	}
	b.WriteString(`],"tools":[`)
	for i := range tools {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"name":"tool%d","description":"does %d","inputSchema":{"type":"object"}}`, i, i)
	}
	b.WriteString(`]}`)
	return question(model.AskSampling, "sampling/createMessage", b.Bytes())
}

// TestSamplingOpensHugeRequestsWindowed: a request of 100k messages opens
// by drawing only what the window shows (it drew every message, 13 to
// 22 s, before the first frame); paging draws as far as it reaches, not
// the rest. A request offering 100k tools names the first ones.
func TestSamplingOpensHugeRequestsWindowed(t *testing.T) {
	const n = 100_000
	e := New(hugeSampling(n, 3), options(nil))
	s := e.(*Sampling)
	const w, h = 100, 40
	view := strings.Join(e.View(w, h), "\n")
	if !strings.Contains(view, "message 0 says hello") {
		t.Fatalf("the request is not shown:\n%s", view)
	}
	if s.conv.drawn > h {
		t.Fatalf("opening drew %d of %d parts for a %d-row screen", s.conv.drawn, s.req.units(), h)
	}
	feed(e, keys("shift+tab")...) // the conversation region
	for range 5 {
		feed(e, keys("pgdown")...)
		e.View(w, h)
	}
	if s.scroll != 50 || s.conv.drawn > 4+50+h {
		t.Fatalf("5 pages down (scrolled %d rows) drew %d parts", s.scroll, s.conv.drawn)
	}
	if view := strings.Join(e.View(w, h), "\n"); strings.Contains(view, "message 0 says") || !strings.Contains(view, "says hello") {
		t.Fatalf("paged down, the screen is:\n%s", view)
	}

	e = New(hugeSampling(3, n), options(nil))
	s = e.(*Sampling)
	if details := s.req.details(); !strings.Contains(fmt.Sprint(details), fmt.Sprintf("and %d more", n-30)) {
		t.Errorf("the tools line of 100k tools: %v", details)
	}
	e.View(w, h)
	if s.conv.drawn > h {
		t.Fatalf("opening a request of %d tools drew %d parts", n, s.conv.drawn)
	}
}
