package answer

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/mcptui/mcptui/internal/inert"
	"github.com/mcptui/mcptui/themes"
	"github.com/mcptui/mcptui/ui/kit"
)

// samplingRequest is sampling/createMessage's params, as far as a person
// answering needs them.
type samplingRequest struct {
	Messages []struct {
		Role    string          `json:"role"`
		Content json.RawMessage `json:"content"`
	} `json:"messages"`
	SystemPrompt     string `json:"systemPrompt"`
	ModelPreferences *struct {
		Hints []struct {
			Name string `json:"name"`
		} `json:"hints"`
		CostPriority         *float64 `json:"costPriority"`
		SpeedPriority        *float64 `json:"speedPriority"`
		IntelligencePriority *float64 `json:"intelligencePriority"`
	} `json:"modelPreferences"`
	MaxTokens      *int64          `json:"maxTokens"`
	Temperature    *float64        `json:"temperature"`
	StopSequences  []string        `json:"stopSequences"`
	IncludeContext string          `json:"includeContext"`
	Metadata       json.RawMessage `json:"metadata"`
	Tools          []samplingTool  `json:"tools"`
	ToolChoice     *struct {
		Mode string `json:"mode"`
	} `json:"toolChoice"`
}

// samplingTool is a tool the server offers the model.
type samplingTool struct {
	Name        string          `json:"name"`
	Title       string          `json:"title"`
	Description string          `json:"description"`
	InputSchema json.RawMessage `json:"inputSchema"`
}

// block is one content block of a message.
type block struct {
	Type              string          `json:"type"`
	Text              string          `json:"text"`
	Data              string          `json:"data"`
	MIMEType          string          `json:"mimeType"`
	ID                string          `json:"id"`
	Name              string          `json:"name"`
	Input             json.RawMessage `json:"input"`
	ToolUseID         string          `json:"toolUseId"`
	Content           json.RawMessage `json:"content"`
	StructuredContent json.RawMessage `json:"structuredContent"`
	IsError           bool            `json:"isError"`
}

// blocks reads a content field: one block or a list.
func blocks(raw json.RawMessage) []block {
	raw = json.RawMessage(strings.TrimSpace(string(raw)))
	if len(raw) == 0 {
		return nil
	}
	if raw[0] == '[' {
		var list []block
		_ = json.Unmarshal(raw, &list)
		return list
	}
	var b block
	_ = json.Unmarshal(raw, &b)
	return []block{b}
}

// details are the request's settings, as label/value pairs (raw server
// text in the values).
func (r *samplingRequest) details() [][2]string {
	var out [][2]string
	add := func(k, v string) {
		if v != "" {
			out = append(out, [2]string{k, v})
		}
	}
	add("system", r.SystemPrompt)
	if r.MaxTokens != nil {
		add("maxTokens", fmt.Sprint(*r.MaxTokens))
	}
	if r.Temperature != nil {
		add("temperature", fmt.Sprint(*r.Temperature))
	}
	if len(r.StopSequences) > 0 {
		q := make([]string, len(r.StopSequences))
		for i, s := range r.StopSequences {
			q[i] = fmt.Sprintf("%q", s)
		}
		add("stop at", strings.Join(q, ", "))
	}
	if p := r.ModelPreferences; p != nil {
		var parts []string
		var hints []string
		for _, h := range p.Hints {
			hints = append(hints, h.Name)
		}
		if len(hints) > 0 {
			parts = append(parts, "hints "+strings.Join(hints, ", "))
		}
		for _, pr := range []struct {
			name string
			v    *float64
		}{{"cost", p.CostPriority}, {"speed", p.SpeedPriority}, {"intelligence", p.IntelligencePriority}} {
			if pr.v != nil {
				parts = append(parts, pr.name+" "+kit.Number(*pr.v))
			}
		}
		add("model", strings.Join(parts, "; "))
	}
	add("context", r.IncludeContext)
	if len(r.Metadata) > 0 && string(r.Metadata) != "null" {
		add("metadata", string(r.Metadata))
	}
	if len(r.Tools) > 0 {
		// The names of the first tools: the line shows no more, and a
		// request may offer thousands.
		names := make([]string, 0, min(len(r.Tools), 30))
		for _, t := range r.Tools[:min(len(r.Tools), 30)] {
			names = append(names, t.Name)
		}
		if len(r.Tools) > len(names) {
			names = append(names, fmt.Sprintf("and %d more", len(r.Tools)-len(names)))
		}
		choice := ""
		if r.ToolChoice != nil && r.ToolChoice.Mode != "" {
			choice = " (tool choice: " + r.ToolChoice.Mode + ")"
		}
		add("tools", strings.Join(names, ", ")+choice)
	}
	return out
}

// maxBlocksDrawn bounds the content blocks drawn of one message (or one
// tool result): the rest are counted.
const maxBlocksDrawn = 100

// units is how many parts the transcript is drawn in: the settings, each
// tool offered, each message.
func (r *samplingRequest) units() int { return 1 + len(r.Tools) + len(r.Messages) }

// unit draws part i of the transcript (see units): the settings, a tool
// with its description, or a message by role. Drawing part by part lets
// the editor draw only what its window reaches: a request of 100k
// messages opens as fast as one of ten.
func (r *samplingRequest) unit(st *themes.Styles, w, i int) []string {
	var out []string
	labelW := 13
	switch {
	case i == 0:
		for _, kv := range r.details() {
			lines, _ := kit.Wrap(kv[1], max(w-labelW-1, 1), 4)
			for i, l := range lines {
				label := " " + kv[0]
				if i > 0 {
					label = ""
				}
				out = append(out, kit.Row(st, w, false, kit.Own(label, labelW, st.Muted), kit.Seg{S: l, St: st.Text}))
			}
		}
	case i <= len(r.Tools):
		t := r.Tools[i-1]
		out = append(out, kit.Row(st, w, false, kit.Own("   tool ", labelW, st.Muted), kit.SrvFree(t.Name, w/3, st.Accent),
			kit.Txt("  ", st.Text), kit.SrvFree(t.Description, max(w-labelW-w/3-2, 1), st.Muted)))
	default:
		m := r.Messages[i-1-len(r.Tools)]
		role := inert.Fit(m.Role, 20)
		rst := st.In
		if m.Role == "assistant" {
			rst = st.Out
		}
		out = append(out, kit.Row(st, w, false, kit.Txt(" ── ", st.Subtle), kit.Txt(role, rst.Bold(true)),
			kit.Txt(" "+strings.Repeat("─", max(w-6-inert.Cells(role), 0)), st.Subtle)))
		out = append(out, renderBlocks(st, blocks(m.Content), w)...)
	}
	return out
}

// lazyTranscript is the transcript drawn as far as a window has reached.
type lazyTranscript struct {
	w     int
	rows  []string
	drawn int // units drawn
}

// window returns the transcript's rows [from, from+n) (fewer at its end),
// drawing the units that reach them, and the first row a window of n rows
// may start at, as far as is known: once every unit is drawn, the last
// window's; before, one past what is drawn.
func (t *lazyTranscript) window(r *samplingRequest, st *themes.Styles, w, from, n int) (rows []string, maxFrom int) {
	if t.w != w {
		*t = lazyTranscript{w: w}
	}
	for len(t.rows) < from+n+1 && t.drawn < r.units() {
		t.rows = append(t.rows, r.unit(st, w, t.drawn)...)
		t.drawn++
	}
	maxFrom = max(len(t.rows)-n, 0)
	from = max(min(from, maxFrom), 0)
	return t.rows[from:min(from+n, len(t.rows))], maxFrom
}

// renderBlocks draws content blocks, at most maxBlocksDrawn of them.
func renderBlocks(st *themes.Styles, bs []block, w int) []string {
	var out []string
	for i, b := range bs {
		if i == maxBlocksDrawn {
			out = append(out, kit.Row(st, w, false, kit.Txt(fmt.Sprintf("   … %d more content blocks (in the question's raw params)", len(bs)-i), st.Muted)))
			break
		}
		out = append(out, renderBlock(st, b, w)...)
	}
	return out
}

// renderBlock draws one content block, indented.
func renderBlock(st *themes.Styles, b block, w int) []string {
	indent := kit.Txt("   ", st.Text)
	row := func(segs ...kit.Seg) string { return kit.Row(st, w, false, append([]kit.Seg{indent}, segs...)...) }
	switch b.Type {
	case "text":
		lines, more := kit.Wrap(b.Text, max(w-4, 1), 200)
		var out []string
		for _, l := range lines {
			out = append(out, row(kit.Seg{S: l, St: st.Text}))
		}
		if more {
			out = append(out, row(kit.Txt("… (more in the question's raw params)", st.Muted)))
		}
		return out
	case "image", "audio":
		return []string{row(kit.Txt("["+kit.Media(b.Type, "", b.Data)+"] ", st.Info), kit.SrvFree(b.MIMEType, w/3, st.Muted))}
	case "tool_use":
		return []string{row(kit.Txt("[tool use ", st.Info), kit.SrvFree(b.Name, w/4, st.Accent), kit.Txt(" #", st.Muted),
			kit.SrvFree(b.ID, 16, st.Muted), kit.Txt("] ", st.Info), kit.SrvFree(string(b.Input), max(w-w/4-30, 1), st.JSONString))}
	case "tool_result":
		head := "[tool result for #"
		hst := st.Info
		if b.IsError {
			head, hst = "[tool error for #", st.Error
		}
		out := []string{row(kit.Txt(head, hst), kit.SrvFree(b.ToolUseID, 16, st.Muted), kit.Txt("]", hst))}
		for _, l := range renderBlocks(st, blocks(b.Content), max(w-3, 1)) {
			out = append(out, kit.Row(st, w, false, indent, kit.Seg{S: l, St: st.Text}))
		}
		if len(b.StructuredContent) > 0 {
			out = append(out, row(kit.Txt("structured ", st.Muted), kit.SrvFree(string(b.StructuredContent), w-16, st.JSONString)))
		}
		return out
	}
	return []string{row(kit.Txt("["+inert.Fit(b.Type, 20)+" content]", st.Muted))}
}
