// Package composer is the inspector's new-request dialog (n): any request
// a person may send, its method completed from what the server offers,
// its target (a tool, prompt or URI) picked from the server's catalog, its
// params filled through the target's arguments form or typed as JSON,
// with a timeout and progress options.
//
// It is an overlay of the root model (ui.Overlay) kept in a package of its
// own: Composer is generic over the host H, constrained by Host (the
// root's ui/overlay.Host, and the catalog, the argument store and the
// clock), and *ui.Model instantiates it. The root keeps one Composer
// between openings (the last request stays), opens it with Open, and hands
// it the OfferMsg that Open's Cmd brings; everything else reaches it as
// any overlay's keys, pastes and drawing do.
//
//	composer.go   the dialog: its fields, keys, drawing and the request
//	line.go       a one-line field (method, target, timeout)
//	pick.go       the suggestions under the method and target fields
//	offer.go      what the server offers, listed off the UI goroutine
//	args.go       the arguments form of a tool, prompt or template
//	argsview.go   its keys, its raw JSON mode and its drawing
package composer
