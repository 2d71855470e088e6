// Command shots makes the screenshots in screenshots/: the real inspector
// (package ui's Bubble Tea program) driven through scripted scenes and drawn
// to PNG. Run it from anywhere in the repository whenever the UI changes:
//
//	go run ./tools/shots
//
// Each scene feeds model events to the program through a fake backend's
// inbox, the way the live program gets them from the connection, then
// types keys into it; the program draws into an in-memory terminal
// (github.com/charmbracelet/x/vt) at 160×48 with the TrueColor profile, on
// a fixed clock, and the scene ends once the terminal shows exactly the
// frame that a twin model, fed the same events and keys, draws. For each
// scene it writes <name>.png, the styled screen <name>.ansi (cat it in a
// terminal) and the plain <name>.txt, and it writes README.md listing the
// scenes. The output is the same on every run and every machine; it needs
// nothing but Go.
//
// # Why not freeze
//
// The plan was charmbracelet/freeze v0.2.2, pinned as a Go tool. It was
// tried (go1.26.8, linux/amd64) and dropped, for three reasons:
//
//   - Its PNG output rasterizes the SVG with resvg compiled to WASM and run
//     by wazero v1.8.0 (through kanrichan/resvg-go). That pairing is known to
//     die with "fatal error: runtime: split stack overflow" under Go 1.24 and
//     later (freeze issue 203, resvg-go issue 10; resvg-go's fix moves to
//     wazero 1.11, which no freeze release has). The crash did not happen in
//     40 runs here, but it is in the exact code path, and CI runs this.
//   - The columns do not line up, every time: freeze embeds JetBrains Mono
//     in the SVG as a CSS @font-face data URL, which resvg ignores, so the
//     text falls back to whatever font the machine has (here a proportional
//     one), and box-drawing borders, tables and bars drift apart. The PNG
//     then depends on the fonts installed, so it is not deterministic across
//     machines either.
//   - Its ANSI parser ignores bold, faint, reverse video (the answer
//     editor's cursor) and the basic backgrounds 40–47.
//
// Converting freeze's SVG with another pure-Go renderer does not help: none
// of them lays out SVG text. So the screen is drawn directly from the
// emulator's cells by package termpng (tools/shots/termpng): a fixed
// pixel grid, DejaVu Sans Mono (github.com/go-fonts/dejavu, pinned in
// go.mod) with Go Mono as the fallback, and box-drawing, block and braille
// characters drawn as shapes that fill their cells, so borders meet at any
// size.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"time"
)

// config is what one run makes.
type config struct {
	// Out is the directory written; it is created if needed.
	Out string
	// Width and Height are the terminal's size in cells.
	Width, Height int
	// FontSize is the font's size in pixels per em.
	FontSize float64
	// Only, if set, names the one scene to make.
	Only string
	// SceneTimeout bounds each scene; 0 leaves only the run's context.
	SceneTimeout time.Duration
}

func main() {
	var c config
	flag.StringVar(&c.Out, "out", "", "directory to write (default: screenshots/ at the repository's root)")
	flag.IntVar(&c.Width, "width", 160, "terminal width in cells")
	flag.IntVar(&c.Height, "height", 48, "terminal height in cells")
	flag.Float64Var(&c.FontSize, "font-size", defaultFontSize, "font size in pixels")
	flag.StringVar(&c.Only, "scene", "", "make only this scene")
	flag.DurationVar(&c.SceneTimeout, "scene-timeout", time.Minute, "give up on a scene after this long (0: no limit)")
	flag.Parse()
	if c.Out == "" {
		root, err := repoRoot()
		if err != nil {
			fmt.Fprintln(os.Stderr, "shots:", err)
			os.Exit(1)
		}
		c.Out = filepath.Join(root, "screenshots")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	files, err := run(ctx, c)
	for _, f := range files {
		fmt.Println(f)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "shots:", err)
		os.Exit(1)
	}
}

// defaultFontSize makes a 160-column screen about 1.9k pixels wide.
const defaultFontSize = 18

// repoRoot is the nearest directory at or above the working directory
// that holds a go.mod.
func repoRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("no go.mod above the working directory: run it inside the repository, or pass -out")
		}
		dir = parent
	}
}
