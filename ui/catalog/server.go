package catalog

import (
	"github.com/mcptui/mcptui/internal/backend"
	"github.com/mcptui/mcptui/mcp"
)

// Server is what the catalog asks of the connection (internal/session
// implements it: the catalog has no path of its own to the client).
type Server = backend.Catalog

// Subscription is an open subscription.
type Subscription = backend.Subscription

// CallOptions are the per-call options of a request.
type CallOptions = backend.CatalogCallOptions

// Info is what the catalog knows about the server.
type Info = backend.CatalogInfo

// NotificationMsg is a server notification for the catalog (list changes,
// resource updates, task status), as the host saw it on the wire: the host
// routes the ones its model gathered to Update.
type NotificationMsg struct{ N mcp.Notification }
