package apps

import (
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcptui/mcptui/mcp"
)

// testBridge is a bridge over a fake session that answers tools/call
// with the tool's name, and records every relayed request.
func testBridge(t *testing.T) (*Bridge, string, *[]string) {
	t.Helper()
	var mu sync.Mutex
	var relayed []string
	b := &Bridge{
		Grace:  time.Millisecond, // the tab's going is final at once
		Tool:   mcp.Tool{Name: "counter", Raw: json.RawMessage(`{"name":"counter"}`)},
		Input:  json.RawMessage(`{"start":1}`),
		Result: json.RawMessage(`{"content":[{"type":"text","text":"count is 1"}]}`),
		HTML:   "<!DOCTYPE html><p>app</p>",
		Tools: map[string]ToolUI{
			"counter":   {ResourceURI: "ui://x/app.html"},
			"increment": {ResourceURI: "ui://x/app.html", Visibility: []string{"app"}},
			"secret":    {Visibility: []string{"model"}},
		},
		Call: func(_ context.Context, method string, params json.RawMessage) (json.RawMessage, error) {
			mu.Lock()
			relayed = append(relayed, method+" "+string(params))
			mu.Unlock()
			return json.RawMessage(`{"content":[{"type":"text","text":"count is 2"}]}`), nil
		},
	}
	url, err := b.Start()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = b.Close() })
	return b, url, &relayed
}

func post(t *testing.T, url, origin, body string) (int, string) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	if origin != "" {
		req.Header.Set("Origin", origin)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

func get(t *testing.T, url string) *http.Response {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { resp.Body.Close() })
	return resp
}

// TestBridgeProtocol drives the host side of the Apps protocol as the
// host page relays it: ui/initialize answered, the tool's input and
// result delivered after initialized, tools/call relayed to the session
// only for tools whose visibility includes "app".
func TestBridgeProtocol(t *testing.T) {
	b, url, relayed := testBridge(t)
	origin := b.origin
	code, body := post(t, url+"rpc", origin, `{"jsonrpc":"2.0","id":1,"method":"ui/initialize","params":{"protocolVersion":"2026-01-26","appInfo":{"name":"counter","version":"1"},"appCapabilities":{}}}`)
	if code != 200 || !strings.Contains(body, `"protocolVersion":"2026-01-26"`) || !strings.Contains(body, `"hostInfo":{"name":"mcptui"`) || !strings.Contains(body, `"serverTools":{}`) {
		t.Fatalf("ui/initialize: %d %s", code, body)
	}
	_, body = post(t, url+"rpc", origin, `{"jsonrpc":"2.0","method":"ui/notifications/initialized"}`)
	if !strings.Contains(body, `"method":"ui/notifications/tool-input","params":{"arguments":{"start":1}}`) || !strings.Contains(body, `"method":"ui/notifications/tool-result","params":{"content":[{"type":"text","text":"count is 1"}]}`) {
		t.Fatalf("initialized delivers: %s", body)
	}
	_, body = post(t, url+"rpc", origin, `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"increment","arguments":{}}}`)
	if !strings.Contains(body, `"id":2,"jsonrpc":"2.0","result":{"content":[{"type":"text","text":"count is 2"}]}`) {
		t.Fatalf("tools/call increment: %s", body)
	}
	_, body = post(t, url+"rpc", origin, `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"secret","arguments":{}}}`)
	if !strings.Contains(body, `"code":-32602`) {
		t.Fatalf("a model-only tool was not refused: %s", body)
	}
	_, body = post(t, url+"rpc", origin, `{"jsonrpc":"2.0","id":4,"method":"ui/open-link","params":{"url":"https://example.com"}}`)
	if !strings.Contains(body, `"code":-32601`) {
		t.Fatalf("ui/open-link: %s", body)
	}
	if len(*relayed) != 1 || !strings.HasPrefix((*relayed)[0], "tools/call ") {
		t.Errorf("relayed %q, want the one tools/call of increment", *relayed)
	}
}

// TestBridgeServesOnlyItsTab: the page and the App under the token only,
// from the address it was opened at; posts only from the page's origin;
// the App under a sandboxing CSP that lets it reach nothing.
func TestBridgeServesOnlyItsTab(t *testing.T) {
	b, url, relayed := testBridge(t)
	if !strings.HasPrefix(url, "http://127.0.0.1:") {
		t.Fatalf("served at %s, not on loopback", url)
	}
	page := get(t, url)
	pb, _ := io.ReadAll(page.Body)
	if page.StatusCode != 200 || !strings.Contains(string(pb), `<iframe id="app" sandbox="allow-scripts" src="app"`) {
		t.Fatalf("page: %d %s", page.StatusCode, pb)
	}
	if csp := page.Header.Get("Content-Security-Policy"); !strings.Contains(csp, "frame-ancestors 'none'") || !strings.Contains(csp, "script-src 'nonce-") {
		t.Errorf("page CSP %q", csp)
	}
	app := get(t, url+"app")
	csp := app.Header.Get("Content-Security-Policy")
	for _, want := range []string{"sandbox allow-scripts", "connect-src 'none'", "default-src 'none'", "object-src 'none'", "frame-src 'none'"} {
		if !strings.Contains(csp, want) {
			t.Errorf("App CSP %q lacks %q", csp, want)
		}
	}
	base := strings.TrimSuffix(url, strings.Split(url, "/")[3]+"/")
	if r := get(t, base); r.StatusCode != 404 {
		t.Errorf("/ answered %d", r.StatusCode)
	}
	if r := get(t, base+"0123456789abcdef0123456789abcdef/app"); r.StatusCode != 404 {
		t.Errorf("another token answered %d", r.StatusCode)
	}
	// A page of another origin, or the App's opaque origin, cannot post.
	for _, o := range []string{"", "null", "http://evil.test", "http://localhost" + strings.TrimPrefix(b.origin, "http://127.0.0.1")} {
		if code, _ := post(t, url+"rpc", o, `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"increment"}}`); code != http.StatusForbidden {
			t.Errorf("a post from origin %q answered %d", o, code)
		}
	}
	// DNS rebinding: another Host header is refused.
	req, _ := http.NewRequest(http.MethodGet, url, nil)
	req.Host = "rebind.test"
	if resp, err := http.DefaultClient.Do(req); err != nil || resp.StatusCode != http.StatusMisdirectedRequest {
		t.Errorf("Host rebind.test: %v %v", resp, err)
	}
	if len(*relayed) != 0 {
		t.Errorf("relayed %q", *relayed)
	}
	if code, _ := post(t, url+"closed", b.origin, ""); code != http.StatusNoContent {
		t.Errorf("closed answered %d", code)
	}
	<-b.Closed()
}

// TestContentSecurityPolicy: declared origins widen the matching
// directives; anything that is not a plain origin is dropped.
func TestContentSecurityPolicy(t *testing.T) {
	m := ParseMeta(json.RawMessage(`{"ui":{"csp":{"connectDomains":["https://api.example.com","'unsafe-eval'","https://x.test; script-src *"],"resourceDomains":["https://*.cdn.test"]},"permissions":{"camera":{}}}}`))
	csp := m.ContentSecurityPolicy()
	for _, want := range []string{"connect-src https://api.example.com;", "script-src 'self' https://*.cdn.test 'unsafe-inline'"} {
		if !strings.Contains(csp, want) {
			t.Errorf("CSP %q lacks %q", csp, want)
		}
	}
	if strings.Contains(csp, "unsafe-eval") || strings.Contains(csp, "x.test") {
		t.Errorf("CSP %q took a source that is not an origin", csp)
	}
	if d := m.Describe(); !strings.Contains(d, "asks for: camera") {
		t.Errorf("Describe %q", d)
	}
}

func TestForTool(t *testing.T) {
	u := ForTool(mcp.Tool{Meta: json.RawMessage(`{"ui":{"resourceUri":"ui://a/b.html","visibility":["model"]}}`)})
	if u.ResourceURI != "ui://a/b.html" || u.AppCallable() {
		t.Errorf("%+v", u)
	}
	if u := ForTool(mcp.Tool{Meta: json.RawMessage(`{"ui/resourceUri":"ui://old"}`)}); u.ResourceURI != "ui://old" || !u.Deprecated || !u.AppCallable() {
		t.Errorf("%+v", u)
	}
}

// TestBridgeAliveDrop: the page's held request dropping (the tab gone
// without a beacon) ends the bridge's wait.
func TestBridgeAliveDrop(t *testing.T) {
	b, url, _ := testBridge(t)
	ctx, cancel := context.WithCancel(context.Background())
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, url+"alive", nil)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	select {
	case <-b.Closed():
		t.Fatal("closed while the page lives")
	default:
	}
	cancel()
	resp.Body.Close()
	<-b.Closed()
}

// holdPage opens the page's held request, as the host page's script does;
// drop ends it as a closing tab does.
func holdPage(t *testing.T, url string) (drop func()) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, url+"alive", nil)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	return func() {
		cancel()
		resp.Body.Close()
	}
}

// TestBridgeStopsWhenTheTabGoes: the page's connection dropping (the tab
// closed) shuts the listener by itself, not only at Close (mcptui's quit):
// the port refuses connections after.
func TestBridgeStopsWhenTheTabGoes(t *testing.T) {
	b, url, _ := testBridge(t)
	drop := holdPage(t, url)
	drop()
	select {
	case <-b.Stopped():
	case <-time.After(60 * time.Second):
		t.Fatal("the bridge still serves 60 s after the tab went")
	}
	select {
	case <-b.Closed():
	default:
		t.Error("stopped, yet Closed is open")
	}
	if c, err := net.Dial("tcp", strings.TrimPrefix(b.origin, "http://")); err == nil {
		c.Close()
		t.Errorf("%s still accepts connections", b.origin)
	}
}

// TestBridgeKeepsAReloadedPage: a page that goes (its beacon, its held
// request dropped) and comes back within the grace, as a reload does,
// keeps the bridge serving.
func TestBridgeKeepsAReloadedPage(t *testing.T) {
	b, url, _ := testBridge(t)
	b.Grace = time.Hour
	first := holdPage(t, url)
	if code, _ := post(t, url+"closed", b.origin, ""); code != http.StatusNoContent {
		t.Fatalf("closed answered %d", code)
	}
	first()
	second := holdPage(t, url)
	defer second()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Errorf("the reloaded page got %d", resp.StatusCode)
	}
	select {
	case <-b.Closed():
		t.Error("the bridge took a reload for a closed tab")
	default:
	}
}
