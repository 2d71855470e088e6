package model

import (
	"encoding/json"
	"slices"
	"strings"
)

// summarizeQuestion extracts what a person needs to answer.
func summarizeQuestion(k QuestionKind, params []byte, roots []Root) Summary {
	var s Summary
	switch k {
	case AskSampling:
		v, _ := members(params, "messages", "systemPrompt", "maxTokens", "modelPreferences", "tools", "toolChoice")
		var tools []json.RawMessage
		_ = json.Unmarshal(v[4], &tools)
		for _, t := range tools {
			if n, ok := str(member(t, "name")); ok {
				s.Tools = append(s.Tools, n)
			}
		}
		if mode, ok := str(member(v[5], "mode")); ok {
			s.ToolChoice = mode
		}
		s.SystemPrompt, _ = str(v[1])
		if f, ok := num(v[2]); ok {
			s.MaxTokens = int(f)
		}
		s.ModelPrefs = modelPrefs(v[3])
		var msgs []json.RawMessage
		_ = json.Unmarshal(v[0], &msgs)
		s.Messages = len(msgs)
		for i := len(msgs) - 1; i >= 0; i-- {
			mv, _ := members(msgs[i], "role", "content")
			if role, _ := str(mv[0]); role == "user" {
				s.LastUser = contentText(mv[1])
				break
			}
		}
	case AskElicitForm, AskElicitURL:
		v, _ := members(params, "message", "url", "requestedSchema")
		s.Message, _ = str(v[0])
		s.URL, _ = str(v[1])
		s.Fields = schemaFields(v[2])
	case AskRoots:
		s.Roots = roots
	}
	return s
}

// contentText is the text of a sampling content block (or the texts of a
// list of blocks), or its type in brackets for non-text content.
func contentText(raw []byte) string {
	if kind(raw) == '[' {
		var blocks []json.RawMessage
		_ = json.Unmarshal(raw, &blocks)
		parts := make([]string, 0, len(blocks))
		for _, b := range blocks {
			parts = append(parts, contentText(b))
		}
		return strings.Join(parts, " ")
	}
	v, _ := members(raw, "type", "text", "name", "input", "content")
	if t, ok := str(v[1]); ok {
		return t
	}
	typ, _ := str(v[0])
	switch typ {
	case "tool_use":
		name, _ := str(v[2])
		return "[tool_use " + name + " " + clipRaw(v[3]) + "]"
	case "tool_result":
		return "[tool_result: " + contentText(v[4]) + "]"
	}
	return "[" + typ + "]"
}

// modelPrefs is "hints a, b; cost 0.3 speed 0.8 intelligence 0.5".
func modelPrefs(raw []byte) string {
	v, _ := members(raw, "hints", "costPriority", "speedPriority", "intelligencePriority")
	var parts []string
	var hints []json.RawMessage
	_ = json.Unmarshal(v[0], &hints)
	var names []string
	for _, h := range hints {
		if n, ok := str(member(h, "name")); ok {
			names = append(names, n)
		}
	}
	if len(names) > 0 {
		parts = append(parts, "hints "+strings.Join(names, ", "))
	}
	for i, label := range []string{"cost", "speed", "intelligence"} {
		if v[i+1] != nil {
			parts = append(parts, label+" "+string(v[i+1]))
		}
	}
	return strings.Join(parts, "; ")
}

// schemaFields lists the properties of a flat elicitation schema in the
// order the server wrote them.
func schemaFields(schema []byte) []Field {
	v, _ := members(schema, "properties", "required")
	var required []string
	_ = json.Unmarshal(v[1], &required)
	var fields []Field
	eachMember(v[0], func(name string, p []byte) {
		pv, _ := members(p, "type", "title", "description", "enum", "default")
		f := Field{Name: name, Required: slices.Contains(required, name), Default: clone(pv[4])}
		f.Type, _ = str(pv[0])
		f.Title, _ = str(pv[1])
		f.Description, _ = str(pv[2])
		_ = json.Unmarshal(pv[3], &f.Enum)
		fields = append(fields, f)
	})
	return fields
}
