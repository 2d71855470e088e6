package main

import (
	"bytes"
	"fmt"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcptui/mcptui/internal/testkit/tmuxtest"
	"github.com/mcptui/mcptui/tools/shots/termpng"
)

// demoShotEnv names the file TestDemoScreenshot writes the PNG to; unset,
// it draws the PNG into a temporary directory and only checks it.
const demoShotEnv = "MCPTUI_DEMO_SHOT"

// TestDemoScreenshot is the README's screenshot: the real binary on its
// built-in demo server, in tmux at 160×48, after the README's tour (the
// log tool and then the sample tool called from the catalog, the sampling
// question answered by hand), captured with its colours and drawn by termpng as the scripted
// scenes are. The demo's timers and ages make every run's picture a
// little different, so it is regenerated on purpose, never compared:
//
//	MCPTUI_E2E=1 MCPTUI_DEMO_SHOT=$PWD/screenshots/demo.png go test ./tools/shots -run TestDemoScreenshot
func TestDemoScreenshot(t *testing.T) {
	const w, h = 160, 48
	tmuxtest.Require(t)
	bin := tmuxtest.Build(t)
	command := fmt.Sprintf("env TERM=xterm-256color COLORTERM=truecolor XDG_STATE_HOME=%s XDG_CONFIG_HOME=%s GORACE=atexit_sleep_ms=0 %s --no-bell --demo",
		t.TempDir(), t.TempDir(), bin)
	x := tmuxtest.Start(t, "demo-shot", w, h, command)
	x.WaitFor("● ready")
	x.Keys("E")
	x.WaitFor("6 Catalog", "Tools ")
	pick := func(tool string) {
		x.Keys("/")
		x.Text(tool)
		x.Keys("Enter")
		x.WaitFor("filter " + tool)
		x.Keys("Enter")
		x.WaitFor("Call tool " + tool)
	}
	// The log tool first, for the log view's eight levels; back to the
	// list (the result, then the form), then the tour's sample.
	pick("log")
	x.Keys("C-s")
	x.WaitFor("7 Log (8)", "tools/call log")
	x.Keys("Escape")
	x.WaitFor("Call tool log")
	x.Keys("Escape")
	x.WaitGone("Call tool log")
	pick("sample")
	x.Keys("C-s")
	x.WaitFor("waits for you", "2 Server asks ● 1 waiting for you")
	x.Keys("2")
	x.Keys("Enter")
	x.WaitFor("you are the model")
	reply := "Cursor blinks at dawn / a server asks, I answer / the pipes stay open"
	x.Text(reply)
	x.WaitFor("the pipes stay open")
	x.Keys("C-s")
	x.WaitFor(`The model "mcptui-human" replied`, "2 Server asks (0 waiting)")
	x.WaitUntil("the call ok in pane 1", func(s string) bool {
		for _, l := range strings.Split(s, "\n") {
			if strings.Contains(l, "tools/call") && strings.Contains(l, "sample") && strings.Contains(l, " ok") {
				return true
			}
		}
		return false
	})
	styled := x.Run("capture-pane", "-p", "-e", "-t", "e2e")
	if !strings.Contains(styled, "\x1b[") {
		t.Fatalf("the capture has no colours:\n%s", styled)
	}
	img := termpng.Render(strings.TrimSuffix(styled, "\n"), w, h, termpng.Options{FontSize: defaultFontSize})
	if blank(img) {
		t.Fatal("the screenshot is blank")
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	out := os.Getenv(demoShotEnv)
	if out == "" {
		out = filepath.Join(t.TempDir(), "demo.png")
	}
	if err := os.WriteFile(out, buf.Bytes(), 0o644); err != nil {
		t.Fatalf("writing the screenshot: %v", err)
	}
	t.Logf("wrote %s (%d bytes)", out, buf.Len())
	x.Keys("q")
	x.WaitExit()
}

// blank reports whether every pixel of img is the first one's colour.
func blank(img *image.RGBA) bool {
	first := img.RGBAAt(0, 0)
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			if img.RGBAAt(x, y) != first {
				return false
			}
		}
	}
	return true
}
