package mcp

import "github.com/mcptui/mcptui/internal/protocol"

// Requests are the client-to-server requests version defines, in the
// order of its method list (nil for a version this package does not know).
func Requests(version string) []string {
	return protocol.Requests(version)
}

// Declares reports whether capabilities declared by a server allow a
// request of method on version: the capability it needs (tools for
// tools/call, resources.subscribe for resources/subscribe, completions
// from 2025-03-26, ...) is there, or it needs none. need names the
// capability missing.
func Declares(caps ServerCapabilities, version, method string) (need string, ok bool) {
	switch method {
	case MethodListTools, MethodCallTool:
		return "tools", caps.Tools != nil
	case MethodListResources, MethodListResourceTemplates, MethodReadResource:
		return "resources", caps.Resources != nil
	case MethodSubscribe, MethodUnsubscribe:
		if caps.Resources == nil {
			return "resources", false
		}
		return "resources.subscribe", caps.Resources.Subscribe
	case MethodListPrompts, MethodGetPrompt:
		return "prompts", caps.Prompts != nil
	case MethodComplete:
		if Before(version, Version20250326) {
			return "", true
		}
		return "completions", caps.Completions != nil
	case MethodSetLevel:
		return "logging", caps.Logging != nil
	}
	return "", true
}
