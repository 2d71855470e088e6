package keymap

import "charm.land/bubbles/v2/key"

// Network keys work in the network view: pane 5 of an HTTP server, its
// HTTP exchanges.
type Network struct {
	// Open shows the selected exchange in the viewer: URL, status,
	// timing, headers (secrets redacted) and the messages it carried.
	Open key.Binding
	// Request and Response open the first message the exchange's request
	// and response carried (their traffic lines) in the viewer; Traffic
	// puts the traffic pane's cursor on that line.
	Request, Response, Traffic key.Binding
	// Follow follows the newest exchange; Log switches the pane between
	// the exchanges and the transport's log (each exchange on one line,
	// OAuth steps, warnings).
	Follow, Log key.Binding
}

func defaultNetwork() Network {
	return Network{
		Open:     b(k("enter"), "enter", "exchange"),
		Request:  b(k("i"), "i", "request body"),
		Response: b(k("o"), "o", "response body"),
		Traffic:  b(k("t"), "t", "its traffic line"),
		Follow:   b(k("f"), "f", "follow newest"),
		Log:      b(k("v"), "v", "exchanges/log"),
	}
}
