// Package kit holds the drawing pieces the catalog and the answer editors
// share: rows of exactly a given width built from segments (server text is
// always escaped with inert), a one-line editor that draws its text escaped,
// word wrapping, a small Markdown renderer for descriptions, the one JSON
// viewer (JSONView: read lazily, folded with a cursor, drawn only where it
// is visible; the traffic viewer, the catalog and the answer panes all use
// it), and bordered boxes.
//
// Everything draws into lines of exactly the width asked for, so callers can
// stack them into panes and overlays the way package ui does.
package kit
