package demo

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcptui/mcptui/internal/protocol"
)

// Protocol revisions the demo tells apart. go-sdk v1.8.0 negotiates these
// and 2025-06-18 (and two older ones); on stdio one process serves one of
// them: 2026-07-28 requests carry their version in _meta, legacy sessions
// agree on one in initialize.
const (
	v20260728 = protocol.Rev20260728
	v20251125 = protocol.Rev20251125
)

// codeMissingCapability is the 2026-07-28 error for "this needs a client
// capability you did not declare" (MissingRequiredClientCapability).
const codeMissingCapability = protocol.CodeMissingCapability

// codeLegacyResourceNotFound is what 2025-11-25 and earlier use for an
// unknown resource; go-sdk v1.8.0 answers -32602 (the 2026-07-28 code) on
// every version, so legacyMiddleware puts the old code back.
const codeLegacyResourceNotFound = protocol.CodeResourceNotFound

// versionOf returns the protocol revision a request is served under: the
// version in its _meta for 2026-07-28 requests, else the one initialize
// negotiated.
func (d *demo) versionOf(meta mcp.Meta) string {
	if v, ok := meta[mcp.MetaKeyProtocolVersion].(string); ok && v >= v20260728 {
		return v
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.negotiated != "" {
		return d.negotiated
	}
	return v20251125
}

func modern(version string) bool { return version >= v20260728 }

// capability names one client capability a tool needs.
type capability string

const (
	capElicitForm    capability = "elicitation.form"
	capElicitURL     capability = "elicitation.url"
	capSampling      capability = "sampling"
	capSamplingTools capability = "sampling.tools"
	capRoots         capability = "roots"
)

// has reports whether caps declares c.
func has(caps *mcp.ClientCapabilities, c capability) bool {
	if caps == nil {
		return false
	}
	switch c {
	case capElicitForm:
		// An empty elicitation object means form only.
		e := caps.Elicitation
		return e != nil && (e.Form != nil || e.URL == nil)
	case capElicitURL:
		return caps.Elicitation != nil && caps.Elicitation.URL != nil
	case capSampling:
		return caps.Sampling != nil
	case capSamplingTools:
		return caps.Sampling != nil && caps.Sampling.Tools != nil
	case capRoots:
		return caps.RootsV2 != nil
	}
	return false
}

// require checks that the client declared every capability in need. It
// returns nil when it did. Otherwise, on 2026-07-28 it returns the
// MissingRequiredClientCapability error (-32021, by hand: go-sdk has the
// code but not the check) as a Go error; on legacy sessions, where that
// error does not exist, a tool error (isError) explaining what is missing.
func require(version string, caps *mcp.ClientCapabilities, need ...capability) (*mcp.CallToolResult, error) {
	var missing []string
	required := map[string]any{}
	for _, c := range need {
		if has(caps, c) {
			continue
		}
		missing = append(missing, string(c))
		top, sub, _ := strings.Cut(string(c), ".")
		m, _ := required[top].(map[string]any)
		if m == nil {
			m = map[string]any{}
			required[top] = m
		}
		if sub != "" {
			m[sub] = map[string]any{}
		}
	}
	if len(missing) == 0 {
		return nil, nil
	}
	list := strings.Join(missing, ", ")
	if modern(version) {
		data, _ := json.Marshal(map[string]any{"requiredCapabilities": required})
		return nil, &jsonrpc.Error{
			Code:    codeMissingCapability,
			Message: "missing required client capability: " + list,
			Data:    data,
		}
	}
	return toolError("This tool needs the client capability %s, which the client did not declare in initialize.", list), nil
}

// toolError is a tool result with isError set: the tool ran and failed.
func toolError(format string, args ...any) *mcp.CallToolResult {
	return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{text(fmt.Sprintf(format, args...))}}
}

func text(s string) *mcp.TextContent { return &mcp.TextContent{Text: s} }

// traceMiddleware writes a line of stderr chatter for every request and
// cancellation the server receives, so that the stderr pane moves in step
// with the traffic.
func (d *demo) traceMiddleware(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		switch p := req.GetParams().(type) {
		case *mcp.CallToolParamsRaw:
			d.chatf("tools/call %s", p.Name)
		case *mcp.GetPromptParams:
			d.chatf("prompts/get %s", p.Name)
		case *mcp.ReadResourceParams:
			d.chatf("resources/read %s", p.URI)
		case *mcp.CancelledParams:
			d.chatf("the client cancelled request %v (%s)", p.RequestID, orDash(p.Reason))
		default:
			if !strings.HasPrefix(method, "notifications/") {
				d.chatf("%s", method)
			}
		}
		return next(ctx, method, req)
	}
}

func orDash(s string) string {
	if s == "" {
		return "no reason given"
	}
	return s
}

// legacyMiddleware patches three spots where go-sdk v1.8.0 serves legacy
// sessions differently from the 2025 specs (all by hand):
//
//   - initialize with a protocolVersion of 2026-07-28 or later: go-sdk
//     answers 2025-11-25 (right) but remembers the requested version, and
//     would then treat the session as 2026-07-28 (no server-to-client
//     requests, input_required results). The request is clamped to
//     2025-11-25 before go-sdk sees it.
//   - it records the negotiated version and the logging/setLevel level,
//     which tools report back.
//   - an unknown resource is -32002 on legacy sessions, not -32602.
//   - logging/setLevel with a level that is not one of the eight is
//     -32602 (go-sdk accepts any string), and so is a 2026-07-28 request
//     whose _meta logLevel is not one of them.
func (d *demo) legacyMiddleware(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		if p := req.GetParams(); p != nil && !reflect.ValueOf(p).IsNil() {
			if lvl, ok := p.GetMeta()[mcp.MetaKeyLogLevel]; ok && !slices.Contains(levels, mcp.LoggingLevel(fmt.Sprint(lvl))) {
				return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: fmt.Sprintf("unknown log level %v in _meta", lvl)}
			}
		}
		switch p := req.GetParams().(type) {
		case *mcp.InitializeParams:
			if p.ProtocolVersion >= v20260728 {
				p.ProtocolVersion = v20251125
			}
		case *mcp.SetLoggingLevelParams:
			if !slices.Contains(levels, p.Level) {
				return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: fmt.Sprintf("unknown log level %q", p.Level)}
			}
		}
		res, err := next(ctx, method, req)
		if p, ok := req.GetParams().(*mcp.SetLoggingLevelParams); ok && err == nil {
			d.mu.Lock()
			d.legacyLvl = p.Level
			d.mu.Unlock()
		}
		if r, ok := res.(*mcp.InitializeResult); ok && err == nil {
			d.mu.Lock()
			d.negotiated = r.ProtocolVersion
			d.mu.Unlock()
			d.chatf("initialized: protocol %s", r.ProtocolVersion)
		}
		var rpcErr *jsonrpc.Error
		if method == protocol.MethodReadResource && errors.As(err, &rpcErr) && rpcErr.Code == jsonrpc.CodeInvalidParams &&
			rpcErr.Message == "Resource not found" && !modern(d.versionOf(req.GetParams().GetMeta())) {
			e := *rpcErr
			e.Code = codeLegacyResourceNotFound
			return nil, &e
		}
		return res, err
	}
}
