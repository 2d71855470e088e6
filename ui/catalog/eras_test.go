package catalog

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"

	"github.com/mcptui/mcptui/mcp"
	"github.com/mcptui/mcptui/ui/kit/screentest"
)

// On a 2024-11-05 session, what later eras brought — tool annotations,
// titles, output schemas, audio, resource links, structured content, a
// progress message — is shown and marked as not in that version; on
// 2025-06-18 nothing is marked.
func TestLaterEraFieldsAreMarked(t *testing.T) {
	for _, tc := range []struct {
		version string
		want    []string
	}{
		{mcp.Version20241105, []string{"not in 2024-11-05: tool annotations, title, outputSchema"}},
		{mcp.Version20250326, []string{"not in 2025-03-26: title, outputSchema"}},
		{mcp.Version20250618, nil},
	} {
		t.Run(tc.version, func(t *testing.T) {
			f := newFake("everything")
			f.version = tc.version
			f.results["get-structured-content"] = `{"content":[` +
				`{"type":"audio","data":"AAAA","mimeType":"audio/wav"},` +
				`{"type":"resource_link","uri":"demo://x","name":"x"}],` +
				`"structuredContent":{"temperature":22}}`
			m := newTest(t, f, nil)
			selectTool(m, "get-structured-content")
			details := screen(m)
			for _, w := range tc.want {
				if !strings.Contains(details, w) {
					t.Errorf("the details lack %q:\n%s", w, details)
				}
			}
			if tc.want == nil && strings.Contains(details, "not in ") {
				t.Errorf("a mark on %s:\n%s", tc.version, details)
			}
			if !strings.Contains(details, "read-only") && !strings.Contains(details, "writes") {
				t.Errorf("the annotations are hidden:\n%s", details)
			}
			// The result's parts.
			res := toolResult(&f.tools[0], []byte(f.results["get-structured-content"]), t0)
			m.push(res)
			var heads []string
			for _, it := range res.items {
				heads = append(heads, it.head)
			}
			all := strings.Join(heads, "\n")
			n := strings.Count(all, "(not in "+tc.version+")")
			wantN := map[string]int{mcp.Version20241105: 3, mcp.Version20250326: 2, mcp.Version20250618: 0}[tc.version]
			if n != wantN || len(res.items) != 3 {
				t.Errorf("%d of the parts marked, want %d:\n%s", n, wantN, all)
			}
			m.push(res) // shown again: marked once
			if strings.Count(strings.Join(func() []string {
				var h []string
				for _, it := range res.items {
					h = append(h, it.head)
				}
				return h
			}(), "\n"), "(not in ") != n {
				t.Errorf("marked twice")
			}
		})
	}
}

// A progress message on 2024-11-05 is shown with its mark.
func TestProgressMessageMarkedOn20241105(t *testing.T) {
	f := newFake("everything")
	f.version = mcp.Version20241105
	f.block = make(chan struct{})
	m := newTest(t, f, nil)
	selectTool(m, "trigger-long-running-operation")
	press(m, "enter")
	cmd := m.Update(screentest.Key("ctrl+s"))
	m.Update(runMsg{id: m.run.id, progress: &progressValue})
	mustContain(t, m, "step 2 of 5 (not in 2024-11-05)")
	close(f.block)
	for _, msg := range cmds().Drain(cmd) {
		m.Update(msg)
	}
}

// Audio in a prompt's messages on 2024-11-05 is shown and marked.
func TestPromptAudioMarkedOn20241105(t *testing.T) {
	for _, tc := range []struct {
		version string
		marks   int
	}{{mcp.Version20241105, 1}, {mcp.Version20250326, 0}} {
		f := newFake("everything")
		f.version = tc.version
		m := newTest(t, f, nil)
		var r mcp.GetPromptResult
		raw := `{"messages":[{"role":"user","content":{"type":"audio","data":"AAAA","mimeType":"audio/wav"}},` +
			`{"role":"assistant","content":{"type":"text","text":"heard"}}]}`
		if err := json.Unmarshal([]byte(raw), &r); err != nil {
			t.Fatal(err)
		}
		res := promptResult("listen", &r, t0)
		m.push(res)
		if n := strings.Count(res.items[0].head+res.items[1].head, "(not in "); n != tc.marks || len(res.items) != 2 {
			t.Errorf("%s: %d marks on %q, %q; want %d", tc.version, n, res.items[0].head, res.items[1].head, tc.marks)
		}
	}
}

// A server's SDK refusing, on 2026-07-28, to send a sampling question as a
// request is explained on the result with the version that works; the same
// words on 2025-11-25, or on a result that is no error, are not.
func TestOldStyleQuestionExplainedOnResult(t *testing.T) {
	refusal := `"sampling/createMessage" cannot be sent while serving a request on protocol version 2026-07-28: ` +
		`return an InputRequests map instead (multi round-trip requests, SEP-2322)`
	raw, _ := json.Marshal(map[string]any{"isError": true, "content": []any{map[string]any{"type": "text", "text": refusal}}})
	for _, tc := range []struct {
		version string
		raw     []byte
		want    bool
	}{
		{mcp.Version20260728, raw, true},
		{mcp.Version20251125, raw, false},
		{mcp.Version20260728, []byte(`{"content":[{"type":"text","text":` + strconv.Quote(refusal) + `}]}`), false},
	} {
		f := newFake("everything")
		f.version = tc.version
		m := newTest(t, f, nil)
		res := toolResult(&f.tools[0], tc.raw, t0)
		m.push(res)
		got := false
		for _, n := range res.notes {
			got = got || (n.kind == noteWarn && strings.Contains(n.text, "Reconnect at 2025-11-25"))
		}
		if got != tc.want {
			t.Errorf("%s: explained %v, want %v: %+v", tc.version, got, tc.want, res.notes)
		}
	}
}
