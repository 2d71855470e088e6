// Package ui is the inspector's Bubble Tea program: one workspace where
// everything the person starts and everything the server says stays in
// view.
//
// # The shape
//
// The screen is a header, a body of panes, and a footer. The panes are
//
//	1 Requests      every request, in flight first, then history; enter
//	                shows its rendered outcome, c cancels, + extends
//	2 Server asks   the server's questions to the person (sampling,
//	                elicitation, roots), with the answer policy of each kind
//	3 Traffic       the JSON-RPC lines, summarised by what a person reads
//	4 Subscriptions open and closed subscriptions
//	5 Stderr        the server's stderr
//	6 Catalog       tools, resources, templates, prompts and the server's
//	                log (package ui/explorer, drawn as a pane, not a modal)
//
// The middle slot of the body holds Traffic or the Catalog, whichever was
// focused last; while the Catalog is there it takes the bottom row's room
// too, and Requests and Server asks stay visible above it. z zooms the
// focused pane to the whole body. Overlays (the JSON viewer, the answer
// editors, the composer, the subscribe dialog, help) cover the body only
// for one short job and esc closes them.
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
