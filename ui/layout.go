package ui

// rect is a region of the screen.
type rect struct{ x, y, w, h int }

// contains reports whether the cell (x, y) is inside.
func (r rect) contains(x, y int) bool {
	return x >= r.x && x < r.x+r.w && y >= r.y && y < r.y+r.h
}

// headerLines and footerLines frame the panes.
const (
	headerLines = 2
	footerLines = 1
)

// layout places the panes in a w×h screen: requests and the server's
// questions side by side on top, traffic across the middle, subscriptions
// and stderr side by side at the bottom. With the catalog shown it takes
// the middle and the bottom row's room, under requests and questions.
// Zoomed, the focused pane takes the whole body.
func layout(w, h int, zoom bool, focus pane, catalogShown bool) [paneCount]rect {
	var r [paneCount]rect
	body := rect{0, headerLines, w, max(h-headerLines-footerLines, 0)}
	if zoom {
		r[focus] = body
		return r
	}
	left := w * 11 / 20
	if catalogShown {
		top := max(body.h*3/10, min(5, body.h))
		r[paneInFlight] = rect{0, body.y, left, top}
		r[panePending] = rect{left, body.y, w - left, top}
		r[paneCatalog] = rect{0, body.y + top, w, body.h - top}
		return r
	}
	top := body.h * 2 / 5
	bottom := body.h / 4
	mid := body.h - top - bottom
	r[paneInFlight] = rect{0, body.y, left, top}
	r[panePending] = rect{left, body.y, w - left, top}
	r[paneTraffic] = rect{0, body.y + top, w, mid}
	sl := w * 2 / 5
	r[paneSubs] = rect{0, body.y + top + mid, sl, bottom}
	r[paneStderr] = rect{sl, body.y + top + mid, w - sl, bottom}
	return r
}

// bodyRect is the area between header and footer, where overlays go.
func bodyRect(w, h int) rect {
	return rect{0, headerLines, w, max(h-headerLines-footerLines, 0)}
}

// inner is the number of rows inside a pane's border.
func (r rect) inner() int { return max(r.h-2, 0) }
