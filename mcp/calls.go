package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"

	"github.com/mcptui/mcptui/internal/protocol"
)

// DecodeError is returned (wrapped) when a result is not what its method
// promises; Raw is the result, so nothing is lost.
type DecodeError struct {
	Method string
	Raw    json.RawMessage
	Err    error
}

// Error describes the failure.
func (e *DecodeError) Error() string {
	return fmt.Sprintf("decoding the %s result: %v", e.Method, e.Err)
}

// Unwrap returns the decoding error.
func (e *DecodeError) Unwrap() error { return e.Err }

// List is what a list helper returns: every item of every page, and each
// page's raw result (ttlMs, cacheScope, _meta and anything else a page
// carried are there).
type List[T any] struct {
	Items []T
	Pages []json.RawMessage
	// Rejected are items left out of Items because the client must not
	// offer them (on 2026-07-28 over HTTP, a tool whose x-mcp-header
	// annotations break the spec's constraints), each with the reason.
	Rejected []Rejection
}

// Rejection is an item a list left out, and why.
type Rejection struct {
	Name   string
	Reason string
}

// ListTools lists the server's tools, following nextCursor.
func (c *Client) ListTools(ctx context.Context, opts ...RequestOption) (List[Tool], error) {
	l, err := listAll[Tool](ctx, c, MethodListTools, "tools", opts)
	if err == nil {
		c.rejectInvalidTools(&l)
	}
	return l, err
}

// ListResources lists the server's resources, following nextCursor.
func (c *Client) ListResources(ctx context.Context, opts ...RequestOption) (List[Resource], error) {
	return listAll[Resource](ctx, c, MethodListResources, "resources", opts)
}

// ListResourceTemplates lists the server's resource templates, following
// nextCursor.
func (c *Client) ListResourceTemplates(ctx context.Context, opts ...RequestOption) (List[ResourceTemplate], error) {
	return listAll[ResourceTemplate](ctx, c, MethodListResourceTemplates, "resourceTemplates", opts)
}

// ListPrompts lists the server's prompts, following nextCursor.
func (c *Client) ListPrompts(ctx context.Context, opts ...RequestOption) (List[Prompt], error) {
	return listAll[Prompt](ctx, c, MethodListPrompts, "prompts", opts)
}

// requireCapability returns a *NotDeclaredError when the server's declared
// capabilities are known (initialize, or server/discover) and lack the one
// method needs: every typed request (lists, tools/call, resources/read,
// resources/subscribe, prompts/get, completion/complete, logging/setLevel)
// goes through it, so nothing undeclared is sent. completion/complete is checked from 2025-03-26, which
// introduced the completions capability (2024-11-05 had the request and no
// capability for it).
func (c *Client) requireCapability(method string) error {
	sess := c.Session()
	if sess.InitializeResult == nil && sess.DiscoverResult == nil {
		return nil // a pinned 2026-07-28 session that has not discovered
	}
	need, ok := Declares(sess.Capabilities, sess.Version, method)
	if ok {
		return nil
	}
	return &NotDeclaredError{Method: method, Capability: need}
}

// listAll requests page after page. A cursor the server already sent, or
// more than MaxPages pages, is -32000.
func listAll[T any](ctx context.Context, c *Client, method, field string, opts []RequestOption) (List[T], error) {
	var out List[T]
	if err := c.requireCapability(method); err != nil {
		return out, wrap(method, err)
	}
	var seen []string
	cursor := ""
	for page := 1; ; page++ {
		if page > c.opts.MaxPages {
			return out, wrap(method, newError(CodeConnection,
				fmt.Sprintf("The server sent more than %d pages", c.opts.MaxPages),
				map[string]int{"maxPages": c.opts.MaxPages}))
		}
		params := json.RawMessage(`{}`)
		if page > 1 {
			params = object{}.set("cursor", quote(cursor)).encode()
		}
		res, err := c.request(ctx, method, params, c.requestOptions(opts))
		if err != nil {
			return out, wrap(method, err)
		}
		var p struct {
			Items      []T     `json:"-"`
			NextCursor *string `json:"nextCursor"`
		}
		obj, err := parseObject(res)
		if err == nil && !isObject(res) {
			err = fmt.Errorf("the result is a JSON %s", jsonKind(res))
		}
		if err == nil {
			err = unmarshal(res, &p)
		}
		if err == nil && obj.get(field) != nil {
			err = unmarshal(obj.get(field), &p.Items)
		}
		if err != nil {
			return out, wrap(method, &DecodeError{Method: method, Raw: res, Err: err})
		}
		out.Items = append(out.Items, p.Items...)
		out.Pages = append(out.Pages, res)
		if p.NextCursor == nil {
			return out, nil
		}
		cursor = *p.NextCursor
		if slices.Contains(seen, cursor) {
			return out, wrap(method, newError(CodeConnection, "The server repeated a pagination cursor",
				map[string]string{"cursor": cursor}))
		}
		seen = append(seen, cursor)
	}
}

// decodeResult decodes a result into v and sets its Raw.
func decodeResult[T any](method string, res json.RawMessage, v *T, raw *json.RawMessage) error {
	if !isObject(res) {
		return wrap(method, &DecodeError{Method: method, Raw: res, Err: fmt.Errorf("the result is a JSON %s", jsonKind(res))})
	}
	if err := unmarshal(res, v); err != nil {
		return wrap(method, &DecodeError{Method: method, Raw: res, Err: err})
	}
	*raw = res
	return nil
}

// CallTool calls a tool (arguments nil is sent as {}). arguments is nil, a json.RawMessage object or a
// value that marshals to an object. A result with isError true is returned
// as a result (the tool failed), not as an error.
func (c *Client) CallTool(ctx context.Context, name string, arguments any, opts ...RequestOption) (*CallToolResult, error) {
	// arguments is always sent, {} when there are none: SDK servers up to
	// TypeScript 1.31 reject a tools/call without the object.
	p := object{}.set("name", quote(name)).set("arguments", json.RawMessage(`{}`))
	if arguments != nil {
		args, err := toRaw(arguments)
		if err != nil {
			return nil, wrap(MethodCallTool, newError(CodeInvalidParams, err.Error(), nil))
		}
		if jsonKind(args) != "null" {
			p = p.set("arguments", args)
		}
	}
	if err := c.requireCapability(MethodCallTool); err != nil {
		return nil, wrap(MethodCallTool, err)
	}
	if err := c.prepareToolCall(ctx, name); err != nil {
		return nil, wrap(MethodCallTool, err)
	}
	res, err := c.request(ctx, MethodCallTool, p.encode(), c.requestOptions(opts))
	if err != nil {
		return nil, wrap(MethodCallTool, err)
	}
	var r CallToolResult
	if err := decodeResult(MethodCallTool, res, &r, &r.Raw); err != nil {
		return nil, err
	}
	return &r, nil
}

// ReadResource reads a resource.
func (c *Client) ReadResource(ctx context.Context, uri string, opts ...RequestOption) (*ReadResourceResult, error) {
	if err := c.requireCapability(MethodReadResource); err != nil {
		return nil, wrap(MethodReadResource, err)
	}
	res, err := c.request(ctx, MethodReadResource, object{}.set("uri", quote(uri)).encode(), c.requestOptions(opts))
	if err != nil {
		return nil, wrap(MethodReadResource, err)
	}
	var r ReadResourceResult
	if err := decodeResult(MethodReadResource, res, &r, &r.Raw); err != nil {
		return nil, err
	}
	return &r, nil
}

// GetPrompt gets a prompt with its arguments (nil for none, sent as {}).
func (c *Client) GetPrompt(ctx context.Context, name string, arguments map[string]string, opts ...RequestOption) (*GetPromptResult, error) {
	// arguments is always sent, {} when there are none (as for tools/call).
	if arguments == nil {
		arguments = map[string]string{}
	}
	p := object{}.set("name", quote(name)).set("arguments", mustMarshal(arguments))
	if err := c.requireCapability(MethodGetPrompt); err != nil {
		return nil, wrap(MethodGetPrompt, err)
	}
	res, err := c.request(ctx, MethodGetPrompt, p.encode(), c.requestOptions(opts))
	if err != nil {
		return nil, wrap(MethodGetPrompt, err)
	}
	var r GetPromptResult
	if err := decodeResult(MethodGetPrompt, res, &r, &r.Raw); err != nil {
		return nil, err
	}
	return &r, nil
}

// Complete asks completion/complete for values of argument (name, value)
// of ref; contextArguments (nil for none) are the arguments already filled.
func (c *Client) Complete(ctx context.Context, ref Ref, name, value string, contextArguments map[string]string, opts ...RequestOption) (*CompleteResult, error) {
	p := object{}.
		set("ref", mustMarshal(ref)).
		set("argument", mustMarshal(map[string]string{"name": name, "value": value}))
	if contextArguments != nil {
		p = p.set("context", mustMarshal(map[string]any{"arguments": contextArguments}))
	}
	if err := c.requireCapability(MethodComplete); err != nil {
		return nil, wrap(MethodComplete, err)
	}
	if Before(c.Version(), Version20250326) {
		// 2024-11-05 had no completions capability: the one of what is
		// completed must be there.
		method := MethodListPrompts
		if ref.Type == "ref/resource" {
			method = MethodListResources
		}
		if err := c.requireCapability(method); err != nil {
			return nil, wrap(MethodComplete, &NotDeclaredError{Method: MethodComplete, Capability: err.(*NotDeclaredError).Capability})
		}
	}
	res, err := c.request(ctx, MethodComplete, p.encode(), c.requestOptions(opts))
	if err != nil {
		return nil, wrap(MethodComplete, err)
	}
	var r struct {
		Completion CompleteResult `json:"completion"`
	}
	if !isObject(res) {
		return nil, wrap(MethodComplete, &DecodeError{Method: MethodComplete, Raw: res, Err: fmt.Errorf("the result is a JSON %s", jsonKind(res))})
	}
	if err := unmarshal(res, &r); err != nil {
		return nil, wrap(MethodComplete, &DecodeError{Method: MethodComplete, Raw: res, Err: err})
	}
	r.Completion.Raw = res
	return &r.Completion, nil
}

// SetLogLevel sets the level of the log messages the server sends: on the
// initialize era with logging/setLevel; on 2026-07-28 by putting the level
// in the _meta of every later request ("" stops that). A level that is not
// one of protocol.LogLevels() is -32602.
func (c *Client) SetLogLevel(ctx context.Context, level string, opts ...RequestOption) error {
	if level != "" && !slices.Contains(protocol.LogLevels(), level) {
		return wrap(MethodSetLevel, errorf(CodeInvalidParams, "Unknown log level %q", level))
	}
	if Stateless(c.Version()) {
		c.setSession(func(s *Session) { s.LogLevel = level })
		return nil
	}
	if level == "" {
		return wrap(MethodSetLevel, errorf(CodeInvalidParams, "Protocol %s cannot unset the log level", c.Version()))
	}
	if err := c.requireCapability(MethodSetLevel); err != nil {
		return wrap(MethodSetLevel, err)
	}
	_, err := c.request(ctx, MethodSetLevel, object{}.set("level", quote(level)).encode(), c.requestOptions(opts))
	if err != nil {
		return wrap(MethodSetLevel, err)
	}
	c.setSession(func(s *Session) { s.LogLevel = level })
	return nil
}

// Ping sends ping (initialize era; 2026-07-28 has none: -32601 locally).
func (c *Client) Ping(ctx context.Context, opts ...RequestOption) error {
	_, err := c.request(ctx, MethodPing, nil, c.requestOptions(opts))
	return wrap(MethodPing, err)
}

// Discover sends server/discover (2026-07-28 only) and records what it
// says in the Session.
func (c *Client) Discover(ctx context.Context, opts ...RequestOption) (*DiscoverResult, error) {
	res, err := c.request(ctx, MethodDiscover, json.RawMessage(`{}`), c.requestOptions(opts))
	if err != nil {
		return nil, wrap(MethodDiscover, err)
	}
	dr, err := decodeDiscover(res)
	if err != nil {
		return nil, wrap(MethodDiscover, &DecodeError{Method: MethodDiscover, Raw: res, Err: err})
	}
	c.setSession(func(s *Session) { s.DiscoverResult = dr.Raw; applyDiscover(s, dr) })
	return dr, nil
}
