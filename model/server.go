package model

import "encoding/json"

// ServerInfo is what the server said of itself at the handshake (its
// serverInfo, instructions and capabilities) and how the protocol version
// was chosen: the server view's content. Every string in it is server
// text except Allowed, Pinned and Reason.
type ServerInfo struct {
	// Title, Description and WebsiteURL are serverInfo's optional
	// fields; Icons its icons, as sent (JSON).
	Title, Description, WebsiteURL string
	Icons                          json.RawMessage
	// Instructions are the server's instructions to the model (Markdown).
	Instructions string
	// Capabilities is the capabilities object as sent (JSON).
	Capabilities json.RawMessage
	// Allowed are the versions the client allowed, most preferred first;
	// Pinned says the person pinned one (--protocol or V), so that no
	// probe was sent.
	Allowed []string
	Pinned  bool
	// Reason says in one sentence why the version was chosen.
	Reason string
	// Probes and Spawns count the server/discover probes sent and the
	// processes started while negotiating.
	Probes, Spawns int
}
