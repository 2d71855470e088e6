package main

import (
	"bytes"
	"context"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mcptui/mcptui/internal/testkit/e2e"
	"github.com/mcptui/mcptui/tools/shots/termpng"
)

// TestGenerator runs the generator into a temporary directory and checks
// that every scene made a PNG of the expected size that is not blank, with
// its .ansi and .txt, and the index. It does not compare pixels: the
// screenshots change whenever the UI does.
func TestGenerator(t *testing.T) {
	e2e.Require(t)
	// No scene has a clock of its own (the tool's 1-minute -scene-timeout
	// ran out while a scene's scripted typing was still being drawn, under
	// -race on a busy machine): the whole run gets what the test binary has
	// left, as a loaded machine takes minutes.
	c := config{Out: t.TempDir(), Width: 160, Height: 48, FontSize: defaultFontSize}
	ctx, cancel := context.WithCancel(context.Background())
	if dl, ok := t.Deadline(); ok {
		ctx, cancel = context.WithDeadline(context.Background(), dl.Add(-30*time.Second))
	}
	defer cancel()
	files, err := run(ctx, c)
	if err != nil {
		t.Fatal(err)
	}
	cw, ch := termpng.CellSize(c.FontSize)
	pad := 2 * int(c.FontSize)
	wantW, wantH := c.Width*cw+pad, c.Height*ch+pad
	if wantW < 1200 || wantH < 700 {
		t.Errorf("a %d×%d screen is %d×%d pixels: too small to read", c.Width, c.Height, wantW, wantH)
	}
	pngs := 0
	for _, f := range files {
		if !strings.HasSuffix(f, ".png") {
			continue
		}
		pngs++
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if len(b) > 400<<10 {
			t.Errorf("%s is %d KB, over 400 KB", filepath.Base(f), len(b)>>10)
		}
		img, err := png.Decode(bytes.NewReader(b))
		if err != nil {
			t.Fatalf("%s: %v", filepath.Base(f), err)
		}
		if got := img.Bounds().Size(); got != image.Pt(wantW, wantH) {
			t.Errorf("%s is %v pixels, want %dx%d", filepath.Base(f), got, wantW, wantH)
		}
		if n := colours(img); n < 8 {
			t.Errorf("%s has %d colours: blank?", filepath.Base(f), n)
		}
		base := strings.TrimSuffix(f, ".png")
		txt, err := os.ReadFile(base + ".txt")
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(txt), "mcptui") {
			t.Errorf("%s.txt does not show the header:\n%s", filepath.Base(base), txt)
		}
		if _, err := os.Stat(base + ".ansi"); err != nil {
			t.Error(err)
		}
	}
	if want := len(scenes()); pngs != want {
		t.Errorf("%d PNGs, want %d", pngs, want)
	}
	if _, err := os.Stat(filepath.Join(c.Out, "README.md")); err != nil {
		t.Error(err)
	}
}

// TestHostileInert checks that the hostile scene's screen holds no escape
// sequence beyond colours: everything the server sent is spelled out.
func TestHostileInert(t *testing.T) {
	var sc scene
	for _, s := range scenes() {
		if s.name == "hostile" {
			sc = s
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	if dl, ok := t.Deadline(); ok {
		ctx, cancel = context.WithDeadline(context.Background(), dl.Add(-30*time.Second))
	}
	defer cancel()
	screen, err := shoot(ctx, sc, 160, 48, 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`shady\x1b[5m\x1b]0;pwned\x07`, `\x1b]52;c;cm0gLXJmIH4=\x07`, `\u202e`} {
		if !strings.Contains(screen, want) {
			t.Errorf("the screen does not spell out %s", want)
		}
	}
}

// colours counts the distinct colours of an image, up to 1000.
func colours(img image.Image) int {
	seen := map[[3]uint32]bool{}
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y += 3 {
		for x := b.Min.X; x < b.Max.X; x += 3 {
			r, g, bl, _ := img.At(x, y).RGBA()
			seen[[3]uint32{r, g, bl}] = true
			if len(seen) >= 1000 {
				return len(seen)
			}
		}
	}
	return len(seen)
}
