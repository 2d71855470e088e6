package keymap

import "charm.land/bubbles/v2/key"

// Senders are the bindings whose action sends to the server or answers
// it, by where they work: what a read-only inspector (a recording
// replayed, a host's session watched through a tap) leaves out of its
// hints and refuses with a reason. The pointers are into the KeyMap, so
// that such an inspector can disable them.
type Senders struct {
	// Everywhere work in every pane (outside text entry).
	Everywhere []*key.Binding
	// Here work in one pane each.
	Here map[Context][]*key.Binding
}

// Senders lists m's sending bindings: a new request (the composer),
// restart, another protocol version, the server's log level, the catalog
// (it lists by asking the server; its actions call, read and get);
// cancelling and extending a request; answering, approving, editing and
// rejecting a server's question, and the answer policies (they only act
// on questions still to come); opening and closing a subscription.
func (m *KeyMap) Senders() Senders {
	g, p := &m.Global, &m.Pending
	return Senders{
		Everywhere: []*key.Binding{&g.Compose, &g.Restart, &g.Version, &g.LogLevel, &g.Catalog, &g.Pane6},
		Here: map[Context][]*key.Binding{
			InFlightPane:      {&m.InFlight.Cancel, &m.InFlight.Extend},
			PendingPane:       {&p.Reply, &p.Approve, &p.Edit, &p.Reject, &p.Form, &p.Policies},
			SubscriptionsPane: {&m.Subscriptions.Listen, &m.Subscriptions.Close},
		},
	}
}
