// Package ui is the inspector's Bubble Tea program: one workspace where
// everything the person starts and everything the server says stays in
// view.
//
// # The shape
//
// The screen is a header, a body of panes, and a footer. The panes, each
// with its state, keys and drawing in the file named after it, are
//
//	1 Requests      inflight.go: every request, in flight first, then
//	                history; enter shows its rendered outcome, c cancels,
//	                + extends
//	2 Server asks   pending.go: the server's questions to the person
//	                (sampling, elicitation, roots), with the answer policy
//	                of each kind
//	3 Traffic       traffic.go: the JSON-RPC lines, summarised by what a
//	                person reads, and the filter typed over them
//	4 Subscriptions subs.go: open and closed subscriptions
//	5 Stderr        stderr.go: the server's stderr; for an HTTP server,
//	                network.go: its HTTP exchanges (v: the transport's log)
//	6 Catalog       rich.go: tools, resources, templates, prompts and the
//	                catalog's events (package ui/catalog, drawn as a pane,
//	                not a modal)
//	7 Log           logview.go: the server's log messages by level (the
//	                model's one book, model.LogBook)
//	8 Server        serverview.go: what the server said of itself, the
//	                protocol version, the live lint's findings
//
// The middle slot of the body holds Traffic, the Catalog or the Server
// view, whichever was focused last; while the Catalog is there it takes
// the bottom row's room too (a strip of the log under it when the screen
// is tall enough), and Requests and Server asks stay visible above it.
// The bottom row is Subscriptions, Stderr and the Log. z zooms the focused
// pane to the whole body (layout.go, views.go place them).
//
// # Overlays
//
// An overlay covers the body for one short job, and esc closes it. Every
// one implements Overlay (overlay.go: Update, Title, View, Context, Keys)
// in a file of its own (in the root package or another), which holds
// its state, keys and drawing:
//
//	ui/composer   a new request (n; opened by composer.go)
//	ui/dialog     rejecting a question (reject.go), a new subscription
//	              (listen.go), the protocol version to reconnect at
//	              (version.go), the answer policies (policies.go)
//	ui/viewer     the JSON viewer of a traffic line or a result (opened
//	              by viewer.go)
//	editor.go     an answer as raw JSON ($EDITOR round trip: external.go)
//	answering.go  a question's own editor (package ui/answer)
//	loglevel.go   the log level asked of the server (kit.LevelPicker,
//	              the catalog's picker too)
//	help.go       the ? help
//
// The open ones are a stack on the Model. The root routes with no switch
// on which one is open: a key or a paste goes to the top one (f1, the
// help key that cannot be typed, first opens the help over it), the body
// is the top one's box, the footer and the help show its context's keys,
// and every other message goes to each open one (the results of its own
// Cmds). m.show opens an overlay in place of what is open, m.push over it
// (the help, an answer editor: closing goes back), m.closeOverlay closes
// it. Adding a dialog is a file with a type that implements Overlay and a
// call to m.show where it opens; it may use keymap.DialogOverlay as its
// context and list its own keys (Keys, and FooterKeys for the footer).
//
// An overlay may live in a package of its own, as the composer, the
// dialogs and the viewer do: it sees the root only through
// ui/overlay.Host (keys, styles, the session, the backend, the status
// line, closing itself; host.go) or an interface of its package that
// embeds it, which the Model implements, and it is generic over that
// host, so that instantiated with *Model its methods are Overlay's. A
// call it makes in a Cmd comes back as an overlay.Done, which the status
// line says. Adding a dialog there is a file in ui/dialog and, where it
// opens, m.show(dialog.NewX[*Model](...)) or dialog.OpenX(m).
//
// keys.go routes a key: the top overlay, the traffic filter, the catalog
// while it holds a text field, the global keys, then the focused pane's
// own (each pane's key function is in its file). mouse.go clicks and
// scrolls, header.go draws the header, the status line and the footer.
//
// A call made from the Catalog is sent through the session like a composed
// one (internal/session Track): it is an ordinary request in pane 1 with
// its timer, progress bar, cancel and extend, and the person can look at
// anything else while it runs. Its outcome comes back to the Catalog, and
// enter on the request in pane 1 shows it there.
//
// Keys: esc always goes back one level (a dialog, a page, then out of the
// Catalog to the pane before it) and never cancels anything; c cancels
// wherever a request is selected. While the Catalog holds a text field,
// every key goes to it except the help and quit keys that cannot be typed
// (f1, ctrl+c). Every binding lives in keymap/.
//
// The program draws a model.Session and changes it only by applying events:
// batches from the Backend's inbox, and the results of the person's actions.
// It talks to the connection only through Backend (and its optional Caller
// and Listener parts), always inside a tea.Cmd: Update never does I/O. Every
// string that came from the server is passed through inert before it is
// drawn. Panes draw only their visible rows, and the viewer only its visible
// lines, so the cost of a frame does not depend on the size of the history
// or of a line.
package ui
