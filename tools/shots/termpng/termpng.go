// Package termpng draws a terminal screen as an image, cell by cell: every
// cell sits on a fixed pixel grid, text is set in an embedded monospace font
// (DejaVu Sans Mono, with Go Mono for the characters it lacks), and the
// box-drawing, block and braille characters are drawn as shapes that fill
// their cells, so borders and bars meet across cells at any size, whatever
// the font's own glyphs would do.
//
// It reads the cells of a charmbracelet/x/vt emulator (colours, bold,
// faint, italic, reverse, conceal, underline, strikethrough, wide
// characters), so what it draws is what a terminal holds, not a re-parse of
// the escape stream with its own limits. It needs no system fonts and no
// external program, and the same screen always gives the same pixels.
package termpng

import (
	"image"
	"image/color"
	"image/draw"
	"math"
	"strings"

	uv "github.com/charmbracelet/ultraviolet"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/vt"
	"github.com/go-fonts/dejavu/dejavusansmono"
	"github.com/go-fonts/dejavu/dejavusansmonobold"
	"github.com/go-fonts/dejavu/dejavusansmonoboldoblique"
	"github.com/go-fonts/dejavu/dejavusansmonooblique"
	"golang.org/x/image/font"
	"golang.org/x/image/font/gofont/gomono"
	"golang.org/x/image/font/gofont/gomonobold"
	"golang.org/x/image/font/gofont/gomonobolditalic"
	"golang.org/x/image/font/gofont/gomonoitalic"
	"golang.org/x/image/font/opentype"
	"golang.org/x/image/font/sfnt"
	"golang.org/x/image/math/fixed"
)

// Screen is a grid of terminal cells; *vt.Emulator is one.
type Screen interface {
	Width() int
	Height() int
	// CellAt returns the cell at column x, row y; nil is an empty cell.
	CellAt(x, y int) *uv.Cell
}

// Options change how a screen is drawn. The zero value draws a 16-pixel
// font on the Nord colours.
type Options struct {
	// FontSize is the font's size in pixels per em; 0 means 16. A cell
	// is about 0.6 em wide and 1.2 em high.
	FontSize float64
	// Padding is the margin around the grid, in pixels; 0 means one em,
	// < 0 none.
	Padding int
	// Fg and Bg are the terminal's default colours; nil means DefaultFg
	// and DefaultBg.
	Fg, Bg color.Color
	// Palette is the 16 ANSI colours; nil means NordPalette.
	Palette *[16]color.Color
}

// The default colours: Nord (https://www.nordtheme.com), which the dark
// theme is drawn for.
var (
	DefaultFg = color.RGBA{0xD8, 0xDE, 0xE9, 0xFF}
	DefaultBg = color.RGBA{0x2E, 0x34, 0x40, 0xFF}
	// NordPalette is Nord's terminal palette: black, red, green, yellow,
	// blue, magenta, cyan, white, then their bright forms.
	NordPalette = [16]color.Color{
		rgb(0x3B4252), rgb(0xBF616A), rgb(0xA3BE8C), rgb(0xEBCB8B),
		rgb(0x81A1C1), rgb(0xB48EAD), rgb(0x88C0D0), rgb(0xE5E9F0),
		rgb(0x4C566A), rgb(0xBF616A), rgb(0xA3BE8C), rgb(0xEBCB8B),
		rgb(0x81A1C1), rgb(0xB48EAD), rgb(0x8FBCBB), rgb(0xECEFF4),
	}
)

func rgb(v uint32) color.Color {
	return color.RGBA{uint8(v >> 16), uint8(v >> 8), uint8(v), 0xFF}
}

// Parse writes a screen's text (lines separated by "\n", styled with SGR
// escapes, as vt's Render returns it) into a new w×h emulator, whose cells
// Draw can then read.
func Parse(text string, w, h int) *vt.Emulator {
	e := vt.NewEmulator(w, h)
	_, _ = e.WriteString(strings.ReplaceAll(text, "\n", "\r\n"))
	return e
}

// Render draws a screen's text (see Parse) of w×h cells.
func Render(text string, w, h int, o Options) *image.RGBA {
	return Draw(Parse(text, w, h), o)
}

// face is one style of the font: the primary face, and a fallback for the
// characters the primary lacks.
type face struct {
	faces [2]font.Face
	fonts [2]*sfnt.Font
}

// fontSet is the four styles at one size, and the cell size they imply.
type fontSet struct {
	styles       [4]face // regular, bold, italic, bold italic
	cellW, cellH int
	ascent       int
	buf          sfnt.Buffer
}

var ttfs = [4][2][]byte{
	{dejavusansmono.TTF, gomono.TTF},
	{dejavusansmonobold.TTF, gomonobold.TTF},
	{dejavusansmonooblique.TTF, gomonoitalic.TTF},
	{dejavusansmonoboldoblique.TTF, gomonobolditalic.TTF},
}

// newFontSet loads the fonts at size pixels per em. The fonts are embedded
// and known good, so a parse error is a broken build: it panics.
func newFontSet(size float64) *fontSet {
	fs := &fontSet{}
	for i, pair := range ttfs {
		for j, ttf := range pair {
			f, err := opentype.Parse(ttf)
			if err != nil {
				panic("termpng: embedded font: " + err.Error())
			}
			fc, err := opentype.NewFace(f, &opentype.FaceOptions{Size: size, DPI: 72, Hinting: font.HintingFull})
			if err != nil {
				panic("termpng: embedded font: " + err.Error())
			}
			fs.styles[i].fonts[j], fs.styles[i].faces[j] = f, fc
		}
	}
	reg := fs.styles[0].faces[0]
	m := reg.Metrics()
	adv, _ := reg.GlyphAdvance('M')
	fs.cellW = adv.Ceil()
	fs.ascent = m.Ascent.Ceil()
	fs.cellH = fs.ascent + m.Descent.Ceil()
	return fs
}

// glyphFace is the face that has r in style st, or nil.
func (fs *fontSet) glyphFace(st int, r rune) font.Face {
	f := &fs.styles[st]
	for i, sf := range f.fonts {
		if g, err := sf.GlyphIndex(&fs.buf, r); err == nil && g != 0 {
			return f.faces[i]
		}
	}
	return nil
}

// CellSize is the size of a cell, in pixels, at a font size (0 means 16).
func CellSize(fontSize float64) (w, h int) {
	fs := newFontSet(fontSizeOr(fontSize))
	return fs.cellW, fs.cellH
}

func fontSizeOr(s float64) float64 {
	if s <= 0 {
		return 16
	}
	return s
}

// painter draws cells onto an image.
type painter struct {
	img     *image.RGBA
	fs      *fontSet
	fg, bg  color.RGBA
	palette [16]color.Color
	ox, oy  int // the grid's origin
}

// Draw draws the screen. The image is the grid plus the padding; the
// same screen and options always give the same pixels.
func Draw(s Screen, o Options) *image.RGBA {
	size := fontSizeOr(o.FontSize)
	fs := newFontSet(size)
	pad := o.Padding
	switch {
	case pad == 0:
		pad = int(math.Round(size))
	case pad < 0:
		pad = 0
	}
	p := &painter{fs: fs, fg: toRGBA(DefaultFg), bg: toRGBA(DefaultBg), palette: NordPalette, ox: pad, oy: pad}
	if o.Fg != nil {
		p.fg = toRGBA(o.Fg)
	}
	if o.Bg != nil {
		p.bg = toRGBA(o.Bg)
	}
	if o.Palette != nil {
		p.palette = *o.Palette
	}
	w, h := s.Width(), s.Height()
	p.img = image.NewRGBA(image.Rect(0, 0, w*fs.cellW+2*pad, h*fs.cellH+2*pad))
	draw.Draw(p.img, p.img.Bounds(), image.NewUniform(p.bg), image.Point{}, draw.Src)
	// Backgrounds first, then what is on them, so a glyph that overhangs
	// its cell is not covered by its neighbour's background.
	for pass := range 2 {
		for y := range h {
			for x := 0; x < w; x++ {
				c := s.CellAt(x, y)
				if c == nil {
					continue
				}
				cw := max(c.Width, 1)
				fg, bg := p.colours(c)
				r := image.Rect(p.ox+x*fs.cellW, p.oy+y*fs.cellH, p.ox+(x+cw)*fs.cellW, p.oy+(y+1)*fs.cellH)
				if pass == 0 {
					if bg != p.bg {
						draw.Draw(p.img, r, image.NewUniform(bg), image.Point{}, draw.Src)
					}
				} else {
					p.cell(c, r, fg)
				}
				x += cw - 1
			}
		}
	}
	return p.img
}

// colours resolves a cell's foreground and background, with reverse,
// faint and conceal applied.
func (p *painter) colours(c *uv.Cell) (fg, bg color.RGBA) {
	fg, bg = p.fg, p.bg
	if c.Style.Fg != nil {
		fg = p.resolve(c.Style.Fg)
	}
	if c.Style.Bg != nil {
		bg = p.resolve(c.Style.Bg)
	}
	a := c.Style.Attrs
	if a&uv.AttrReverse != 0 {
		fg, bg = bg, fg
	}
	if a&uv.AttrFaint != 0 {
		fg = mix(fg, bg, 0.55)
	}
	if a&uv.AttrConceal != 0 {
		fg = bg
	}
	return fg, bg
}

// resolve maps a colour of a cell to RGB: the 16 ANSI colours through the
// palette, everything else as it is.
func (p *painter) resolve(c color.Color) color.RGBA {
	switch c := c.(type) {
	case ansi.BasicColor:
		if c < 16 {
			return toRGBA(p.palette[c])
		}
	case ansi.IndexedColor:
		if c < 16 {
			return toRGBA(p.palette[c])
		}
	}
	return toRGBA(c)
}

func toRGBA(c color.Color) color.RGBA {
	r, g, b, _ := c.RGBA()
	return color.RGBA{uint8(r >> 8), uint8(g >> 8), uint8(b >> 8), 0xFF}
}

// mix is a*t + b*(1-t).
func mix(a, b color.RGBA, t float64) color.RGBA {
	f := func(x, y uint8) uint8 { return uint8(math.Round(float64(x)*t + float64(y)*(1-t))) }
	return color.RGBA{f(a.R, b.R), f(a.G, b.G), f(a.B, b.B), 0xFF}
}

// cell draws a cell's content and its lines in r.
func (p *painter) cell(c *uv.Cell, r image.Rectangle, fg color.RGBA) {
	st := c.Style
	if c.Content != "" && c.Content != " " {
		rs := []rune(c.Content)
		if len(rs) == 1 && p.shape(rs[0], r, fg) {
			// drawn as a shape
		} else {
			p.text(rs, st.Attrs, r, fg)
		}
	}
	lw := max(1, int(math.Round(float64(p.fs.cellW)/10)))
	if st.Underline != uv.UnderlineNone {
		ul := fg
		if st.UnderlineColor != nil {
			ul = p.resolve(st.UnderlineColor)
		}
		y := r.Min.Y + p.fs.ascent + max(1, p.fs.cellH-p.fs.ascent)/2
		y = min(y, r.Max.Y-lw)
		p.fill(image.Rect(r.Min.X, y, r.Max.X, y+lw), ul)
		if st.Underline == uv.UnderlineDouble && y-2*lw >= r.Min.Y+p.fs.ascent {
			p.fill(image.Rect(r.Min.X, y-2*lw, r.Max.X, y-lw), ul)
		}
	}
	if st.Attrs&uv.AttrStrikethrough != 0 {
		y := r.Min.Y + p.fs.ascent*2/3
		p.fill(image.Rect(r.Min.X, y, r.Max.X, y+lw), fg)
	}
}

// text sets the runes of one grapheme, centred in its cells.
func (p *painter) text(rs []rune, attrs uint8, r image.Rectangle, fg color.RGBA) {
	style := 0
	if attrs&uv.AttrBold != 0 {
		style |= 1
	}
	if attrs&uv.AttrItalic != 0 {
		style |= 2
	}
	src := image.NewUniform(fg)
	var base fixed.Int26_6
	for i, ch := range rs {
		fc := p.fs.glyphFace(style, ch)
		if fc == nil {
			if i == 0 {
				p.tofu(r, fg)
			}
			continue
		}
		adv, _ := fc.GlyphAdvance(ch)
		if i == 0 {
			// Centre the first rune; the others (combining marks) share
			// its origin.
			base = fixed.I(r.Min.X) + (fixed.I(r.Dx())-adv)/2
		}
		dot := fixed.Point26_6{X: base, Y: fixed.I(r.Min.Y + p.fs.ascent)}
		dr, mask, mp, _, ok := fc.Glyph(dot, ch)
		if !ok {
			continue
		}
		draw.DrawMask(p.img, dr, src, image.Point{}, mask, mp, draw.Over)
	}
}

// tofu is the box drawn for a character no font has.
func (p *painter) tofu(r image.Rectangle, fg color.RGBA) {
	in := image.Rect(r.Min.X+r.Dx()/6, r.Min.Y+r.Dy()/5, r.Max.X-r.Dx()/6, r.Max.Y-r.Dy()/6)
	p.fill(image.Rect(in.Min.X, in.Min.Y, in.Max.X, in.Min.Y+1), fg)
	p.fill(image.Rect(in.Min.X, in.Max.Y-1, in.Max.X, in.Max.Y), fg)
	p.fill(image.Rect(in.Min.X, in.Min.Y, in.Min.X+1, in.Max.Y), fg)
	p.fill(image.Rect(in.Max.X-1, in.Min.Y, in.Max.X, in.Max.Y), fg)
}

// fill paints r in c.
func (p *painter) fill(r image.Rectangle, c color.RGBA) {
	draw.Draw(p.img, r, image.NewUniform(c), image.Point{}, draw.Src)
}

// blend paints r in c at coverage a (0..1) over what is there.
func (p *painter) blend(r image.Rectangle, c color.RGBA, a float64) {
	if a <= 0 {
		return
	}
	if a >= 1 {
		p.fill(r, c)
		return
	}
	draw.Draw(p.img, r, image.NewUniform(color.NRGBA{c.R, c.G, c.B, uint8(math.Round(a * 255))}), image.Point{}, draw.Over)
}

// look is what a cell shows: a blank's foreground and text attributes do
// not show, so two cells that draw the same pixels have the same look.
type look struct {
	content    string
	width      int
	fg, bg, ul color.RGBA
	bold, ital bool
	under      uv.Underline
	strike     bool
}

func (p *painter) look(c *uv.Cell) look {
	if c == nil {
		c = &uv.EmptyCell
	}
	fg, bg := p.colours(c)
	l := look{content: c.Content, width: max(c.Width, 1), bg: bg, under: c.Style.Underline, strike: c.Style.Attrs&uv.AttrStrikethrough != 0}
	if l.content == "" {
		l.content = " "
	}
	if l.content != " " || l.under != uv.UnderlineNone || l.strike {
		l.fg = fg
		l.bold = c.Style.Attrs&uv.AttrBold != 0
		l.ital = c.Style.Attrs&uv.AttrItalic != 0
	}
	if l.under != uv.UnderlineNone && c.Style.UnderlineColor != nil {
		l.ul = p.resolve(c.Style.UnderlineColor)
	}
	return l
}

// Differ reports the first cell, in reading order, where two screens of
// the same size would be drawn differently (with the default colours),
// and false when they look the same. Screens of different sizes differ at
// 0, 0.
func Differ(a, b Screen) (x, y int, differ bool) {
	if a.Width() != b.Width() || a.Height() != b.Height() {
		return 0, 0, true
	}
	p := &painter{fg: toRGBA(DefaultFg), bg: toRGBA(DefaultBg), palette: NordPalette}
	for y := range a.Height() {
		for x := range a.Width() {
			if p.look(a.CellAt(x, y)) != p.look(b.CellAt(x, y)) {
				return x, y, true
			}
		}
	}
	return 0, 0, false
}
