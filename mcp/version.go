package mcp

import (
	"fmt"
	"slices"
)

// The protocol versions this package speaks.
const (
	// Version20260728 is the stateless revision: no handshake, per-request
	// _meta, server/discover, input_required results, subscriptions/listen.
	Version20260728 = "2026-07-28"
	// Version20251125 is the newest initialize-era revision.
	Version20251125 = "2025-11-25"
	// Version20250618 is the oldest revision supported.
	Version20250618 = "2025-06-18"
)

// DefaultVersions is the default preference order: newest first.
var DefaultVersions = []string{Version20260728, Version20251125, Version20250618}

// Stateless reports whether version is of the 2026-07-28 era (no initialize,
// per-request _meta), as opposed to the initialize era.
func Stateless(version string) bool { return version >= Version20260728 }

// KnownVersion reports whether this package speaks version.
func KnownVersion(version string) bool { return slices.Contains(DefaultVersions, version) }

// Methods (client to server) and notifications used by this package.
const (
	MethodInitialize             = "initialize"
	MethodPing                   = "ping"
	MethodDiscover               = "server/discover"
	MethodListTools              = "tools/list"
	MethodCallTool               = "tools/call"
	MethodListResources          = "resources/list"
	MethodListResourceTemplates  = "resources/templates/list"
	MethodReadResource           = "resources/read"
	MethodSubscribe              = "resources/subscribe"
	MethodUnsubscribe            = "resources/unsubscribe"
	MethodListPrompts            = "prompts/list"
	MethodGetPrompt              = "prompts/get"
	MethodComplete               = "completion/complete"
	MethodSetLevel               = "logging/setLevel"
	MethodListen                 = "subscriptions/listen"
	MethodCreateMessage          = "sampling/createMessage"
	MethodElicit                 = "elicitation/create"
	MethodListRoots              = "roots/list"
	NotificationInitialized      = "notifications/initialized"
	NotificationCancelled        = "notifications/cancelled"
	NotificationProgress         = "notifications/progress"
	NotificationMessage          = "notifications/message"
	NotificationRootsListChanged = "notifications/roots/list_changed"
	NotificationToolsChanged     = "notifications/tools/list_changed"
	NotificationPromptsChanged   = "notifications/prompts/list_changed"
	NotificationResourcesChanged = "notifications/resources/list_changed"
	NotificationResourceUpdated  = "notifications/resources/updated"
	NotificationTaskStatus       = "notifications/tasks/status"
	NotificationTasks            = "notifications/tasks"
)

// _meta keys of the 2026-07-28 revision.
const (
	MetaProtocolVersion    = "io.modelcontextprotocol/protocolVersion"
	MetaClientCapabilities = "io.modelcontextprotocol/clientCapabilities"
	MetaClientInfo         = "io.modelcontextprotocol/clientInfo"
	MetaLogLevel           = "io.modelcontextprotocol/logLevel"
	MetaServerInfo         = "io.modelcontextprotocol/serverInfo"
	MetaSubscriptionID     = "io.modelcontextprotocol/subscriptionId"
)

var legacyRequests = []string{
	MethodInitialize, MethodPing, MethodListTools, MethodCallTool, MethodListResources,
	MethodListResourceTemplates, MethodReadResource, MethodSubscribe, MethodUnsubscribe,
	MethodListPrompts, MethodGetPrompt, MethodComplete, MethodSetLevel,
}

// catalogs lists the client-to-server requests of each version.
var catalogs = map[string][]string{
	Version20250618: legacyRequests,
	Version20251125: append(slices.Clone(legacyRequests), "tasks/get", "tasks/result", "tasks/list", "tasks/cancel"),
	Version20260728: {
		MethodDiscover, MethodListTools, MethodCallTool, MethodListPrompts, MethodGetPrompt,
		MethodListResources, MethodListResourceTemplates, MethodReadResource, MethodComplete,
		MethodListen,
		// The tasks extension (io.modelcontextprotocol/tasks).
		"tasks/get", "tasks/update", "tasks/cancel",
	},
}

// notificationCatalogs lists the client-to-server notifications of each version.
var notificationCatalogs = map[string][]string{
	Version20250618: {NotificationInitialized, NotificationCancelled, NotificationProgress, NotificationRootsListChanged},
	Version20251125: {NotificationInitialized, NotificationCancelled, NotificationProgress, NotificationRootsListChanged, NotificationTaskStatus},
	Version20260728: {NotificationCancelled},
}

// knownAnywhere reports whether some version's catalog lists name.
func knownAnywhere(cats map[string][]string, name string) bool {
	for _, c := range cats {
		if slices.Contains(c, name) {
			return true
		}
	}
	return false
}

// checkCatalog fails with -32601 when method is outside version's catalog.
// On the stateless era a method no version knows is let through (an
// extension); on the initialize era everything outside the catalog fails.
func checkCatalog(cats map[string][]string, version, method string) error {
	if slices.Contains(cats[version], method) {
		return nil
	}
	if Stateless(version) && !knownAnywhere(cats, method) {
		return nil
	}
	return errorf(CodeMethodNotFound, "Protocol %s does not define %s", version, method)
}

// Defines reports whether a request with this method may be sent on version:
// it is in that version's catalog, or (on 2026-07-28 only) unknown to every
// version and so taken for an extension.
func Defines(version, method string) bool {
	return checkCatalog(catalogs, version, method) == nil
}

// validateVersions checks a preference list: known versions, no repeats.
func validateVersions(versions []string) error {
	if len(versions) == 0 {
		return errorf(CodeInvalidParams, "No protocol version allowed")
	}
	for i, v := range versions {
		if !KnownVersion(v) {
			return newError(CodeInvalidParams, fmt.Sprintf("Unknown protocol version %q", v),
				map[string]any{"requested": v, "supported": DefaultVersions})
		}
		if slices.Contains(versions[:i], v) {
			return errorf(CodeInvalidParams, "Protocol version %q is listed twice", v)
		}
	}
	return nil
}

// choose returns the first of allowed that supported lists, or "".
func choose(allowed, supported []string) string {
	for _, v := range allowed {
		if slices.Contains(supported, v) {
			return v
		}
	}
	return ""
}

// firstLegacy returns the most preferred initialize-era version, or "".
func firstLegacy(allowed []string) string {
	for _, v := range allowed {
		if !Stateless(v) {
			return v
		}
	}
	return ""
}

// noCommonVersion is the -32602 error for an empty intersection.
func noCommonVersion(allowed, supported []string) *Error {
	if supported == nil {
		supported = []string{}
	}
	return newError(CodeInvalidParams, "The server supports none of the protocol versions the client allows",
		map[string]any{"requested": allowed, "supported": supported})
}
