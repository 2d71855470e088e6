// Package apps is the host side of MCP Apps (SEP-1865, extension
// io.modelcontextprotocol/ui, stable 2026-01-26; the normative text is
// modelcontextprotocol/ext-apps, specification/2026-01-26/apps.mdx): which
// tool declares a UI (_meta.ui.resourceUri), the UI resource's metadata
// (CSP, permissions), the Content-Security-Policy a host builds from it,
// and a bridge that serves the App on 127.0.0.1 inside a sandboxed frame
// and relays its postMessage JSON-RPC to the session.
package apps

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/mcptui/mcptui/mcp"
)

// ExtensionID is the extension's key under capabilities.extensions.
const ExtensionID = "io.modelcontextprotocol/ui"

// MIMEType is the MIME type of an HTML UI resource.
const MIMEType = "text/html;profile=mcp-app"

// ClientCapabilities declares the extension on the client side, with the
// one content type mcptui renders.
var ClientCapabilities = json.RawMessage(`{"extensions":{"` + ExtensionID + `":{"mimeTypes":["` + MIMEType + `"]}}}`)

// ToolUI is what a tool's _meta says about its UI.
type ToolUI struct {
	// ResourceURI is _meta.ui.resourceUri (or the deprecated flat
	// _meta["ui/resourceUri"]); "" when the tool has no UI.
	ResourceURI string
	// Deprecated is set when the URI came from the flat key.
	Deprecated bool
	// Visibility is _meta.ui.visibility; nil means ["model","app"].
	Visibility []string
}

// ForTool reads a tool's UI declaration.
func ForTool(t mcp.Tool) ToolUI {
	var meta struct {
		UI struct {
			ResourceURI string   `json:"resourceUri"`
			Visibility  []string `json:"visibility"`
		} `json:"ui"`
		Flat string `json:"ui/resourceUri"`
	}
	if len(t.Meta) == 0 || json.Unmarshal(t.Meta, &meta) != nil {
		return ToolUI{}
	}
	u := ToolUI{ResourceURI: meta.UI.ResourceURI, Visibility: meta.UI.Visibility}
	if u.ResourceURI == "" && meta.Flat != "" {
		u.ResourceURI, u.Deprecated = meta.Flat, true
	}
	return u
}

// AppCallable reports whether an App may call the tool: its visibility
// includes "app" (the default does).
func (u ToolUI) AppCallable() bool {
	return u.Visibility == nil || slices.Contains(u.Visibility, "app")
}

// CSP is a UI resource's declared _meta.ui.csp.
type CSP struct {
	ConnectDomains  []string `json:"connectDomains,omitempty"`
	ResourceDomains []string `json:"resourceDomains,omitempty"`
	FrameDomains    []string `json:"frameDomains,omitempty"`
	BaseURIDomains  []string `json:"baseUriDomains,omitempty"`
}

// ResourceMeta is a UI resource's _meta.ui.
type ResourceMeta struct {
	CSP           *CSP                       `json:"csp,omitempty"`
	Permissions   map[string]json.RawMessage `json:"permissions,omitempty"`
	Domain        string                     `json:"domain,omitempty"`
	PrefersBorder *bool                      `json:"prefersBorder,omitempty"`
}

// ParseMeta reads _meta.ui from a resource's (or its contents') _meta.
func ParseMeta(meta json.RawMessage) ResourceMeta {
	var m struct {
		UI ResourceMeta `json:"ui"`
	}
	if len(meta) > 0 {
		_ = json.Unmarshal(meta, &m) // malformed metadata is no metadata
	}
	return m.UI
}

// PermissionNames are the permissions asked for, sorted.
func (m ResourceMeta) PermissionNames() []string {
	var out []string
	for k := range m.Permissions {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// sourceList is a CSP source list: the declared origins that are plain
// origins (a scheme, a host, maybe a port or a *. wildcard), else none.
func sourceList(base string, domains []string) string {
	var out []string
	if base != "" {
		out = append(out, base)
	}
	for _, d := range domains {
		if validSource(d) {
			out = append(out, d)
		}
	}
	if len(out) == 0 {
		return "'none'"
	}
	return strings.Join(out, " ")
}

// validSource accepts https://host[:port], http://host[:port] and wss/ws,
// with an optional leading *. on the host: nothing that could end the
// directive or add a keyword.
func validSource(d string) bool {
	scheme, rest, ok := strings.Cut(d, "://")
	if !ok || !slices.Contains([]string{"https", "http", "wss", "ws"}, scheme) || rest == "" {
		return false
	}
	for _, r := range strings.TrimPrefix(rest, "*.") {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '.' || r == '-' || r == ':') {
			return false
		}
	}
	return true
}

// ContentSecurityPolicy is the policy the App's document is served with:
// the extension's restrictive default, widened only by the origins the
// resource declared, with object-src 'none', and sandboxed (scripts only:
// an opaque origin, no same-origin access to the host page).
func (m ResourceMeta) ContentSecurityPolicy() string {
	c := CSP{}
	if m.CSP != nil {
		c = *m.CSP
	}
	res := sourceList("'self'", c.ResourceDomains)
	dirs := []string{
		"default-src 'none'",
		"script-src " + res + " 'unsafe-inline'",
		"style-src " + res + " 'unsafe-inline'",
		"img-src " + res + " data:",
		"font-src " + res,
		"media-src " + res + " data:",
		"connect-src " + sourceList("", c.ConnectDomains),
		"frame-src " + sourceList("", c.FrameDomains),
		"base-uri " + sourceList("'self'", c.BaseURIDomains),
		"object-src 'none'",
		"form-action 'none'",
		"sandbox allow-scripts",
	}
	return strings.Join(dirs, "; ")
}

// Describe is one line about a UI resource's metadata, for the terminal.
func (m ResourceMeta) Describe() string {
	var parts []string
	if m.CSP == nil {
		parts = append(parts, "CSP: the restrictive default")
	} else {
		c := m.CSP
		for _, d := range []struct {
			name string
			list []string
		}{{"connect", c.ConnectDomains}, {"resources", c.ResourceDomains}, {"frames", c.FrameDomains}, {"base-uri", c.BaseURIDomains}} {
			if len(d.list) > 0 {
				parts = append(parts, fmt.Sprintf("CSP %s: %s", d.name, strings.Join(d.list, " ")))
			}
		}
		if len(parts) == 0 {
			parts = append(parts, "CSP: no external origins")
		}
	}
	if p := m.PermissionNames(); len(p) > 0 {
		parts = append(parts, "asks for: "+strings.Join(p, ", "))
	}
	return strings.Join(parts, " · ")
}
