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
			img.Set(x, y, color.NRGBA{
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
						img.Set(x0+(i*6+col)*cell+dx, y0+row*cell+dy, color.NRGBA{255, 255, 255, 255})
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

// dataURI makes a data: URI of data.
func dataURI(mime string, data []byte) string {
	return "data:" + mime + ";base64," + base64.StdEncoding.EncodeToString(data)
}
