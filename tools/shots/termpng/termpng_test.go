package termpng

import (
	"image"
	"image/color"
	"testing"
)

// at is the colour of a pixel, as RGBA.
func at(img *image.RGBA, x, y int) color.RGBA { return img.RGBAAt(x, y) }

const size = 16

// cellRect is the pixel rectangle of cell (x, y) in an image drawn with
// the default padding.
func cellRect(x, y int) image.Rectangle {
	cw, ch := CellSize(size)
	return image.Rect(size+x*cw, size+y*ch, size+(x+1)*cw, size+(y+1)*ch)
}

func TestGridSize(t *testing.T) {
	cw, ch := CellSize(size)
	if cw < 8 || ch < 16 || ch < cw {
		t.Fatalf("cell %dx%d at %d px", cw, ch, size)
	}
	img := Render("hello", 10, 3, Options{FontSize: size})
	if got, want := img.Bounds().Size(), image.Pt(10*cw+2*size, 3*ch+2*size); got != want {
		t.Fatalf("image %v, want %v", got, want)
	}
	if at(img, 0, 0) != DefaultBg {
		t.Errorf("padding is %v, want the background", at(img, 0, 0))
	}
}

// TestVerticalLinesJoin: a column of │ is one unbroken line, and a heavy
// ┃ under it is centred on the same column.
func TestVerticalLinesJoin(t *testing.T) {
	img := Render("│\n│\n┃", 1, 3, Options{FontSize: size})
	top, bottom := cellRect(0, 0), cellRect(0, 2)
	x := top.Min.X + top.Dx()/2
	for y := top.Min.Y; y < bottom.Max.Y; y++ {
		if at(img, x, y) != DefaultFg {
			t.Fatalf("pixel (%d,%d) of the line is %v, want the foreground", x, y, at(img, x, y))
		}
	}
	// Not the whole cell: the line is thin.
	if at(img, top.Min.X, top.Min.Y) != DefaultBg {
		t.Error("the cell's corner is painted")
	}
}

// TestCornersJoin: in ┏━ over ┃, the corner's arms meet the neighbours'
// lines at the shared edges.
func TestCornersJoin(t *testing.T) {
	img := Render("┏━\n┃ ", 2, 2, Options{FontSize: size})
	corner, right, below := cellRect(0, 0), cellRect(1, 0), cellRect(0, 1)
	midY := corner.Min.Y + corner.Dy()/2
	midX := corner.Min.X + corner.Dx()/2
	for _, p := range []image.Point{
		{corner.Max.X - 1, midY}, {right.Min.X, midY}, // across the right edge
		{midX, corner.Max.Y - 1}, {midX, below.Min.Y}, // across the bottom edge
		{midX, midY}, // the corner itself
	} {
		if at(img, p.X, p.Y) != DefaultFg {
			t.Errorf("pixel %v is %v, want the foreground", p, at(img, p.X, p.Y))
		}
	}
	if at(img, corner.Min.X, corner.Min.Y) != DefaultBg || at(img, midX, corner.Min.Y) != DefaultBg {
		t.Error("the corner has an arm going up or left")
	}
}

func TestColours(t *testing.T) {
	// A red truecolour background, reverse video, a basic colour from the
	// palette.
	img := Render("\x1b[48;2;255;0;0m \x1b[m\x1b[7m \x1b[m\x1b[41m \x1b[m", 3, 1, Options{FontSize: size})
	red, rev, basic := cellRect(0, 0), cellRect(1, 0), cellRect(2, 0)
	if got := at(img, red.Min.X+1, red.Min.Y+1); got != (color.RGBA{255, 0, 0, 255}) {
		t.Errorf("truecolour background is %v", got)
	}
	if got := at(img, rev.Min.X+1, rev.Min.Y+1); got != DefaultFg {
		t.Errorf("reverse video background is %v, want the foreground", got)
	}
	if got, want := at(img, basic.Min.X+1, basic.Min.Y+1), toRGBA(NordPalette[1]); got != want {
		t.Errorf("SGR 41 is %v, want the palette's red %v", got, want)
	}
}

// TestWideCharacter: a wide character takes two cells and the next one
// starts after them.
func TestWideCharacter(t *testing.T) {
	s := Parse("漢x", 4, 1)
	if c := s.CellAt(0, 0); c == nil || c.Width != 2 {
		t.Fatalf("cell 0 is %+v, want a wide character", c)
	}
	img := Draw(s, Options{FontSize: size})
	wide, x := cellRect(0, 0).Union(cellRect(1, 0)), cellRect(2, 0)
	if !painted(img, wide) {
		t.Error("nothing drawn for the wide character")
	}
	if !painted(img, x) {
		t.Error("nothing drawn for the x after it")
	}
	if painted(img, cellRect(3, 0)) {
		t.Error("something drawn in the empty last cell")
	}
}

func painted(img *image.RGBA, r image.Rectangle) bool {
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			if at(img, x, y) != DefaultBg {
				return true
			}
		}
	}
	return false
}

func TestDiffer(t *testing.T) {
	a := Parse("\x1b[31;44m a", 3, 1)
	if _, _, d := Differ(a, Parse("\x1b[32;44m \x1b[31ma", 3, 1)); d {
		t.Error("a blank's foreground counts")
	}
	if x, _, d := Differ(a, Parse("\x1b[31;45m a", 3, 1)); !d || x != 0 {
		t.Errorf("another background: differ %v at %d", d, x)
	}
	if x, _, d := Differ(a, Parse("\x1b[31;44m \x1b[1ma", 3, 1)); !d || x != 1 {
		t.Errorf("bold text: differ %v at %d", d, x)
	}
}

func TestDeterministic(t *testing.T) {
	text := "\x1b[1mbold\x1b[m ╭─╮ ░▒▓ ⠿ \x1b[3mitalic\x1b[m \x1b[4munder\x1b[m ✓"
	a, b := Render(text, 40, 2, Options{}), Render(text, 40, 2, Options{})
	if string(a.Pix) != string(b.Pix) {
		t.Error("two renders of the same screen differ")
	}
}
