package demo

import (
	"bytes"
	"encoding/base64"
	"image"
	"image/color"
	"image/png"
)

// drawPNG renders a size×size picture — a colour gradient behind the
// letters "MCP" in a 5×7 pixel font — and encodes it as PNG. It is real
// image data made in Go, so no asset needs to ship with the binary.
func drawPNG(size int) []byte {
	img := image.NewNRGBA(image.Rect(0, 0, size, size))
	for y := range size {
		for x := range size {
			img.SetNRGBA(x, y, color.NRGBA{
				R: uint8(40 + 180*x/size),
				G: uint8(60 + 120*y/size),
				B: uint8(200 - 120*x/size),
				A: 255,
			})
		}
	}
	// "MCP", 3 letters of 5 columns with 1 column of space: 17×7 cells.
	cell := max(1, size/20)
	x0 := (size - 17*cell) / 2
	y0 := (size - 7*cell) / 2
	for i, glyph := range []glyph{glyphM, glyphC, glyphP} {
		for row, bits := range glyph {
			for col := range 5 {
				if bits&(1<<(4-col)) == 0 {
					continue
				}
				for dy := range cell {
					for dx := range cell {
						img.SetNRGBA(x0+(i*6+col)*cell+dx, y0+row*cell+dy, color.NRGBA{255, 255, 255, 255})
					}
				}
			}
		}
	}
	var buf bytes.Buffer
	_ = png.Encode(&buf, img) // cannot fail on an in-memory image and buffer
	return buf.Bytes()
}

// glyph is 7 rows of 5 pixels, the high bit leftmost.
type glyph [7]uint8

var (
	glyphM = glyph{0b10001, 0b11011, 0b10101, 0b10101, 0b10001, 0b10001, 0b10001}
	glyphC = glyph{0b01110, 0b10001, 0b10000, 0b10000, 0b10000, 0b10001, 0b01110}
	glyphP = glyph{0b11110, 0b10001, 0b10001, 0b11110, 0b10000, 0b10000, 0b10000}
)

// imageIcon is the image tool's icon, drawPNG(16) as a data: URI, and
// logoSize is the length of logoPNG (demo://logo.png, drawPNG(128)), which
// resources/list gives: written out, not drawn at start, so a server that
// never shows them does not pay for drawing and compressing them before
// it answers initialize (about half of the demo's own start-up work).
// TestDrawnImagesMatchTheirConstants holds them to what drawPNG makes.
const (
	imageIcon = "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAABAAAAAQCAIAAACQkWg2AAAA10lEQVR4nGLRsDnBzfCTm+EHN8NPHjCJn83CwM5AEmBh4CBVA4k2MP7//98k+hDEfduW+iZGL+Fm+DFlaQpEemZ0HTfDz5ilnUg2MDCcWWpnn7Rr2zxfkAA7w5R5KeVJUyEeLVratCSpnIGBYXdSBsRQJgYGBpOsQwfnuXllbQZpgHiJA4pmZtWhibBATMVOIgHXaTMQTmLgYLCv3MUNNwlOIoHdlUhOApnHjmEDGKW3N6GJsKCbx8GQ0zFnSkM2NJQ66rhR7WTU6CM1adA6pmlvAyAAAP//lkpVdKgGKHQAAAAASUVORK5CYII="
	logoSize  = 756
)

// dataURI makes a data: URI of data.
func dataURI(mime string, data []byte) string {
	return "data:" + mime + ";base64," + base64.StdEncoding.EncodeToString(data)
}
