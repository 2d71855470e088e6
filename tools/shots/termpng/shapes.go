package termpng

import (
	"image"
	"image/color"
	"math"
)

// boxArms is a box-drawing character: the weight of each arm (up, right,
// down, left) and the number of dashes.
type boxArms struct {
	up, right, down, left, dashes uint8
}

// Arm weights.
const (
	armNone = iota
	armLight
	armHeavy
	armDouble
)

// shape draws r as a shape that fills the cell, when it is one of the
// characters drawn that way (box drawing, blocks, braille), and says
// whether it was.
func (p *painter) shape(ch rune, r image.Rectangle, fg color.RGBA) bool {
	switch {
	case ch >= 0x2500 && ch <= 0x257F:
		p.box(ch, r, fg)
	case ch >= 0x2580 && ch <= 0x259F:
		p.block(ch, r, fg)
	case ch >= 0x2800 && ch <= 0x28FF:
		p.braille(ch, r, fg)
	default:
		return false
	}
	return true
}

// strokes are the thicknesses of light and heavy lines, and the distance
// of each line of a double one from the centre.
func (p *painter) strokes() (light, heavy, gap int) {
	light = max(1, int(math.Round(float64(p.fs.cellW)/10)))
	heavy = light*2 + 1
	return light, heavy, light
}

// band is the span [c-t/2, c-t/2+t) of a line of thickness t centred on c.
func band(c, t int) (int, int) { return c - t/2, c - t/2 + t }

// box draws a box-drawing character. Lines run through the centre of the
// cell and reach its edges, so they join the neighbouring cells' lines.
func (p *painter) box(ch rune, r image.Rectangle, fg color.RGBA) {
	switch ch {
	case 0x256D, 0x256E, 0x256F, 0x2570:
		p.arc(ch, r, fg)
		return
	case 0x2571, 0x2572, 0x2573:
		p.diagonal(ch, r, fg)
		return
	}
	a := boxLines[ch-0x2500]
	light, heavy, gap := p.strokes()
	cx, cy := r.Min.X+r.Dx()/2, r.Min.Y+r.Dy()/2
	thick := func(w uint8) int {
		switch w {
		case armLight:
			return light
		case armHeavy:
			return heavy
		case armDouble:
			return 2*gap + light
		}
		return 0
	}
	if a.dashes > 0 {
		p.dashed(a, r, fg, thick)
		return
	}
	// How far an arm reaches past the centre: to the far edge of the
	// thickest line across it, so corners and junctions are filled.
	vReach := max(thick(a.left), thick(a.right)) // of vertical arms, in y
	hReach := max(thick(a.up), thick(a.down))    // of horizontal arms, in x
	vLo, vHi := band(cy, vReach)
	hLo, hHi := band(cx, hReach)
	if vReach == 0 {
		vLo, vHi = cy, cy
	}
	if hReach == 0 {
		hLo, hHi = cx, cx
	}
	vertical := func(w uint8, y0, y1 int, up bool) {
		if w == armNone {
			return
		}
		if w != armDouble {
			x0, x1 := band(cx, thick(w))
			p.fill(image.Rect(x0, y0, x1, y1), fg)
			return
		}
		// A double line: two light lines, each stopping at the line of
		// the horizontal arm on its side, so the corners stay open.
		for _, side := range []int{-1, 1} {
			x0, x1 := band(cx+side*gap, light)
			lo, hi := y0, y1
			sideArm := a.left
			if side > 0 {
				sideArm = a.right
			}
			if up {
				if sideArm != armNone {
					_, hi = band(cy-gap, light)
				} else {
					_, hi = band(cy+gap, light)
				}
			} else {
				if sideArm != armNone {
					lo, _ = band(cy+gap, light)
				} else {
					lo, _ = band(cy-gap, light)
				}
			}
			p.fill(image.Rect(x0, lo, x1, hi), fg)
		}
	}
	horizontal := func(w uint8, x0, x1 int, left bool) {
		if w == armNone {
			return
		}
		if w != armDouble {
			y0, y1 := band(cy, thick(w))
			p.fill(image.Rect(x0, y0, x1, y1), fg)
			return
		}
		for _, side := range []int{-1, 1} {
			y0, y1 := band(cy+side*gap, light)
			lo, hi := x0, x1
			sideArm := a.up
			if side > 0 {
				sideArm = a.down
			}
			if left {
				if sideArm != armNone {
					_, hi = band(cx-gap, light)
				} else {
					_, hi = band(cx+gap, light)
				}
			} else {
				if sideArm != armNone {
					lo, _ = band(cx+gap, light)
				} else {
					lo, _ = band(cx-gap, light)
				}
			}
			p.fill(image.Rect(lo, y0, hi, y1), fg)
		}
	}
	vertical(a.up, r.Min.Y, vHi, true)
	vertical(a.down, vLo, r.Max.Y, false)
	horizontal(a.left, r.Min.X, hHi, true)
	horizontal(a.right, hLo, r.Max.X, false)
}

// dashed draws a dashed line across the cell (dashed characters have no
// junctions).
func (p *painter) dashed(a boxArms, r image.Rectangle, fg color.RGBA, thick func(uint8) int) {
	n := int(a.dashes)
	cx, cy := r.Min.X+r.Dx()/2, r.Min.Y+r.Dy()/2
	if a.left != armNone {
		y0, y1 := band(cy, thick(a.left))
		for i := range n {
			x0 := r.Min.X + i*r.Dx()/n
			x1 := r.Min.X + (i+1)*r.Dx()/n
			p.fill(image.Rect(x0, y0, x0+max(1, (x1-x0)*2/3), y1), fg)
		}
		return
	}
	x0, x1 := band(cx, thick(a.up))
	for i := range n {
		y0 := r.Min.Y + i*r.Dy()/n
		y1 := r.Min.Y + (i+1)*r.Dy()/n
		p.fill(image.Rect(x0, y0, x1, y0+max(1, (y1-y0)*2/3)), fg)
	}
}

// arc draws a rounded corner (╭╮╯╰): a quarter circle joining the centre
// lines of two edges, antialiased.
func (p *painter) arc(ch rune, r image.Rectangle, fg color.RGBA) {
	light, _, _ := p.strokes()
	x0, _ := band(r.Min.X+r.Dx()/2, light)
	y0, _ := band(r.Min.Y+r.Dy()/2, light)
	// The centre lines, in pixel coordinates of the line's middle.
	lx := float64(x0) + float64(light)/2
	ly := float64(y0) + float64(light)/2
	rad := math.Min(lx-float64(r.Min.X), float64(r.Max.X)-lx)
	// sx, sy: which way the arms go (+1 right/down, -1 left/up).
	var sx, sy float64
	switch ch {
	case 0x256D: // ╭ down and right
		sx, sy = 1, 1
	case 0x256E: // ╮ down and left
		sx, sy = -1, 1
	case 0x256F: // ╯ up and left
		sx, sy = -1, -1
	case 0x2570: // ╰ up and right
		sx, sy = 1, -1
	}
	ccx, ccy := lx+sx*rad, ly+sy*rad // the circle's centre
	// Straight parts from the arc's ends to the edges.
	hy0, hy1 := band(r.Min.Y+r.Dy()/2, light)
	vx0, vx1 := band(r.Min.X+r.Dx()/2, light)
	if sx > 0 {
		p.fill(image.Rect(int(math.Round(ccx)), hy0, r.Max.X, hy1), fg)
	} else {
		p.fill(image.Rect(r.Min.X, hy0, int(math.Round(ccx)), hy1), fg)
	}
	if sy > 0 {
		p.fill(image.Rect(vx0, int(math.Round(ccy)), vx1, r.Max.Y), fg)
	} else {
		p.fill(image.Rect(vx0, r.Min.Y, vx1, int(math.Round(ccy))), fg)
	}
	// The arc: each pixel of the quadrant, covered by how close its
	// centre is to the circle.
	half := float64(light) / 2
	for y := r.Min.Y; y < r.Max.Y; y++ {
		py := float64(y) + 0.5
		if (py-ccy)*sy > 0 {
			continue
		}
		for x := r.Min.X; x < r.Max.X; x++ {
			px := float64(x) + 0.5
			if (px-ccx)*sx > 0 {
				continue
			}
			d := math.Hypot(px-ccx, py-ccy)
			cov := math.Min(1, math.Max(0, half+0.5-math.Abs(d-rad)))
			p.blend(image.Rect(x, y, x+1, y+1), fg, cov)
		}
	}
}

// diagonal draws ╱, ╲ or ╳ from corner to corner, antialiased.
func (p *painter) diagonal(ch rune, r image.Rectangle, fg color.RGBA) {
	light, _, _ := p.strokes()
	w, h := float64(r.Dx()), float64(r.Dy())
	length := math.Hypot(w, h)
	half := float64(light) / 2
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			px, py := float64(x-r.Min.X)+0.5, float64(y-r.Min.Y)+0.5
			cov := 0.0
			if ch != 0x2572 { // ╱: from lower left to upper right
				d := math.Abs(h*px+w*py-w*h) / length
				cov = math.Max(cov, half+0.5-d)
			}
			if ch != 0x2571 { // ╲: from upper left to lower right
				d := math.Abs(h*px-w*py) / length
				cov = math.Max(cov, half+0.5-d)
			}
			p.blend(image.Rect(x, y, x+1, y+1), fg, math.Min(1, cov))
		}
	}
}

// block draws a block element (U+2580..U+259F): eighths, halves, shades
// and quadrants.
func (p *painter) block(ch rune, r image.Rectangle, fg color.RGBA) {
	x0, y0, x1, y1 := r.Min.X, r.Min.Y, r.Max.X, r.Max.Y
	w, h := r.Dx(), r.Dy()
	eighthX := func(n int) int { return x0 + int(math.Round(float64(w*n)/8)) }
	eighthY := func(n int) int { return y0 + int(math.Round(float64(h*n)/8)) }
	mx, my := x0+w/2, y0+h/2
	quad := func(ul, ur, ll, lr bool) {
		if ul {
			p.fill(image.Rect(x0, y0, mx, my), fg)
		}
		if ur {
			p.fill(image.Rect(mx, y0, x1, my), fg)
		}
		if ll {
			p.fill(image.Rect(x0, my, mx, y1), fg)
		}
		if lr {
			p.fill(image.Rect(mx, my, x1, y1), fg)
		}
	}
	switch {
	case ch == 0x2580: // ▀
		p.fill(image.Rect(x0, y0, x1, my), fg)
	case ch >= 0x2581 && ch <= 0x2588: // ▁..█ lower eighths
		p.fill(image.Rect(x0, eighthY(8-int(ch-0x2580)), x1, y1), fg)
	case ch >= 0x2589 && ch <= 0x258F: // ▉..▏ left eighths
		p.fill(image.Rect(x0, y0, eighthX(8-int(ch-0x2588)), y1), fg)
	case ch == 0x2590: // ▐
		p.fill(image.Rect(mx, y0, x1, y1), fg)
	case ch >= 0x2591 && ch <= 0x2593: // ░▒▓
		p.blend(r, fg, float64(ch-0x2590)/4)
	case ch == 0x2594: // ▔
		p.fill(image.Rect(x0, y0, x1, eighthY(1)), fg)
	case ch == 0x2595: // ▕
		p.fill(image.Rect(eighthX(7), y0, x1, y1), fg)
	default:
		// ▖▗▘▙▚▛▜▝▞▟ as upper left, upper right, lower left, lower right.
		q := [...][4]bool{
			{false, false, true, false}, {false, false, false, true}, {true, false, false, false},
			{true, false, true, true}, {true, false, false, true}, {true, true, true, false},
			{true, true, false, true}, {false, true, false, false}, {false, true, true, false},
			{false, true, true, true},
		}[ch-0x2596]
		quad(q[0], q[1], q[2], q[3])
	}
}

// braille draws a braille pattern: up to eight dots in two columns of
// four.
func (p *painter) braille(ch rune, r image.Rectangle, fg color.RGBA) {
	bits := int(ch - 0x2800)
	// Dot n (1-based) is bit n-1; dots 1-3 and 7 are the left column,
	// 4-6 and 8 the right one.
	pos := [8][2]int{{0, 0}, {0, 1}, {0, 2}, {1, 0}, {1, 1}, {1, 2}, {0, 3}, {1, 3}}
	dot := max(1, r.Dx()/4)
	for i, rc := range pos {
		if bits&(1<<i) == 0 {
			continue
		}
		cx := r.Min.X + r.Dx()*(1+2*rc[0])/4
		cy := r.Min.Y + r.Dy()*(1+2*rc[1])/8
		p.fill(image.Rect(cx-dot/2, cy-dot/2, cx-dot/2+dot, cy-dot/2+dot), fg)
	}
}
