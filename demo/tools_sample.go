package demo

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Sampling is asked the multi round-trip way (mrtr.go): an input_required
// result on 2026-07-28, a sampling/createMessage request on legacy sessions
// (go-sdk does both). sample_with_tools may need several rounds: on
// 2026-07-28 each is another input_required result carrying the
// conversation in the signed requestState; on legacy sessions go-sdk's
// middleware does the first and the handler sends the later ones itself
// with ServerSession.CreateMessageWithTools.

// sample: one sampling request.

type sampleIn struct {
	Prompt       string `json:"prompt,omitempty" jsonschema:"what to ask the model"`
	SystemPrompt string `json:"systemPrompt,omitempty" jsonschema:"the system prompt to suggest"`
	MaxTokens    int    `json:"maxTokens,omitempty" jsonschema:"the most tokens the reply may have"`
}

func (d *demo) sampleTool() *mcp.Tool {
	return &mcp.Tool{
		Name:        "sample",
		Title:       "Sampling",
		Description: "Asks the client's model for a completion (sampling/createMessage) and reports the reply. In mcptui, you are the model.",
		Annotations: readOnly("Sampling"),
		InputSchema: schemaFor[sampleIn](func(p props) {
			p.def("prompt", "Write a haiku about terminal user interfaces.").title("prompt", "Prompt")
			p.def("systemPrompt", "You are a concise poet.").title("systemPrompt", "System prompt")
			p.def("maxTokens", 200).between("maxTokens", 1, 100000).title("maxTokens", "Max tokens")
		}),
	}
}

func (d *demo) sample(_ context.Context, req *mcp.CallToolRequest, in sampleIn) (*mcp.CallToolResult, any, error) {
	version := d.versionOf(req.Params.Meta)
	if res, err := require(version, req.ClientCapabilities(), capSampling); res != nil || err != nil {
		return res, nil, err
	}
	r, err := d.roundOf("sample", req.Params.InputResponses, req.Params.RequestState)
	if err != nil {
		return nil, nil, err
	}
	ans := r.sampleAnswer("reply")
	if ans == nil {
		return d.ask("sample", 1, nil, mcp.InputRequestMap{"reply": &mcp.CreateMessageParams{
			Messages:       []*mcp.SamplingMessage{{Role: "user", Content: text(in.Prompt)}},
			SystemPrompt:   in.SystemPrompt,
			MaxTokens:      int64(in.MaxTokens),
			Temperature:    0.7,
			IncludeContext: "none",
			ModelPreferences: &mcp.ModelPreferences{
				Hints:         []*mcp.ModelHint{{Name: "claude"}, {Name: "gpt"}},
				SpeedPriority: 0.8, IntelligencePriority: 0.4, CostPriority: 0.2,
			},
		}}), nil, nil
	}
	stop := "no stop reason"
	if ans.StopReason != "" {
		stop = fmt.Sprintf("stop reason %q", ans.StopReason)
	}
	return &mcp.CallToolResult{Content: []mcp.Content{text(fmt.Sprintf(
		"The model %q replied (%s):\n%s", ans.Model, stop, describeContent(ans.Content)))}}, nil, nil
}

// describeContent renders sampling content for the tool's answer.
func describeContent(cs []mcp.Content) string {
	var parts []string
	for _, c := range cs {
		switch c := c.(type) {
		case *mcp.TextContent:
			parts = append(parts, c.Text)
		case *mcp.ImageContent:
			parts = append(parts, fmt.Sprintf("[an image, %s, %d bytes]", c.MIMEType, len(c.Data)))
		case *mcp.AudioContent:
			parts = append(parts, fmt.Sprintf("[audio, %s, %d bytes]", c.MIMEType, len(c.Data)))
		case *mcp.ToolUseContent:
			in, _ := json.Marshal(c.Input)
			parts = append(parts, fmt.Sprintf("[a call of %s(%s), id %s]", c.Name, in, c.ID))
		default:
			b, _ := json.Marshal(c)
			parts = append(parts, string(b))
		}
	}
	return strings.Join(parts, "\n")
}

// sample_with_tools: sampling that offers the model tools, run by the
// server, until the model answers in text.

type sampleToolsIn struct {
	Prompt    string `json:"prompt,omitempty" jsonschema:"what to ask the model"`
	MaxRounds int    `json:"maxRounds,omitempty" jsonschema:"the most sampling rounds before giving up"`
}

func (d *demo) sampleWithToolsTool() *mcp.Tool {
	return &mcp.Tool{
		Name:  "sample_with_tools",
		Title: "Sampling with tools",
		Description: "Asks the client's model a question and offers it two tools (get_weather, get_time). When the model calls them the server runs them " +
			"and samples again with the results, until the model answers in text. Several rounds; needs 2025-11-25 and the sampling.tools capability.",
		Annotations: readOnly("Sampling with tools"),
		InputSchema: schemaFor[sampleToolsIn](func(p props) {
			p.def("prompt", "What is the weather in Lisbon right now, and what time is it there? Use the tools.").title("prompt", "Prompt")
			p.def("maxRounds", 4).between("maxRounds", 1, 10).title("maxRounds", "Max rounds")
		}),
	}
}

// samplingTools are the tools offered to the model.
var samplingTools = []*mcp.Tool{
	{
		Name:        "get_weather",
		Description: "Current weather in a city.",
		InputSchema: object{{"type", "object"}, {"properties", object{{"city", object{{"type", "string"}, {"description", "city name"}}}}}, {"required", []string{"city"}}},
	},
	{
		Name:        "get_time",
		Description: "Current local time in an IANA time zone.",
		InputSchema: object{{"type", "object"}, {"properties", object{{"timezone", object{{"type", "string"}, {"description", "e.g. Europe/Lisbon"}}}}}, {"required", []string{"timezone"}}},
	},
}

// samplingState is what sample_with_tools keeps between rounds.
type samplingState struct {
	Messages   []*mcp.SamplingMessageV2 `json:"messages"`
	Transcript []string                 `json:"transcript"`
}

func samplingRequest(msgs []*mcp.SamplingMessageV2) *mcp.CreateMessageWithToolsParams {
	return &mcp.CreateMessageWithToolsParams{
		Messages:     msgs,
		SystemPrompt: "You can call get_weather and get_time. Answer in one or two sentences.",
		MaxTokens:    400,
		Tools:        samplingTools,
		ToolChoice:   &mcp.ToolChoice{Mode: "auto"},
	}
}

func (d *demo) sampleWithTools(ctx context.Context, req *mcp.CallToolRequest, in sampleToolsIn) (*mcp.CallToolResult, any, error) {
	version := d.versionOf(req.Params.Meta)
	if version < v20251125 {
		return toolError("Sampling with tools arrived in protocol 2025-11-25; this session speaks %s. Try the sample tool.", version), nil, nil
	}
	if res, err := require(version, req.ClientCapabilities(), capSampling, capSamplingTools); res != nil || err != nil {
		return res, nil, err
	}
	r, err := d.roundOf("sample_with_tools", req.Params.InputResponses, req.Params.RequestState)
	if err != nil {
		return nil, nil, err
	}
	st := samplingState{Messages: []*mcp.SamplingMessageV2{{Role: "user", Content: []mcp.Content{text(in.Prompt)}}}}
	if r.Round > 0 {
		if err := json.Unmarshal(r.Data, &st); err != nil {
			return nil, nil, badState("requestState has no conversation: " + err.Error())
		}
	}
	ask := func(round int) *mcp.CallToolResult {
		return d.ask("sample_with_tools", round, st, mcp.InputRequestMap{"reply": samplingRequest(st.Messages)})
	}
	if r.Round == 0 {
		return ask(1), nil, nil
	}
	ans := r.sampleAnswer("reply")
	if ans == nil {
		return ask(r.Round), nil, nil // the answer is missing: ask again
	}
	for round := r.Round; ; round++ {
		st.Messages = append(st.Messages, &mcp.SamplingMessageV2{Role: "assistant", Content: ans.Content})
		var results []mcp.Content
		for _, c := range ans.Content {
			use, ok := c.(*mcp.ToolUseContent)
			if !ok {
				continue
			}
			out := runSamplingTool(use.Name, use.Input)
			in, _ := json.Marshal(use.Input)
			st.Transcript = append(st.Transcript, fmt.Sprintf("round %d: the model called %s(%s); the server answered %q", round, use.Name, in, out))
			results = append(results, &mcp.ToolResultContent{ToolUseID: use.ID, Content: []mcp.Content{text(out)}})
		}
		if len(results) == 0 {
			st.Transcript = append(st.Transcript, fmt.Sprintf("round %d: the model %q answered: %s", round, ans.Model, describeContent(ans.Content)))
			break
		}
		if round >= in.MaxRounds {
			st.Transcript = append(st.Transcript, fmt.Sprintf("stopped after %d rounds without a final answer", round))
			break
		}
		st.Messages = append(st.Messages, &mcp.SamplingMessageV2{Role: "user", Content: results})
		if modern(version) {
			return ask(round + 1), nil, nil
		}
		// Legacy: go-sdk's middleware only does the first round.
		ans, err = req.Session.CreateMessageWithTools(ctx, samplingRequest(st.Messages))
		if err != nil {
			return nil, nil, err
		}
	}
	return &mcp.CallToolResult{Content: []mcp.Content{text(strings.Join(st.Transcript, "\n"))}}, nil, nil
}

// runSamplingTool is the server side of the tools offered to the model.
func runSamplingTool(name string, input map[string]any) string {
	switch name {
	case "get_weather":
		city, _ := input["city"].(string)
		return fmt.Sprintf("%s: sunny, 21 °C, light wind from the north", cmp.Or(city, "somewhere"))
	case "get_time":
		tz, _ := input["timezone"].(string)
		return fmt.Sprintf("it is 14:05 in %s", cmp.Or(tz, "an unnamed time zone"))
	}
	return "unknown tool " + name
}
