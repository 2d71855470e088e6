package apps

import (
	"context"
	"net"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/mcptui/mcptui/internal/testkit/e2e"
)

// TestBridgeStopsWhenChromiumClosesTheTab: a real browser tab opens the
// App's page and is closed; the bridge notices by itself (nobody calls
// Close, as in the inspector, which keeps running) and shuts its listener.
func TestBridgeStopsWhenChromiumClosesTheTab(t *testing.T) {
	e2e.Require(t) // a browser is end-to-end: MCPTUI_E2E=1
	exe := ""
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			exe = p
			break
		}
	}
	if exe == "" {
		if os.Getenv("CI") == "true" {
			t.Fatal("no chromium in CI: .ci/run installs it (apt-get install -y chromium)")
		}
		t.Skip("no chromium on this machine (apt-get install -y chromium): the tab is not closed in a real browser")
	}
	b, url, _ := testBridge(t)
	opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(exe), chromedp.NoSandbox)
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	defer cancelAlloc()
	bctx, cancelBrowser := chromedp.NewContext(actx)
	defer cancelBrowser()
	if _, err := chromedp.Run(bctx, chromedp.Navigate("about:blank")); err != nil { // the browser's first tab
		t.Fatal(err)
	}
	tab, closeTab := chromedp.NewContext(bctx)
	if _, err := chromedp.Run(tab, chromedp.Navigate(url)); err != nil {
		t.Fatal(err)
	}
	title, err := chromedp.Run(tab, chromedp.Title())
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(title, "counter") {
		t.Fatalf("the page's title is %q", title)
	}
	select {
	case <-b.Closed():
		t.Fatal("the bridge took the open tab for a closed one")
	default:
	}
	closeTab()
	select {
	case <-b.Stopped():
	case <-time.After(60 * time.Second):
		t.Fatal("the bridge still serves 60 s after the tab was closed")
	}
	if c, err := net.Dial("tcp", strings.TrimPrefix(b.origin, "http://")); err == nil {
		c.Close()
		t.Errorf("%s still accepts connections", b.origin)
	}
}
