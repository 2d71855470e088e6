package catalog

import (
	"bytes"
	"encoding/json"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/mcptui/mcptui/internal/jsonscan"
	"github.com/mcptui/mcptui/mcp"
	"github.com/mcptui/mcptui/ui/kit"
)

// Outcome is a finished request as its host knows it (the response line
// from the history), to be shown as a result page.
type Outcome struct {
	// Method and Target are the request's method and the tool or prompt
	// name or the resource uri it named.
	Method, Target string
	// Line is the response line (its result is shown); Err the error's
	// words when the request failed (Line is then nil).
	Line json.RawMessage
	Err  string
	At   time.Time
}

// outcomeMsg carries a result built off the update loop; a tools/call's
// tool and raw result too, to be measured against the chosen hosts' caps.
type outcomeMsg struct {
	res  *result
	tool *mcp.Tool
	raw  json.RawMessage
}

// ShowOutcome shows a finished request's outcome as a result page, the
// way the catalog shows its own calls' results: content items, the JSON
// tree, structured content checked against the tool's outputSchema, or
// the error. The result is taken apart in the returned Cmd.
func (m *Model) ShowOutcome(o Outcome) tea.Cmd {
	var tool *mcp.Tool
	if o.Method == mcp.MethodCallTool {
		for _, it := range m.lists[Tools].items {
			if it.tool != nil && it.tool.Name == o.Target {
				t := *it.tool
				tool = &t
			}
		}
		if tool == nil {
			tool = &mcp.Tool{Name: o.Target}
		}
	}
	return func() tea.Msg {
		msg := outcomeMsg{res: outcomeResult(o, tool), tool: tool}
		var line struct {
			Result json.RawMessage `json:"result"`
		}
		if tool != nil && o.Err == "" && json.Unmarshal(o.Line, &line) == nil {
			msg.raw = line.Result
		}
		return msg
	}
}

// outcomeResult takes an outcome apart into a result page.
func outcomeResult(o Outcome, tool *mcp.Tool) *result {
	title := o.Method
	if o.Target != "" {
		title += " " + o.Target
	}
	var line struct {
		Result json.RawMessage `json:"result"`
	}
	// json.Unmarshal(o.Line, &line) in one pass that checks the line and
	// one that finds its result, then a copy of it (the page keeps it):
	// Unmarshal would check, scan and copy a 15 MiB result.
	if o.Err == "" && (!jsonscan.Valid(o.Line) || jsonscan.UnmarshalFields(o.Line, jsonscan.Field{Name: "result", Dst: &line.Result}) != nil) {
		o.Err = "the response line does not parse"
	}
	line.Result = bytes.Clone(line.Result)
	if o.Err != "" || line.Result == nil {
		res := &result{title: title, at: o.At, isError: true, saveBase: "error"}
		why := o.Err
		if why == "" {
			why = "no result is kept for this request"
		}
		res.notes = append(res.notes, note{noteErr, why})
		return res
	}
	raw := line.Result
	switch o.Method {
	case mcp.MethodCallTool:
		return toolResult(tool, raw, o.At)
	case mcp.MethodReadResource:
		var r mcp.ReadResourceResult
		if json.Unmarshal(raw, &r) == nil {
			r.Raw = raw
			return readResult(o.Target, &r, o.At)
		}
	case mcp.MethodGetPrompt:
		var r mcp.GetPromptResult
		if json.Unmarshal(raw, &r) == nil {
			r.Raw = raw
			return promptResult(o.Target, &r, o.At)
		}
	}
	res := &result{title: title, at: o.At, raw: raw, saveBase: "result"}
	if jv, err := kit.NewJSONView(raw); err == nil {
		res.items = append(res.items, &ritem{kind: "result", head: "result", jv: jv, raw: raw})
	} else {
		res.notes = append(res.notes, note{noteErr, "the result does not parse: " + err.Error()})
	}
	return res
}
