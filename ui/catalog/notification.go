package catalog

import "github.com/mcptui/mcptui/mcp"

// NotificationMsg is a server notification for the catalog (list changes,
// resource updates, task status), as the host saw it on the wire: the host
// routes the ones its model gathered to Update.
type NotificationMsg struct{ N mcp.Notification }
