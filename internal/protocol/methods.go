package protocol

import "slices"

// Requests and notifications, by the name the wire gives them.
const (
	MethodInitialize            = "initialize"
	MethodPing                  = "ping"
	MethodDiscover              = "server/discover"
	MethodListTools             = "tools/list"
	MethodCallTool              = "tools/call"
	MethodListResources         = "resources/list"
	MethodListResourceTemplates = "resources/templates/list"
	MethodReadResource          = "resources/read"
	MethodSubscribe             = "resources/subscribe"
	MethodUnsubscribe           = "resources/unsubscribe"
	MethodListPrompts           = "prompts/list"
	MethodGetPrompt             = "prompts/get"
	MethodComplete              = "completion/complete"
	MethodSetLevel              = "logging/setLevel"
	MethodListen                = "subscriptions/listen"
	MethodCreateMessage         = "sampling/createMessage"
	MethodElicit                = "elicitation/create"
	MethodListRoots             = "roots/list"
	MethodTasksGet              = "tasks/get"
	MethodTasksResult           = "tasks/result"
	MethodTasksList             = "tasks/list"
	MethodTasksCancel           = "tasks/cancel"
	MethodTasksUpdate           = "tasks/update"

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

// initializeEraRequests are the client-to-server requests of 2024-11-05,
// which 2025-03-26 and 2025-06-18 keep unchanged.
var initializeEraRequests = [...]string{
	MethodInitialize, MethodPing, MethodListTools, MethodCallTool, MethodListResources,
	MethodListResourceTemplates, MethodReadResource, MethodSubscribe, MethodUnsubscribe,
	MethodListPrompts, MethodGetPrompt, MethodComplete, MethodSetLevel,
}

// Requests are the client-to-server requests of revision (nil for one not
// spoken; a new slice each call).
func Requests(revision string) []string {
	switch Canonical(revision) {
	case Rev20241105, Rev20250326, Rev20250618:
		return slices.Clone(initializeEraRequests[:])
	case Rev20251125:
		return append(slices.Clone(initializeEraRequests[:]), MethodTasksGet, MethodTasksResult, MethodTasksList, MethodTasksCancel)
	case Rev20260728:
		return []string{
			MethodDiscover, MethodListTools, MethodCallTool, MethodListPrompts, MethodGetPrompt,
			MethodListResources, MethodListResourceTemplates, MethodReadResource, MethodComplete,
			MethodListen,
			// The tasks extension (io.modelcontextprotocol/tasks).
			MethodTasksGet, MethodTasksUpdate, MethodTasksCancel,
		}
	}
	return nil
}

// Notifications are the client-to-server notifications of revision (nil
// for one not spoken; a new slice each call).
func Notifications(revision string) []string {
	switch Canonical(revision) {
	case Rev20241105, Rev20250326, Rev20250618:
		return []string{NotificationInitialized, NotificationCancelled, NotificationProgress, NotificationRootsListChanged}
	case Rev20251125:
		return []string{NotificationInitialized, NotificationCancelled, NotificationProgress, NotificationRootsListChanged, NotificationTaskStatus}
	case Rev20260728:
		return []string{NotificationCancelled}
	}
	return nil
}

// QuestionMethods are the requests a server asks its client (sampling,
// elicitation, roots): on the wire before 2026-07-28, as input_required
// entries since.
func QuestionMethods() []string { return []string{MethodCreateMessage, MethodElicit, MethodListRoots} }
