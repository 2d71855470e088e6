package mcp

import (
	"fmt"
	"slices"

	"github.com/mcptui/mcptui/internal/protocol"
)

// The protocol versions this package speaks (internal/protocol holds
// them and their order; these are their names in this package's API).
const (
	// Version20260728 is the stateless revision: no handshake, per-request
	// _meta, server/discover, input_required results, subscriptions/listen.
	Version20260728 = protocol.Rev20260728
	// Version20251125 is the newest initialize-era revision.
	Version20251125 = protocol.Rev20251125
	// Version20250618 added elicitation, structured tool output, resource
	// links and titles, and removed JSON-RPC batches.
	Version20250618 = protocol.Rev20250618
	// Version20250326 added tool annotations, audio content, the progress
	// message, the completions capability and JSON-RPC batches.
	Version20250326 = protocol.Rev20250326
	// Version20241105 is the oldest revision supported (the first
	// published one); 2024-10-07, a pre-release, is taken for it.
	Version20241105 = protocol.Rev20241105
	// Version20241007 is the pre-release the TypeScript SDK still accepts;
	// it is spoken as 2024-11-05 (see CanonicalVersion).
	Version20241007 = protocol.PreRelease20241007
)

// DefaultVersions is the default preference order: newest first.
var DefaultVersions = protocol.NewestFirst()

// CanonicalVersion is the version this package speaks for version:
// 2024-10-07 is 2024-11-05 (the same messages), every other one itself.
func CanonicalVersion(version string) string { return protocol.Canonical(version) }

// Before reports whether version is older than other (both known, or at
// least in the YYYY-MM-DD form, which orders them as strings).
func Before(version, other string) bool { return protocol.Before(version, other) }

// Batches reports whether version lets a peer send a JSON-RPC batch (an
// array of messages on one line): only 2025-03-26, whose clients MUST
// accept one.
func Batches(version string) bool { return protocol.Batches(version) }

// Stateless reports whether version is of the 2026-07-28 era (no initialize,
// per-request _meta), as opposed to the initialize era.
func Stateless(version string) bool { return protocol.Stateless(version) }

// KnownVersion reports whether this package speaks version (2024-10-07
// included, spoken as 2024-11-05).
func KnownVersion(version string) bool { return protocol.Known(version) }

// Methods (client to server) and notifications used by this package.
const (
	MethodInitialize             = protocol.MethodInitialize
	MethodPing                   = protocol.MethodPing
	MethodDiscover               = protocol.MethodDiscover
	MethodListTools              = protocol.MethodListTools
	MethodCallTool               = protocol.MethodCallTool
	MethodListResources          = protocol.MethodListResources
	MethodListResourceTemplates  = protocol.MethodListResourceTemplates
	MethodReadResource           = protocol.MethodReadResource
	MethodSubscribe              = protocol.MethodSubscribe
	MethodUnsubscribe            = protocol.MethodUnsubscribe
	MethodListPrompts            = protocol.MethodListPrompts
	MethodGetPrompt              = protocol.MethodGetPrompt
	MethodComplete               = protocol.MethodComplete
	MethodSetLevel               = protocol.MethodSetLevel
	MethodListen                 = protocol.MethodListen
	MethodCreateMessage          = protocol.MethodCreateMessage
	MethodElicit                 = protocol.MethodElicit
	MethodListRoots              = protocol.MethodListRoots
	NotificationInitialized      = protocol.NotificationInitialized
	NotificationCancelled        = protocol.NotificationCancelled
	NotificationProgress         = protocol.NotificationProgress
	NotificationMessage          = protocol.NotificationMessage
	NotificationRootsListChanged = protocol.NotificationRootsListChanged
	NotificationToolsChanged     = protocol.NotificationToolsChanged
	NotificationPromptsChanged   = protocol.NotificationPromptsChanged
	NotificationResourcesChanged = protocol.NotificationResourcesChanged
	NotificationResourceUpdated  = protocol.NotificationResourceUpdated
	NotificationTaskStatus       = protocol.NotificationTaskStatus
	NotificationTasks            = protocol.NotificationTasks
)

// _meta keys of the 2026-07-28 revision.
const (
	MetaProtocolVersion    = protocol.MetaProtocolVersion
	MetaClientCapabilities = protocol.MetaClientCapabilities
	MetaClientInfo         = protocol.MetaClientInfo
	MetaLogLevel           = protocol.MetaLogLevel
	MetaServerInfo         = protocol.MetaServerInfo
	MetaSubscriptionID     = protocol.MetaSubscriptionID
)

// methodList lists what the client may send on a version: its requests
// (protocol.Requests) or its notifications (protocol.Notifications).
type methodList func(version string) []string

// knownAnywhere reports whether some version's methodList lists name.
func knownAnywhere(list methodList, name string) bool {
	for _, v := range protocol.Revisions() {
		if slices.Contains(list(v), name) {
			return true
		}
	}
	return false
}

// checkMethod fails with -32601 when method is outside version's list.
// On the stateless era a method no version knows is let through (an
// extension); on the initialize era everything outside the list fails.
func checkMethod(list methodList, version, method string) error {
	version = CanonicalVersion(version)
	if slices.Contains(list(version), method) {
		return nil
	}
	if Stateless(version) && !knownAnywhere(list, method) {
		return nil
	}
	return errorf(CodeMethodNotFound, "Protocol %s does not define %s", version, method)
}

// Defines reports whether a request with this method may be sent on version:
// it is in that version's list, or (on 2026-07-28 only) unknown to every
// version and so taken for an extension.
func Defines(version, method string) bool {
	return checkMethod(protocol.Requests, version, method) == nil
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
