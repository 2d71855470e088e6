package mcp

import (
	"encoding/json"
	"slices"

	"github.com/mcptui/mcptui/internal/protocol"
)

// The decoded types below keep the JSON they were decoded from in Raw, so
// that nothing a server sent is lost: members this package does not know
// about are still in Raw.

// Implementation identifies a client or a server (clientInfo, serverInfo).
type Implementation struct {
	Name        string          `json:"name"`
	Title       string          `json:"title,omitzero"`
	Version     string          `json:"version"`
	Description string          `json:"description,omitzero"`
	WebsiteURL  string          `json:"websiteUrl,omitzero"`
	Icons       json.RawMessage `json:"icons,omitzero"`
	// Raw is the object as received (empty for the client's own).
	Raw json.RawMessage `json:"-"`
}

// UnmarshalJSON decodes and keeps the raw JSON.
func (v *Implementation) UnmarshalJSON(b []byte) error {
	type plain Implementation
	if err := unmarshal(b, (*plain)(v)); err != nil {
		return err
	}
	v.Raw = slices.Clone(b)
	return nil
}

// ServerCapabilities are the capabilities a server declared.
type ServerCapabilities struct {
	Tools        *ListChangedCapability `json:"tools,omitzero"`
	Prompts      *ListChangedCapability `json:"prompts,omitzero"`
	Resources    *ResourcesCapability   `json:"resources,omitzero"`
	Logging      json.RawMessage        `json:"logging,omitzero"`
	Completions  json.RawMessage        `json:"completions,omitzero"`
	Tasks        json.RawMessage        `json:"tasks,omitzero"`
	Experimental json.RawMessage        `json:"experimental,omitzero"`
	Extensions   json.RawMessage        `json:"extensions,omitzero"`
	// Raw is the capabilities object as received.
	Raw json.RawMessage `json:"-"`
}

// UnmarshalJSON decodes and keeps the raw JSON.
func (v *ServerCapabilities) UnmarshalJSON(b []byte) error {
	type plain ServerCapabilities
	if err := unmarshal(b, (*plain)(v)); err != nil {
		return err
	}
	v.Raw = slices.Clone(b)
	return nil
}

// ListChangedCapability is the tools or prompts capability.
type ListChangedCapability struct {
	ListChanged bool `json:"listChanged,omitzero"`
}

// ResourcesCapability is the resources capability.
type ResourcesCapability struct {
	Subscribe   bool `json:"subscribe,omitzero"`
	ListChanged bool `json:"listChanged,omitzero"`
}

// Annotations are the optional hints on resources and content.
type Annotations struct {
	Audience     []string `json:"audience,omitzero"`
	Priority     *float64 `json:"priority,omitzero"`
	LastModified string   `json:"lastModified,omitzero"`
}

// ToolAnnotations are a tool's behaviour hints.
type ToolAnnotations struct {
	Title           string `json:"title,omitzero"`
	ReadOnlyHint    *bool  `json:"readOnlyHint,omitzero"`
	DestructiveHint *bool  `json:"destructiveHint,omitzero"`
	IdempotentHint  *bool  `json:"idempotentHint,omitzero"`
	OpenWorldHint   *bool  `json:"openWorldHint,omitzero"`
}

// Tool is one entry of tools/list.
type Tool struct {
	Name         string           `json:"name"`
	Title        string           `json:"title,omitzero"`
	Description  string           `json:"description,omitzero"`
	InputSchema  json.RawMessage  `json:"inputSchema,omitzero"`
	OutputSchema json.RawMessage  `json:"outputSchema,omitzero"`
	Annotations  *ToolAnnotations `json:"annotations,omitzero"`
	Execution    json.RawMessage  `json:"execution,omitzero"`
	Icons        json.RawMessage  `json:"icons,omitzero"`
	Meta         json.RawMessage  `json:"_meta,omitzero"`
	// Raw is the tool as received.
	Raw json.RawMessage `json:"-"`
}

// UnmarshalJSON decodes and keeps the raw JSON.
func (v *Tool) UnmarshalJSON(b []byte) error {
	type plain Tool
	if err := unmarshal(b, (*plain)(v)); err != nil {
		return err
	}
	v.Raw = slices.Clone(b)
	return nil
}

// Resource is one entry of resources/list.
type Resource struct {
	URI         string          `json:"uri"`
	Name        string          `json:"name"`
	Title       string          `json:"title,omitzero"`
	Description string          `json:"description,omitzero"`
	MIMEType    string          `json:"mimeType,omitzero"`
	Size        *int64          `json:"size,omitzero"`
	Annotations *Annotations    `json:"annotations,omitzero"`
	Icons       json.RawMessage `json:"icons,omitzero"`
	Meta        json.RawMessage `json:"_meta,omitzero"`
	// Raw is the resource as received.
	Raw json.RawMessage `json:"-"`
}

// UnmarshalJSON decodes and keeps the raw JSON.
func (v *Resource) UnmarshalJSON(b []byte) error {
	type plain Resource
	if err := unmarshal(b, (*plain)(v)); err != nil {
		return err
	}
	v.Raw = slices.Clone(b)
	return nil
}

// ResourceTemplate is one entry of resources/templates/list.
type ResourceTemplate struct {
	URITemplate string          `json:"uriTemplate"`
	Name        string          `json:"name"`
	Title       string          `json:"title,omitzero"`
	Description string          `json:"description,omitzero"`
	MIMEType    string          `json:"mimeType,omitzero"`
	Annotations *Annotations    `json:"annotations,omitzero"`
	Icons       json.RawMessage `json:"icons,omitzero"`
	Meta        json.RawMessage `json:"_meta,omitzero"`
	// Raw is the template as received.
	Raw json.RawMessage `json:"-"`
}

// UnmarshalJSON decodes and keeps the raw JSON.
func (v *ResourceTemplate) UnmarshalJSON(b []byte) error {
	type plain ResourceTemplate
	if err := unmarshal(b, (*plain)(v)); err != nil {
		return err
	}
	v.Raw = slices.Clone(b)
	return nil
}

// Prompt is one entry of prompts/list.
type Prompt struct {
	Name        string           `json:"name"`
	Title       string           `json:"title,omitzero"`
	Description string           `json:"description,omitzero"`
	Arguments   []PromptArgument `json:"arguments,omitzero"`
	Icons       json.RawMessage  `json:"icons,omitzero"`
	Meta        json.RawMessage  `json:"_meta,omitzero"`
	// Raw is the prompt as received.
	Raw json.RawMessage `json:"-"`
}

// UnmarshalJSON decodes and keeps the raw JSON.
func (v *Prompt) UnmarshalJSON(b []byte) error {
	type plain Prompt
	if err := unmarshal(b, (*plain)(v)); err != nil {
		return err
	}
	v.Raw = slices.Clone(b)
	return nil
}

// PromptArgument is one argument a prompt takes.
type PromptArgument struct {
	Name        string `json:"name"`
	Title       string `json:"title,omitzero"`
	Description string `json:"description,omitzero"`
	Required    bool   `json:"required,omitzero"`
}

// Content types.
const (
	ContentText         = protocol.ContentText
	ContentImage        = protocol.ContentImage
	ContentAudio        = protocol.ContentAudio
	ContentResourceLink = protocol.ContentResourceLink
	ContentResource     = protocol.ContentResource
)

// Content is one content item: text, image, audio, resource_link or an
// embedded resource (and, kept only in Raw, any other type).
type Content struct {
	Type string `json:"type"`
	// Text is set for "text".
	Text string `json:"text,omitzero"`
	// Data (base64) and MIMEType are set for "image" and "audio";
	// MIMEType also for "resource_link".
	Data     string `json:"data,omitzero"`
	MIMEType string `json:"mimeType,omitzero"`
	// URI, Name, Title, Description and Size describe a "resource_link".
	URI         string `json:"uri,omitzero"`
	Name        string `json:"name,omitzero"`
	Title       string `json:"title,omitzero"`
	Description string `json:"description,omitzero"`
	Size        *int64 `json:"size,omitzero"`
	// Resource is the embedded resource of a "resource" item.
	Resource    *ResourceContents `json:"resource,omitzero"`
	Annotations *Annotations      `json:"annotations,omitzero"`
	Meta        json.RawMessage   `json:"_meta,omitzero"`
	// Raw is the item as received.
	Raw json.RawMessage `json:"-"`
}

// UnmarshalJSON decodes and keeps the raw JSON.
func (v *Content) UnmarshalJSON(b []byte) error {
	type plain Content
	if err := unmarshal(b, (*plain)(v)); err != nil {
		return err
	}
	v.Raw = slices.Clone(b)
	return nil
}

// ResourceContents is what resources/read returns for one resource, and
// what an embedded resource carries: Text for text, Blob (base64) for binary.
type ResourceContents struct {
	URI      string          `json:"uri"`
	MIMEType string          `json:"mimeType,omitzero"`
	Text     *string         `json:"text,omitzero"`
	Blob     *string         `json:"blob,omitzero"`
	Meta     json.RawMessage `json:"_meta,omitzero"`
	// Raw is the object as received.
	Raw json.RawMessage `json:"-"`
}

// UnmarshalJSON decodes and keeps the raw JSON.
func (v *ResourceContents) UnmarshalJSON(b []byte) error {
	type plain ResourceContents
	if err := unmarshal(b, (*plain)(v)); err != nil {
		return err
	}
	v.Raw = slices.Clone(b)
	return nil
}

// CallToolResult is the result of tools/call. IsError true is a tool
// failure reported as a result, not a protocol error.
type CallToolResult struct {
	Content           []Content       `json:"content"`
	StructuredContent json.RawMessage `json:"structuredContent,omitzero"`
	IsError           bool            `json:"isError,omitzero"`
	Meta              json.RawMessage `json:"_meta,omitzero"`
	// Raw is the result as received.
	Raw json.RawMessage `json:"-"`
}

// ReadResourceResult is the result of resources/read.
type ReadResourceResult struct {
	Contents []ResourceContents `json:"contents"`
	Meta     json.RawMessage    `json:"_meta,omitzero"`
	// Raw is the result as received.
	Raw json.RawMessage `json:"-"`
}

// PromptMessage is one message of a prompt.
type PromptMessage struct {
	Role    string  `json:"role"`
	Content Content `json:"content"`
}

// GetPromptResult is the result of prompts/get.
type GetPromptResult struct {
	Description string          `json:"description,omitzero"`
	Messages    []PromptMessage `json:"messages"`
	Meta        json.RawMessage `json:"_meta,omitzero"`
	// Raw is the result as received.
	Raw json.RawMessage `json:"-"`
}

// CompleteResult is the result of completion/complete.
type CompleteResult struct {
	Values  []string `json:"values"`
	Total   *int64   `json:"total,omitzero"`
	HasMore bool     `json:"hasMore,omitzero"`
	// Raw is the whole result as received.
	Raw json.RawMessage `json:"-"`
}

// Ref is what completion/complete completes for: a prompt or a resource
// template. Build one with PromptRef or ResourceRef.
type Ref struct {
	Type string `json:"type"`
	Name string `json:"name,omitzero"`
	URI  string `json:"uri,omitzero"`
}

// PromptRef refers to a prompt by name.
func PromptRef(name string) Ref { return Ref{Type: "ref/prompt", Name: name} }

// ResourceRef refers to a resource template by its URI template.
func ResourceRef(uri string) Ref { return Ref{Type: "ref/resource", URI: uri} }

// DiscoverResult is the result of server/discover.
type DiscoverResult struct {
	SupportedVersions []string           `json:"supportedVersions"`
	Capabilities      ServerCapabilities `json:"capabilities"`
	Instructions      string             `json:"instructions,omitzero"`
	TTLMs             *int64             `json:"ttlMs,omitzero"`
	CacheScope        string             `json:"cacheScope,omitzero"`
	Meta              json.RawMessage    `json:"_meta,omitzero"`
	// ServerInfo is _meta["io.modelcontextprotocol/serverInfo"], if any.
	ServerInfo *Implementation `json:"-"`
	// Raw is the result as received.
	Raw json.RawMessage `json:"-"`
}

// LogMessage is the params of notifications/message.
type LogMessage struct {
	Level  string          `json:"level"`
	Logger string          `json:"logger,omitzero"`
	Data   json.RawMessage `json:"data,omitzero"`
}

// DecodeLogMessage decodes a notifications/message.
func DecodeLogMessage(n Notification) (LogMessage, error) {
	var m LogMessage
	if err := unmarshal(n.Params, &m); err != nil {
		return m, wrap(n.Method, err)
	}
	return m, nil
}
