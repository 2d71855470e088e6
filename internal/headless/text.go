package headless

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/mcptui/mcptui/internal/inert"
	"github.com/mcptui/mcptui/mcp"
)

// The --format text renderings. Every string from the server goes through
// inert: descriptions and content keep their newlines, everything else is
// one line.

// safeLabel escapes a label built from the command line and server names.
func safeLabel(s string) string { return inert.Fit(s, 40) }

func firstLine(s string) string {
	s, _, _ = strings.Cut(strings.TrimSpace(s), "\n")
	return s
}

func textTools(w io.Writer, raw json.RawMessage) error {
	var v struct {
		Tools []mcp.Tool `json:"tools"`
	}
	if err := json.Unmarshal(raw, &v); err != nil {
		return inert.WriteJSON(w, raw, true)
	}
	for _, t := range v.Tools {
		desc := t.Title
		if desc == "" {
			desc = firstLine(t.Description)
		}
		fmt.Fprintf(w, "%s\t%s\n", inert.Line(t.Name), inert.Line(desc))
	}
	return nil
}

func textResources(w io.Writer, raw json.RawMessage) error {
	var v struct {
		Resources []mcp.Resource `json:"resources"`
	}
	if err := json.Unmarshal(raw, &v); err != nil {
		return inert.WriteJSON(w, raw, true)
	}
	for _, r := range v.Resources {
		fmt.Fprintf(w, "%s\t%s\t%s\n", inert.Line(r.URI), inert.Line(r.Name), inert.Line(r.MIMEType))
	}
	return nil
}

func textTemplates(w io.Writer, raw json.RawMessage) error {
	var v struct {
		Templates []mcp.ResourceTemplate `json:"resourceTemplates"`
	}
	if err := json.Unmarshal(raw, &v); err != nil {
		return inert.WriteJSON(w, raw, true)
	}
	for _, r := range v.Templates {
		fmt.Fprintf(w, "%s\t%s\t%s\n", inert.Line(r.URITemplate), inert.Line(r.Name), inert.Line(r.MIMEType))
	}
	return nil
}

func textPrompts(w io.Writer, raw json.RawMessage) error {
	var v struct {
		Prompts []mcp.Prompt `json:"prompts"`
	}
	if err := json.Unmarshal(raw, &v); err != nil {
		return inert.WriteJSON(w, raw, true)
	}
	for _, p := range v.Prompts {
		var args []string
		for _, a := range p.Arguments {
			if a.Required {
				args = append(args, a.Name)
			} else {
				args = append(args, "["+a.Name+"]")
			}
		}
		desc := p.Title
		if desc == "" {
			desc = firstLine(p.Description)
		}
		fmt.Fprintf(w, "%s\t%s\t%s\n", inert.Line(p.Name), inert.Line(strings.Join(args, " ")), inert.Line(desc))
	}
	return nil
}

// textCall prints a tool's content: text as text, the rest as one-line
// summaries; structuredContent as JSON when there is no text.
func textCall(w io.Writer, raw json.RawMessage) error {
	var r mcp.CallToolResult
	if err := json.Unmarshal(raw, &r); err != nil {
		return inert.WriteJSON(w, raw, true)
	}
	if r.IsError {
		fmt.Fprintln(w, "[the tool reported an error]")
	}
	text := false
	for _, c := range r.Content {
		if c.Type == mcp.ContentText {
			text = true
		}
		writeContent(w, c)
	}
	if !text && len(r.StructuredContent) > 0 {
		return inert.WriteJSON(w, r.StructuredContent, true)
	}
	return nil
}

func writeContent(w io.Writer, c mcp.Content) {
	switch c.Type {
	case mcp.ContentText:
		fmt.Fprintln(w, inert.Text(c.Text))
	case mcp.ContentImage, mcp.ContentAudio:
		fmt.Fprintf(w, "[%s %s, %s]\n", c.Type, inert.Line(c.MIMEType), b64Size(c.Data))
	case mcp.ContentResourceLink:
		fmt.Fprintf(w, "[link %s %s]\n", inert.Line(c.URI), inert.Line(c.Name))
	case mcp.ContentResource:
		if c.Resource != nil {
			writeContents(w, *c.Resource)
		}
	default:
		fmt.Fprintf(w, "[%s content]\n", inert.Line(c.Type))
	}
}

func writeContents(w io.Writer, rc mcp.ResourceContents) {
	switch {
	case rc.Text != nil:
		fmt.Fprintln(w, inert.Text(*rc.Text))
	case rc.Blob != nil:
		fmt.Fprintf(w, "[blob %s %s, %s]\n", inert.Line(rc.URI), inert.Line(rc.MIMEType), b64Size(*rc.Blob))
	}
}

func b64Size(data string) string {
	return fmt.Sprintf("%d bytes", base64.StdEncoding.DecodedLen(len(data)))
}

func textRead(w io.Writer, raw json.RawMessage) error {
	var r mcp.ReadResourceResult
	if err := json.Unmarshal(raw, &r); err != nil {
		return inert.WriteJSON(w, raw, true)
	}
	for _, c := range r.Contents {
		writeContents(w, c)
	}
	return nil
}

func textGet(w io.Writer, raw json.RawMessage) error {
	var r mcp.GetPromptResult
	if err := json.Unmarshal(raw, &r); err != nil {
		return inert.WriteJSON(w, raw, true)
	}
	for _, m := range r.Messages {
		fmt.Fprintf(w, "%s: ", inert.Line(m.Role))
		writeContent(w, m.Content)
	}
	return nil
}

func textComplete(w io.Writer, raw json.RawMessage) error {
	var r struct {
		Completion mcp.CompleteResult `json:"completion"`
	}
	if err := json.Unmarshal(raw, &r); err != nil {
		return inert.WriteJSON(w, raw, true)
	}
	for _, v := range r.Completion.Values {
		fmt.Fprintln(w, inert.Line(v))
	}
	if r.Completion.HasMore {
		fmt.Fprintln(w, "…")
	}
	return nil
}

// toolErrorText is the first text of a tool's error result, shortened, for
// the failure message (which is JSON, escaped when written).
func toolErrorText(raw json.RawMessage) string {
	var r mcp.CallToolResult
	if err := json.Unmarshal(raw, &r); err == nil {
		for _, c := range r.Content {
			if c.Type == mcp.ContentText {
				if len(c.Text) > 200 {
					return inert.Clip(c.Text, 200) + inert.Ellipsis
				}
				return c.Text
			}
		}
	}
	return "(no text)"
}
