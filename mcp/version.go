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
	// Version20250618 added elicitation, structured tool output, resource
	// links and titles, and removed JSON-RPC batches.
	Version20250618 = "2025-06-18"
	// Version20250326 added tool annotations, audio content, the progress
	// message, the completions capability and JSON-RPC batches.
	Version20250326 = "2025-03-26"
	// Version20241105 is the oldest revision supported (the first
	// published one); 2024-10-07, a pre-release, is taken for it.
	Version20241105 = "2024-11-05"
	// Version20241007 is the pre-release the TypeScript SDK still accepts;
	// it is spoken as 2024-11-05 (see CanonicalVersion).
	Version20241007 = "2024-10-07"
)

// DefaultVersions is the default preference order: newest first.
var DefaultVersions = []string{Version20260728, Version20251125, Version20250618, Version20250326, Version20241105}

// CanonicalVersion is the version this package speaks for version:
// 2024-10-07 is 2024-11-05 (the same messages), every other one itself.
func CanonicalVersion(version string) string {
	if version == Version20241007 {
		return Version20241105
	}
	return version
}

// Before reports whether version is older than other (both known, or at
// least in the YYYY-MM-DD form, which orders them as strings).
func Before(version, other string) bool { return CanonicalVersion(version) < CanonicalVersion(other) }

// Batches reports whether version lets a peer send a JSON-RPC batch (an
// array of messages on one line): only 2025-03-26, whose clients MUST
// accept one.
func Batches(version string) bool { return version == Version20250326 }

// Stateless reports whether version is of the 2026-07-28 era (no initialize,
// per-request _meta), as opposed to the initialize era.
func Stateless(version string) bool { return version >= Version20260728 }

// KnownVersion reports whether this package speaks version (2024-10-07
// included, spoken as 2024-11-05).
func KnownVersion(version string) bool {
	return slices.Contains(DefaultVersions, CanonicalVersion(version))
}

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

// legacyRequests are the client-to-server requests of 2024-11-05, which
// 2025-03-26 and 2025-06-18 keep unchanged.
var legacyRequests = []string{
	MethodInitialize, MethodPing, MethodListTools, MethodCallTool, MethodListResources,
	MethodListResourceTemplates, MethodReadResource, MethodSubscribe, MethodUnsubscribe,
	MethodListPrompts, MethodGetPrompt, MethodComplete, MethodSetLevel,
}

// requestMethods is the method table of client-to-server requests, per version.
var requestMethods = map[string][]string{
	Version20241105: legacyRequests,
	Version20250326: legacyRequests,
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

// notificationMethods is the method table of client-to-server notifications, per version.
var notificationMethods = map[string][]string{
	Version20241105: {NotificationInitialized, NotificationCancelled, NotificationProgress, NotificationRootsListChanged},
	Version20250326: {NotificationInitialized, NotificationCancelled, NotificationProgress, NotificationRootsListChanged},
	Version20250618: {NotificationInitialized, NotificationCancelled, NotificationProgress, NotificationRootsListChanged},
	Version20251125: {NotificationInitialized, NotificationCancelled, NotificationProgress, NotificationRootsListChanged, NotificationTaskStatus},
	Version20260728: {NotificationCancelled},
}

// knownAnywhere reports whether some version's row of table lists name.
func knownAnywhere(table map[string][]string, name string) bool {
	for _, c := range table {
		if slices.Contains(c, name) {
			return true
		}
	}
	return false
}

// checkMethod fails with -32601 when method is outside version's row of table.
// On the stateless era a method no version knows is let through (an
// extension); on the initialize era everything outside the table fails.
func checkMethod(table map[string][]string, version, method string) error {
	version = CanonicalVersion(version)
	if slices.Contains(table[version], method) {
		return nil
	}
	if Stateless(version) && !knownAnywhere(table, method) {
		return nil
	}
	return errorf(CodeMethodNotFound, "Protocol %s does not define %s", version, method)
}

// Defines reports whether a request with this method may be sent on version:
// it is in that version's method table, or (on 2026-07-28 only) unknown to every
// version and so taken for an extension.
func Defines(version, method string) bool {
	return checkMethod(requestMethods, version, method) == nil
}

// validateVersions checks a preference list: known versions, no repeats.
func validateVersions(versions []string) error {
	if len(versions) == 0 {
		return errorf(CodeInvalidParams, "No protocol version allowed")
	}
	for i, v := range versions {
		if !KnownVersion(v) || v == Version20241007 && slices.Contains(versions, Version20241105) {
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
