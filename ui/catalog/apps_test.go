package catalog

import (
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/mcptui/mcptui/mcp"
)

// TestAppKey: a tool declaring an MCP App says so in its details; A calls
// it, serves the App on 127.0.0.1 and hands the address to the opener; the
// App's tools/call goes through the catalog's server like any request and
// its line reaches the Log tab. A on a tool without an App says why not.
func TestAppKey(t *testing.T) {
	f := newFake("demo")
	f.tools = append(f.tools, mcp.Tool{Name: "counter", Description: "A counter with an App.",
		Meta: json.RawMessage(`{"ui":{"resourceUri":"ui://demo/counter.html"}}`), Raw: json.RawMessage(`{"name":"counter"}`)})
	f.results["counter"] = `{"content":[{"type":"text","text":"count is 0"}]}`
	m := newTest(t, f, nil)
	var opened []string
	m.opts.OpenURL = func(u string) error { opened = append(opened, u); return nil }
	selectTool(m, "echo")
	press(m, "A")
	mustContain(t, m, "this tool declares no MCP App")
	selectTool(m, "counter")
	mustContain(t, m, "ui://demo/counter.html", "A calls it and opens its MCP App in your browser")
	press(m, "A")
	if len(opened) != 1 || !strings.HasPrefix(opened[0], "http://127.0.0.1:") {
		t.Fatalf("opened %q", opened)
	}
	mustContain(t, m, "App of counter", "opened in your browser")
	t.Cleanup(m.Stop)

	origin := strings.Join(strings.SplitN(opened[0], "/", 4)[:3], "/")
	req, _ := http.NewRequest(http.MethodPost, opened[0]+"rpc", strings.NewReader(`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"counter","arguments":{}}}`))
	req.Header.Set("Origin", origin)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if !strings.Contains(string(body), "count is 0") {
		t.Fatalf("the App's tools/call answered %s", body)
	}
	n := 0
	for _, c := range f.calls {
		if strings.HasPrefix(c, "tools/call ") && strings.Contains(c, `"counter"`) {
			n++
		}
	}
	if n != 2 {
		t.Errorf("tools/call of counter sent %d times through the catalog, want 2 (the opening call and the App's): %q", n, f.calls)
	}
	// The App's lines (its call, the answer) reach the Log tab. The
	// waiter is a listener the drains leave out: it is run here, once the
	// App's call was answered, so a line is there for it.
	feed(m, m.waitAppLog()())
	m.setTab(Log)
	s := screen(m)
	if !strings.Contains(s, "App: App → tools/call counter {}") && !strings.Contains(s, `App:   ← {"content":[{"type":"text","text":"count is 0"}]}`) {
		t.Errorf("the Log tab has no line of the App's call:\n%s", s)
	}
}
