package catalog

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/mcptui/mcptui/internal/backend"
	"github.com/mcptui/mcptui/internal/schemaform"
	"github.com/mcptui/mcptui/mcp"
	"github.com/mcptui/mcptui/model"
	"github.com/mcptui/mcptui/ui/kit"
)

// maxJSONText is the largest text content shown as a JSON tree (larger
// text is wrapped as text).
const maxJSONText = 8 << 20

// maxTextShown is how much of one text item is wrapped for the screen;
// saving writes all of it.
const maxTextShown = 256 << 10

// noteKind colours a note.
type noteKind int

const (
	noteInfo noteKind = iota
	noteOK
	noteWarn
	noteErr
)

// note is a line about the whole result.
type note struct {
	kind noteKind
	text string // raw: may hold server text
}

// ritem is one part of a result: a content item, a message, the
// structured content.
type ritem struct {
	kind  string
	head  string // the program's own words
	role  string
	mime  string
	name  string
	text  string
	jv    *kit.JSONView
	raw   json.RawMessage
	uri   string
	blob  string
	embed *mcp.ResourceContents
	// opens and saves say that the open key reads it (a link) or that the
	// save key is the way to see it (a blob): the header names the keys.
	opens, saves bool
	// wrapped caches the text wrapped to wrapW.
	wrapped []string
	wrapW   int
	more    bool
}

// result is something to show: a tool's result, a read, a prompt.
type result struct {
	title    string
	at       time.Time
	elapsed  time.Duration
	raw      json.RawMessage
	isError  bool
	notes    []note
	items    []*ritem
	saveBase string
	cursor   int
	offset   int
	// eraMarked says markLaterEra has looked at the parts.
	eraMarked bool
}

// laterEraParts are the result parts a later era brought, by kind.
var laterEraParts = map[string]string{
	mcp.ContentAudio:     mcp.FeatureAudioContent,
	"resource link":      mcp.FeatureResourceLink,
	"structured content": mcp.FeatureStructuredContent,
}

// markEra marks the parts a session of the server's version does not
// define — audio on 2024-11-05, resource links and structured content
// before 2025-06-18 — in their headings: shown, and said to be from a
// later era; and it explains an error that is the server's SDK refusing
// to ask a question the pre-2026 way (explainRefusal). Once per result;
// the work is one map look-up a part.
func markEra(r *result, info backend.CatalogInfo) {
	if r.eraMarked {
		return
	}
	r.eraMarked = true
	for _, it := range r.items {
		if mark := mcp.NotIn(info.Version, laterEraParts[it.kind]); mark != "" {
			it.head += " " + mark
		}
	}
	explainRefusal(r, info)
}

// refusalScanBytes bounds the text explainRefusal reads of one part.
const refusalScanBytes = 4 << 10

// explainRefusal adds a note saying why, when an error result is a
// server's SDK refusing to send its question as a request on a 2026-07-28
// session (mcp.ExplainOldStyleQuestion), and which version would work.
func explainRefusal(r *result, info backend.CatalogInfo) {
	if !r.isError || !mcp.Stateless(info.Version) {
		return
	}
	texts := make([]string, 0, len(r.notes)+len(r.items))
	for _, n := range r.notes {
		texts = append(texts, n.text)
	}
	for _, it := range r.items {
		texts = append(texts, it.text)
	}
	for _, t := range texts {
		if len(t) > refusalScanBytes {
			t = t[:refusalScanBytes]
		}
		if why := mcp.ExplainOldStyleQuestion(info.Version, info.Offered, t); why != "" {
			r.notes = append(r.notes, note{noteWarn, why})
			return
		}
	}
}

// textItem is a text, shown as a JSON tree when it is JSON.
func textItem(kind, text, mime string) *ritem {
	it := &ritem{kind: kind, text: text, mime: mime}
	t := strings.TrimSpace(text)
	if len(t) > 1 && len(t) <= maxJSONText && (t[0] == '{' || t[0] == '[') && json.Valid([]byte(t)) {
		if jv, err := kit.NewJSONView([]byte(t)); err == nil {
			it.jv, it.head = jv, fmt.Sprintf("%s · JSON · %s", kind, model.FormatSize(len(text)))
			return it
		}
	}
	it.head = fmt.Sprintf("%s · %s", kind, model.FormatSize(len(text)))
	if strings.Count(text, "\n") > 0 {
		it.head += fmt.Sprintf(" · %d lines", strings.Count(text, "\n")+1)
	}
	return it
}

// contentItem turns one content item into a result part.
func contentItem(c mcp.Content) *ritem {
	var it *ritem
	switch c.Type {
	case mcp.ContentText:
		it = textItem("text", c.Text, "")
	case mcp.ContentImage, mcp.ContentAudio:
		it = &ritem{kind: c.Type, head: kit.Media(c.Type, "", c.Data), mime: c.MIMEType, blob: c.Data}
	case mcp.ContentResourceLink:
		it = &ritem{kind: "resource link", head: "resource link", opens: true, uri: c.URI, name: c.Name, mime: c.MIMEType, text: c.Description}
		if c.Size != nil {
			it.head += " · " + model.FormatSize(int(*c.Size))
		}
	case mcp.ContentResource:
		it = resourceItem(c.Resource, "embedded resource")
	default:
		it = &ritem{kind: c.Type, head: "content of type " + c.Type}
		if jv, err := kit.NewJSONView(c.Raw); err == nil {
			it.jv = jv
		}
	}
	if c.Annotations != nil {
		var parts []string
		if len(c.Annotations.Audience) > 0 {
			parts = append(parts, "audience "+strings.Join(c.Annotations.Audience, ","))
		}
		if c.Annotations.Priority != nil {
			parts = append(parts, "priority "+kit.Number(*c.Annotations.Priority))
		}
		if len(parts) > 0 {
			it.head += " · " + strings.Join(parts, " · ")
		}
	}
	it.raw = c.Raw
	return it
}

// resourceItem shows resource contents (read, or embedded).
func resourceItem(r *mcp.ResourceContents, kind string) *ritem {
	if r == nil {
		return &ritem{kind: kind, head: kind + " without contents"}
	}
	var it *ritem
	switch {
	case r.Text != nil:
		it = textItem(kind, *r.Text, r.MIMEType)
		if r.MIMEType != "" && it.jv == nil && strings.Contains(r.MIMEType, "json") {
			if jv, err := kit.NewJSONView([]byte(*r.Text)); err == nil {
				it.jv = jv
			}
		}
	case r.Blob != nil:
		what := "blob"
		if strings.HasPrefix(r.MIMEType, "image/") {
			what = "image"
		} else if strings.HasPrefix(r.MIMEType, "audio/") {
			what = "audio"
		}
		it = &ritem{kind: kind, head: kind + " · " + kit.Media(what, "", *r.Blob), saves: true, blob: *r.Blob}
	default:
		it = &ritem{kind: kind, head: kind + " with neither text nor blob"}
	}
	it.uri, it.mime, it.embed, it.raw = r.URI, r.MIMEType, r, r.Raw
	return it
}

// toolResult takes a tools/call result apart, and checks its structured
// content against the tool's outputSchema.
func toolResult(t *mcp.Tool, raw json.RawMessage, at time.Time) *result {
	res := &result{title: "tools/call " + t.Name, at: at, raw: raw, saveBase: "result-" + t.Name}
	var r mcp.CallToolResult
	if err := json.Unmarshal(raw, &r); err != nil {
		res.notes = append(res.notes, note{noteErr, "the result is not a CallToolResult: " + err.Error()})
		if jv, err := kit.NewJSONView(raw); err == nil {
			res.items = append(res.items, &ritem{kind: "result", head: "the raw result", jv: jv, raw: raw})
		}
		return res
	}
	res.isError = r.IsError
	if r.IsError {
		res.notes = append(res.notes, note{noteErr, "the tool reported an error (isError: true)"})
	}
	for _, c := range r.Content {
		res.items = append(res.items, contentItem(c))
	}
	if len(r.Content) == 0 {
		res.notes = append(res.notes, note{noteInfo, "no content"})
	}
	if len(r.StructuredContent) > 0 {
		it := &ritem{kind: "structured content", head: "structured content · " + model.FormatSize(len(r.StructuredContent)), raw: r.StructuredContent}
		if jv, err := kit.NewJSONView(r.StructuredContent); err == nil {
			it.jv = jv
		}
		res.items = append(res.items, it)
	}
	res.notes = append(res.notes, checkOutput(t, r)...)
	return res
}

// checkOutput lists how structuredContent fails the tool's outputSchema.
func checkOutput(t *mcp.Tool, r mcp.CallToolResult) []note {
	if len(t.OutputSchema) == 0 {
		return nil
	}
	if len(r.StructuredContent) == 0 {
		if r.IsError {
			return nil
		}
		return []note{{noteWarn, "the tool declares an outputSchema but sent no structuredContent"}}
	}
	f, err := schemaform.Compile(t.OutputSchema)
	if err != nil || f.ValidatorErr != nil {
		why := err
		if why == nil {
			why = f.ValidatorErr
		}
		return []note{{noteWarn, "the outputSchema cannot be checked: " + why.Error()}}
	}
	errs := f.Validate(r.StructuredContent)
	if len(errs) == 0 {
		return []note{{noteOK, "structuredContent matches the outputSchema"}}
	}
	out := []note{{noteErr, fmt.Sprintf("structuredContent violates the outputSchema (%d):", len(errs))}}
	for _, e := range errs {
		path := e.Path
		if path == "" {
			path = "(the whole value)"
		}
		out = append(out, note{noteErr, "  " + path + ": " + e.Message})
	}
	return out
}

// readResult shows resources/read's contents.
func readResult(uri string, r *mcp.ReadResourceResult, at time.Time) *result {
	res := &result{title: "resources/read " + uri, at: at, raw: r.Raw, saveBase: "resource"}
	for i := range r.Contents {
		res.items = append(res.items, resourceItem(&r.Contents[i], "contents"))
	}
	if len(r.Contents) == 0 {
		res.notes = append(res.notes, note{noteInfo, "no contents"})
	}
	return res
}

// promptResult shows prompts/get's messages by role.
func promptResult(name string, r *mcp.GetPromptResult, at time.Time) *result {
	res := &result{title: "prompts/get " + name, at: at, raw: r.Raw, saveBase: "prompt-" + name}
	if r.Description != "" {
		res.notes = append(res.notes, note{noteInfo, r.Description})
	}
	for _, msg := range r.Messages {
		it := contentItem(msg.Content)
		it.role = msg.Role
		res.items = append(res.items, it)
	}
	return res
}

// embeddedResult opens an embedded resource on its own.
func embeddedResult(it *ritem, at time.Time) *result {
	res := &result{title: "embedded resource " + it.uri, at: at, raw: it.raw, saveBase: "resource"}
	res.items = append(res.items, resourceItem(it.embed, "contents"))
	return res
}

// clone is a copy the model can change (cursor, folding, wrapping) without
// touching the one a message carried.
func (r *result) clone() *result {
	c := *r
	c.items = make([]*ritem, len(r.items))
	for i, it := range r.items {
		ci := *it
		if it.jv != nil {
			ci.jv = it.jv.Clone()
		}
		ci.wrapped, ci.wrapW = nil, 0
		c.items[i] = &ci
	}
	c.notes = append([]note(nil), r.notes...)
	return &c
}
