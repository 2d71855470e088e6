package demo

import (
	"context"
	"io"
	"runtime"
	"testing"
)

// TestDrawnImagesMatchTheirConstants holds the image tool's icon and the
// logo's listed size, written out so that the server does not draw them
// at start, to what drawPNG makes. If drawPNG or image/png changes its
// output, put the values printed here into png.go.
func TestDrawnImagesMatchTheirConstants(t *testing.T) {
	if icon := dataURI("image/png", drawPNG(16)); icon != imageIcon {
		t.Errorf("imageIcon is not drawPNG(16); it is now:\n%s", icon)
	}
	if n := len(logoPNG()); n != logoSize {
		t.Errorf("logoSize = %d, but demo://logo.png is %d bytes", logoSize, n)
	}
}

// newServerBytesBudget is what building the server (every tool, prompt
// and resource) may allocate: about 1.3 MB when set (1.8 MB under -race),
// most of it the go-sdk inferring and resolving the tools' schemas; 2.2
// MB (2.7 under -race) when the two pictures were drawn and compressed at
// start, 3.2 MB when their pixels were also set through the color.Color
// interface, an allocation each.
func newServerBytesBudget() uint64 {
	if raceBuild {
		return 2200 << 10
	}
	return 1600 << 10
}

// TestNewServerDrawsNothing: building the server, which every start of
// the demo server does before it answers initialize, draws no picture:
// the logo is drawn at its first read, the icon is a constant.
func TestNewServerDrawsNothing(t *testing.T) {
	build := func() {
		d := &demo{cfg: Config{PageSize: 10}, stderr: &lockedWriter{w: io.Discard}, ctx: context.Background(), shown: map[string]bool{}}
		d.wire = newWire(io.Discard, d.chatf)
		d.newServer()
	}
	build() // the first build fills caches (reflection, schemas) once
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	build()
	runtime.ReadMemStats(&after)
	if n, budget := after.TotalAlloc-before.TotalAlloc, newServerBytesBudget(); n > budget {
		t.Errorf("building the demo server allocated %d bytes, over the budget of %d: is something drawn or computed at start that could wait for its first use?", n, budget)
	} else {
		t.Logf("building the demo server allocated %d bytes", n)
	}
}
