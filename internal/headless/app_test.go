package headless

import (
	"context"
	"github.com/mcptui/mcptui/internal/testkit/e2e"
	"io"
	"net/http"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/mcptui/mcptui/internal/cli"
)

// watchedBuffer is a writer a test can wait on.
type watchedBuffer struct {
	mu      sync.Mutex
	b       strings.Builder
	changed chan struct{}
}

func newWatched() *watchedBuffer { return &watchedBuffer{changed: make(chan struct{}, 1)} }

func (w *watchedBuffer) Write(p []byte) (int, error) {
	w.mu.Lock()
	w.b.Write(p)
	w.mu.Unlock()
	select {
	case w.changed <- struct{}{}:
	default:
	}
	return len(p), nil
}

func (w *watchedBuffer) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.b.String()
}

// waitFor waits until the output contains every want, or fails.
func (w *watchedBuffer) waitFor(t *testing.T, want ...string) {
	t.Helper()
	deadline := time.After(60 * time.Second)
	for {
		s := w.String()
		missing := ""
		for _, x := range want {
			if !strings.Contains(s, x) {
				missing = x
				break
			}
		}
		if missing == "" {
			return
		}
		select {
		case <-w.changed:
		case <-deadline:
			t.Fatalf("no %q in the output after 60 s:\n%s", missing, s)
		}
	}
}

// startApp runs mcptui app on the extensions demo and returns its output,
// the page's URL and a wait for its exit status.
func startApp(t *testing.T, extra ...string) (*watchedBuffer, string, func() int) {
	t.Helper()
	cfg, err := cli.Parse(args("app", "counter", "--no-open", extra, server("extdemo-good")))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	t.Cleanup(cancel)
	out, errOut := newWatched(), newWatched()
	done := make(chan int, 1)
	go func() { done <- RunApp(ctx, cfg, out, errOut) }()
	out.waitFor(t, "serving it at ")
	url := regexp.MustCompile(`serving it at (\S+)`).FindStringSubmatch(out.String())[1]
	return out, url, func() int {
		select {
		case code := <-done:
			if code != ExitOK {
				t.Logf("stderr: %s", errOut.String())
			}
			return code
		case <-time.After(60 * time.Second):
			t.Fatalf("mcptui app did not end after the tab closed:\n%s", out.String())
			return -1
		}
	}
}

// TestAppBridgeWithoutBrowser drives mcptui app's page as the host page's
// script does (the App's messages posted to rpc, from the page's origin):
// the App initializes, gets the tool's result, its tools/call reaches the
// server through the session and comes back; closing the tab ends it.
func TestAppBridgeWithoutBrowser(t *testing.T) {
	out, url, wait := startApp(t)
	origin := strings.Join(strings.SplitN(url, "/", 4)[:3], "/")
	post := func(path, body string) string {
		req, _ := http.NewRequest(http.MethodPost, url+path, strings.NewReader(body))
		req.Header.Set("Origin", origin)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return string(b)
	}
	if r := post("rpc", `{"jsonrpc":"2.0","id":1,"method":"ui/initialize","params":{"appInfo":{"name":"counter","version":"1.0.0"}}}`); !strings.Contains(r, `"hostInfo"`) {
		t.Fatalf("ui/initialize: %s", r)
	}
	if r := post("rpc", `{"jsonrpc":"2.0","method":"ui/notifications/initialized"}`); !strings.Contains(r, `"text":"count is 0"`) {
		t.Fatalf("initialized did not deliver the tool's result: %s", r)
	}
	if r := post("rpc", `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"increment","arguments":{}}}`); !strings.Contains(r, `"text":"count is 1"`) {
		t.Fatalf("tools/call increment: %s", r)
	}
	post("closed", "")
	if code := wait(); code != ExitOK {
		t.Fatalf("exit %d\n%s", code, out.String())
	}
	for _, want := range []string{"App of counter: ui://extdemo/counter.html", "App counter 1.0.0: ui/initialize", "App → tools/call increment {}", `← {"content":[{"text":"count is 1","type":"text"}]`, "the tab was closed"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}
}

// chromium finds Debian's chromium: absent locally the test is skipped,
// absent in CI (CI=true) it fails.
func chromium(t *testing.T) string {
	e2e.Require(t) // a browser is end-to-end: MCPTUI_E2E=1
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if os.Getenv("CI") == "true" {
		t.Fatal("no chromium in CI: .ci/run installs it (apt-get install -y chromium)")
	}
	t.Skip("no chromium on this machine (apt-get install -y chromium): the App is not opened in a real browser")
	return ""
}

// TestAppInChromium opens the demo's App through mcptui's bridge in a
// real headless Chromium: the App initializes in its sandboxed frame,
// shows the tool's result, a click on its button makes a tools/call that
// mcptui relays to the server, and the frame shows the new count (the App
// says what it shows in a log message). Closing the tab ends mcptui app.
func TestAppInChromium(t *testing.T) {
	exe := chromium(t)
	out, url, wait := startApp(t)
	opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(exe), chromedp.NoSandbox, chromedp.WindowSize(900, 700))
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	defer cancelAlloc()
	bctx, cancelBrowser := chromedp.NewContext(actx)
	defer cancelBrowser()
	if _, err := chromedp.Run(bctx, chromedp.Navigate(url)); err != nil {
		t.Fatal(err)
	}
	out.waitFor(t, "App counter 1.0.0: ui/initialize", "App initialized", "shown: count is 0")
	box, err := chromedp.Run(bctx, chromedp.Evaluate[[]float64](`(() => { const r = document.getElementById("app").getBoundingClientRect(); return [r.left, r.top]; })()`))
	if err != nil {
		t.Fatal(err)
	}
	// The App's button fills the top of its frame.
	if _, err := chromedp.Run(bctx, chromedp.MouseClickXY(box[0]+40, box[1]+20)); err != nil {
		t.Fatal(err)
	}
	out.waitFor(t, "App → tools/call increment {}", "count is 1", "shown: count is 1")
	if path := os.Getenv("MCPTUI_APP_SCREENSHOT"); path != "" {
		png, err := chromedp.Run(bctx, chromedp.FullScreenshot(100))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, png, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// Leaving the page is closing the tab for the bridge (pagehide).
	if _, err := chromedp.Run(bctx, chromedp.Navigate("about:blank")); err != nil {
		t.Fatal(err)
	}
	if code := wait(); code != ExitOK {
		t.Fatalf("exit %d\n%s", code, out.String())
	}
}
