// Package ui is the inspector's Bubble Tea program: a header, five panes
// (requests in flight, pending questions, traffic, subscriptions, stderr), a
// footer with the keys that work, and overlays (a JSON viewer with folding,
// an answer editor, a reject dialog, the raw request composer, the new
// subscription dialog, help).
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
