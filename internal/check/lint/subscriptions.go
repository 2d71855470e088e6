package lint

import (
	"encoding/json"
	"slices"
	"strings"

	"github.com/mcptui/mcptui/internal/protocol"
)

// subscription is a subscriptions/listen request the client sent
// (2026-07-28): what it asked for and whether the server acknowledged it.
type subscription struct {
	asked struct {
		Tools     bool     `json:"toolsListChanged"`
		Prompts   bool     `json:"promptsListChanged"`
		Resources bool     `json:"resourcesListChanged"`
		URIs      []string `json:"resourceSubscriptions"`
	}
	acked bool
}

// metaSubscriptionID is the _meta key tagging a subscription's messages.
const metaSubscriptionID = "io.modelcontextprotocol/subscriptionId"

// listenSent remembers a subscriptions/listen request.
func (l *Linter) listenSent(key string, params json.RawMessage) {
	if len(l.subs) >= maxPending {
		return
	}
	s := &subscription{}
	var p struct {
		Notifications json.RawMessage `json:"notifications"`
	}
	if json.Unmarshal(params, &p) == nil && p.Notifications != nil {
		_ = json.Unmarshal(p.Notifications, &s.asked)
	}
	l.subs[key] = s
}

// subscriptionOf is the subscription a notification's _meta names ("" and
// nil when it names none, or one the client never opened).
func (l *Linter) subscriptionOf(params json.RawMessage) (string, *subscription) {
	tag := members(members(params)["_meta"])[metaSubscriptionID]
	if tag == nil {
		return "", nil
	}
	key := valueKey(tag)
	return key, l.subs[key]
}

// acknowledged judges notifications/subscriptions/acknowledged.
func (j *judge) acknowledged(params json.RawMessage, v string) {
	key, s := j.l.subscriptionOf(params)
	if s == nil {
		j.fail("subscriptions.tagged", v, "an acknowledgement tagged %s, which names no subscriptions/listen the client sent", orNone(key))
		return
	}
	s.acked = true
	var got struct {
		Tools     bool     `json:"toolsListChanged"`
		Prompts   bool     `json:"promptsListChanged"`
		Resources bool     `json:"resourcesListChanged"`
		URIs      []string `json:"resourceSubscriptions"`
	}
	_ = json.Unmarshal(members(params)["notifications"], &got)
	extra := []string{}
	if got.Tools && !s.asked.Tools {
		extra = append(extra, "toolsListChanged")
	}
	if got.Prompts && !s.asked.Prompts {
		extra = append(extra, "promptsListChanged")
	}
	if got.Resources && !s.asked.Resources {
		extra = append(extra, "resourcesListChanged")
	}
	for _, u := range got.URIs {
		if !slices.Contains(s.asked.URIs, u) {
			extra = append(extra, "resourceSubscriptions "+u)
		}
	}
	if len(extra) > 0 {
		j.fail("subscriptions.requested-only", v, "subscription %s acknowledged what it did not ask for: %s", key, clip([]byte(strings.Join(extra, ", "))))
	}
}

// changed judges a list-changed or resources/updated notification on
// 2026-07-28: it travels on an open, acknowledged subscription that asked
// for its kind.
func (j *judge) changed(method string, params json.RawMessage, v string) {
	key, s := j.l.subscriptionOf(params)
	if s == nil {
		j.fail("subscriptions.tagged", v, "%s tagged %s, which names no open subscriptions/listen", method, orNone(key))
		return
	}
	if !s.acked {
		j.fail("subscriptions.acknowledged", v, "%s on subscription %s before its acknowledgement", method, key)
	}
	asked := false
	switch method {
	case protocol.NotificationToolsChanged:
		asked = s.asked.Tools
	case protocol.NotificationPromptsChanged:
		asked = s.asked.Prompts
	case protocol.NotificationResourcesChanged:
		asked = s.asked.Resources
	case protocol.NotificationResourceUpdated:
		uri := str(members(params)["uri"])
		// The updated uri may be a sub-resource of the one subscribed.
		asked = slices.ContainsFunc(s.asked.URIs, func(u string) bool { return strings.HasPrefix(uri, u) })
	}
	if !asked {
		j.fail("subscriptions.requested-only", v, "%s on subscription %s, whose filter did not ask for it", method, key)
	}
}

func orNone(key string) string {
	if key == "" {
		return "nothing"
	}
	return clip([]byte(key))
}
