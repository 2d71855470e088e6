package apps

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"html"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/mcptui/mcptui/internal/inert"
	"github.com/mcptui/mcptui/mcp"
)

// Caller relays one request of the App's to the server through the
// session, and returns its result, raw.
type Caller func(ctx context.Context, method string, params json.RawMessage) (json.RawMessage, error)

// Bridge serves one App to one browser tab: a host page on 127.0.0.1 at a
// random port and an unguessable path, which puts the App's HTML in a
// sandboxed frame (scripts only, an opaque origin, the CSP the resource
// declared) and relays the App's postMessage JSON-RPC here, where ui/
// methods are answered and tools/call and resources/read go to the server
// through the session. Nothing else is served.
type Bridge struct {
	// Tool is the tool whose UI this is; Input its arguments and Result
	// the result of the call that opened it (both delivered to the App).
	Tool   mcp.Tool
	Input  json.RawMessage
	Result json.RawMessage
	// HTML is the UI resource's document; Meta its _meta.ui.
	HTML string
	Meta ResourceMeta
	// Tools are the server's tools by name, for the visibility rule: an
	// App may call only the tools whose visibility includes "app".
	Tools map[string]ToolUI
	// Call relays tools/call and resources/read.
	Call Caller
	// Log receives one line per message relayed (already escaped).
	Log func(string)
	// Grace is how long the bridge waits, once the page is gone (its
	// held request dropped, or its pagehide beacon came), for it to come
	// back (a reload) before it stops serving; 0 means DefaultGrace.
	Grace time.Duration

	token   string
	origin  string
	srv     *http.Server
	closed  chan struct{}
	stopped chan struct{}
	once    sync.Once
	stop    sync.Once

	mu    sync.Mutex
	pages int         // the page's held requests open now
	timer *time.Timer // the grace running, or nil
}

// DefaultGrace is Grace's default: a reload comes back well within it.
const DefaultGrace = 3 * time.Second

// maxMessage is the largest message the host page may post.
const maxMessage = 4 << 20

// Start listens on 127.0.0.1 at a random port and returns the page's URL.
func (b *Bridge) Start() (string, error) {
	var tok [16]byte
	if _, err := rand.Read(tok[:]); err != nil {
		return "", fmt.Errorf("apps: a random path: %w", err)
	}
	b.token = hex.EncodeToString(tok[:])
	b.closed = make(chan struct{})
	b.stopped = make(chan struct{})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", fmt.Errorf("apps: listening on 127.0.0.1: %w", err)
	}
	b.origin = "http://" + ln.Addr().String()
	b.srv = &http.Server{Handler: b, ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = b.srv.Serve(ln) }()
	return b.origin + "/" + b.token + "/", nil
}

// Closed is closed when the tab went (or Close ran).
func (b *Bridge) Closed() <-chan struct{} { return b.closed }

// Stopped is closed once the listener is shut: after Close, or by itself
// when the tab went and did not come back within Grace.
func (b *Bridge) Stopped() <-chan struct{} { return b.stopped }

// Close stops serving.
func (b *Bridge) Close() error {
	b.once.Do(func() { close(b.closed) })
	return b.shutdown()
}

// shutdown shuts the listener, once; Stopped is closed after.
func (b *Bridge) shutdown() error {
	if b.srv == nil {
		return nil
	}
	var err error
	b.stop.Do(func() {
		b.mu.Lock()
		if b.timer != nil {
			b.timer.Stop()
		}
		b.mu.Unlock()
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		err = b.srv.Shutdown(ctx)
		if err != nil {
			err = errors.Join(err, b.srv.Close())
		}
		close(b.stopped)
	})
	return err
}

// tabClosed ends the bridge's wait, once.
func (b *Bridge) tabClosed() {
	b.once.Do(func() {
		b.log("the tab was closed")
		close(b.closed)
	})
}

// pageHeld counts one more held request of the page: a page (re)loaded
// within the grace keeps the bridge.
func (b *Bridge) pageHeld() {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.pages++
	if b.timer != nil {
		b.timer.Stop()
		b.timer = nil
	}
}

// pageGone is the page going away: its held request dropped (held=true)
// or its pagehide beacon came. With no held request left the grace
// starts; when it ends with none back, the tab is closed and the listener
// shut.
func (b *Bridge) pageGone(held bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if held {
		b.pages--
	}
	if b.pages > 0 || b.timer != nil {
		return
	}
	grace := b.Grace
	if grace <= 0 {
		grace = DefaultGrace
	}
	var t *time.Timer
	t = time.AfterFunc(grace, func() {
		b.mu.Lock()
		back := b.pages > 0 || b.timer != t
		b.mu.Unlock()
		if back {
			return
		}
		b.tabClosed()
		if err := b.shutdown(); err != nil {
			b.log("stopping the App's page: %v", err)
			return
		}
		b.log("the App's page is no longer served")
	})
	b.timer = t
}

func (b *Bridge) log(format string, a ...any) {
	if b.Log != nil {
		b.Log(inert.Line(fmt.Sprintf(format, a...)))
	}
}

// ServeHTTP serves the four paths under the token, and nothing else.
func (b *Bridge) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	h.Set("Cache-Control", "no-store")
	h.Set("Referrer-Policy", "no-referrer")
	h.Set("X-Content-Type-Options", "nosniff")
	// DNS rebinding: only the address the page was opened at.
	if "http://"+r.Host != b.origin {
		http.Error(w, "wrong host", http.StatusMisdirectedRequest)
		return
	}
	rest, ok := strings.CutPrefix(r.URL.Path, "/"+b.token+"/")
	if !ok {
		http.NotFound(w, r)
		return
	}
	switch {
	case rest == "" && r.Method == http.MethodGet:
		b.page(w)
	case rest == "app" && r.Method == http.MethodGet:
		h.Set("Content-Security-Policy", b.Meta.ContentSecurityPolicy())
		h.Set("Content-Type", "text/html; charset=utf-8")
		_, _ = io.WriteString(w, b.HTML)
	case rest == "rpc" && r.Method == http.MethodPost:
		if r.Header.Get("Origin") != b.origin {
			// Only the host page posts here: the App's frame has an
			// opaque origin ("null") and any other page another origin.
			http.Error(w, "wrong origin", http.StatusForbidden)
			return
		}
		body, err := io.ReadAll(io.LimitReader(r.Body, maxMessage+1))
		if err != nil || len(body) > maxMessage {
			http.Error(w, "message too large or unreadable", http.StatusRequestEntityTooLarge)
			return
		}
		reply, deliver := b.Handle(r.Context(), body)
		out, _ := json.Marshal(struct {
			Reply   json.RawMessage   `json:"reply,omitempty"`
			Deliver []json.RawMessage `json:"deliver,omitempty"`
		}{reply, deliver})
		h.Set("Content-Type", "application/json")
		_, _ = w.Write(out)
	case rest == "alive" && r.Method == http.MethodGet:
		// The page holds this request open while it lives: when the tab
		// goes (closed, navigated away, the browser gone) the connection
		// drops, even where the pagehide beacon is lost.
		if r.Header.Get("Sec-Fetch-Site") != "" && r.Header.Get("Sec-Fetch-Site") != "same-origin" {
			http.Error(w, "wrong origin", http.StatusForbidden)
			return
		}
		h.Set("Content-Type", "text/plain")
		w.WriteHeader(http.StatusOK)
		if f, ok := w.(http.Flusher); ok {
			f.Flush()
		}
		b.pageHeld()
		select {
		case <-r.Context().Done():
			b.pageGone(true)
		case <-b.closed:
		}
	case rest == "closed" && r.Method == http.MethodPost:
		if o := r.Header.Get("Origin"); o != "" && o != b.origin {
			http.Error(w, "wrong origin", http.StatusForbidden)
			return
		}
		b.pageGone(false)
		w.WriteHeader(http.StatusNoContent)
	default:
		http.NotFound(w, r)
	}
}

// message is one JSON-RPC message from the App.
type message struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id,omitempty"`
	Method  string          `json:"method,omitempty"`
	Params  json.RawMessage `json:"params,omitempty"`
}

func response(id json.RawMessage, result any) json.RawMessage {
	b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id, "result": result})
	return b
}

func errorResponse(id json.RawMessage, code int, msg string) json.RawMessage {
	b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id, "error": map[string]any{"code": code, "message": msg}})
	return b
}

func notification(method string, params any) json.RawMessage {
	b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "method": method, "params": params})
	return b
}

// Handle answers one message from the App: reply is the response to a
// request (nil for a notification), deliver the notifications the host
// sends the App now (the tool's input and result, once it initialized).
func (b *Bridge) Handle(ctx context.Context, raw []byte) (reply json.RawMessage, deliver []json.RawMessage) {
	var m message
	if err := json.Unmarshal(raw, &m); err != nil || m.JSONRPC != "2.0" {
		b.log("App sent something that is not JSON-RPC 2.0: dropped")
		return nil, nil
	}
	if m.Method == "" {
		return nil, nil // a response: the host sends the App no requests
	}
	if len(m.ID) == 0 {
		return nil, b.notified(m)
	}
	switch m.Method {
	case uiInitialize:
		var p struct {
			AppInfo struct{ Name, Version string } `json:"appInfo"`
		}
		_ = json.Unmarshal(m.Params, &p)
		b.log("App %s %s: ui/initialize", p.AppInfo.Name, p.AppInfo.Version)
		return response(m.ID, map[string]any{
			"protocolVersion": "2026-01-26",
			"hostInfo":        map[string]any{"name": "mcptui", "version": "1"},
			"hostCapabilities": map[string]any{
				"serverTools": map[string]any{}, "serverResources": map[string]any{}, "logging": map[string]any{},
			},
			"hostContext": map[string]any{
				"toolInfo":              map[string]any{"tool": json.RawMessage(b.Tool.Raw)},
				"displayMode":           "inline",
				"availableDisplayModes": []string{"inline"},
				"platform":              "web",
				"userAgent":             "mcptui",
			},
		}), nil
	case mcp.MethodPing:
		return response(m.ID, map[string]any{}), nil
	case uiRequestDisplayMode:
		return response(m.ID, map[string]any{"mode": "inline"}), nil
	case mcp.MethodCallTool:
		var p struct {
			Name      string          `json:"name"`
			Arguments json.RawMessage `json:"arguments"`
		}
		_ = json.Unmarshal(m.Params, &p)
		ui, known := b.Tools[p.Name]
		if !known || !ui.AppCallable() {
			b.log("App → tools/call %s: refused (not a tool of this server whose visibility includes \"app\")", p.Name)
			return errorResponse(m.ID, mcp.CodeInvalidParams, fmt.Sprintf("tool %q may not be called by an App", p.Name)), nil
		}
		b.log("App → tools/call %s %s", p.Name, compact(p.Arguments))
		return b.relay(ctx, m), nil
	case mcp.MethodReadResource:
		b.log("App → resources/read %s", compact(m.Params))
		return b.relay(ctx, m), nil
	}
	b.log("App asked %s: not done (mcptui relays tools/call and resources/read only)", m.Method)
	return errorResponse(m.ID, mcp.CodeMethodNotFound, "mcptui does not do "+m.Method), nil
}

// relay sends the App's request to the server and answers with what came.
func (b *Bridge) relay(ctx context.Context, m message) json.RawMessage {
	res, err := b.Call(ctx, m.Method, m.Params)
	if err != nil {
		b.log("  ← error: %v", err)
		var e *mcp.Error
		if errors.As(err, &e) {
			return errorResponse(m.ID, e.Code, e.Message)
		}
		return errorResponse(m.ID, -32603, err.Error())
	}
	b.log("  ← %s", compact(res))
	return response(m.ID, res)
}

// The MCP Apps extension's own methods, which an App's view and its host
// speak to each other over the bridge and never to the server: they are
// not methods of the protocol's revisions, so they are named here, in the
// extension's package, rather than in internal/protocol. The MCP methods
// an App may also send (ping, tools/call, resources/read,
// notifications/message) are the protocol's, read from mcp.
const (
	uiInitialize         = "ui/initialize"
	uiRequestDisplayMode = "ui/request-display-mode"
	uiInitialized        = "ui/notifications/initialized"
	uiToolInput          = "ui/notifications/tool-input"
	uiToolResult         = "ui/notifications/tool-result"
	uiSizeChanged        = "ui/notifications/size-changed"
)

// notified handles a notification from the App.
func (b *Bridge) notified(m message) []json.RawMessage {
	switch m.Method {
	case uiInitialized:
		b.log("App initialized: sending the tool's input and result")
		args := b.Input
		if len(args) == 0 {
			args = json.RawMessage(`{}`)
		}
		out := []json.RawMessage{notification(uiToolInput, map[string]any{"arguments": args})}
		if len(b.Result) > 0 {
			out = append(out, notification(uiToolResult, b.Result))
		}
		return out
	case uiSizeChanged:
		return nil
	case mcp.NotificationMessage:
		b.log("App log: %s", compact(m.Params))
		return nil
	}
	b.log("App notification %s %s", m.Method, compact(m.Params))
	return nil
}

// compact is JSON on one line, cut for a terminal line.
func compact(raw json.RawMessage) string {
	s := strings.Join(strings.Fields(string(raw)), " ")
	return inert.Clip(s, 300)
}

// page is the host page: the App's frame and the relay.
func (b *Bridge) page(w http.ResponseWriter) {
	var n [12]byte
	_, _ = rand.Read(n[:])
	nonce := hex.EncodeToString(n[:])
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Content-Security-Policy", "default-src 'none'; script-src 'nonce-"+nonce+"'; style-src 'unsafe-inline'; frame-src 'self'; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'")
	h.Set("X-Frame-Options", "DENY")
	allow := ""
	// Permissions the App asked for are not granted: the frame gets none.
	title := html.EscapeString(b.Tool.Name)
	fmt.Fprintf(w, hostPage, title, html.EscapeString(b.Meta.Describe()), allow, nonce)
}

const hostPage = `<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>mcptui · %[1]s</title>
<style>body{font-family:sans-serif;margin:1em}iframe{border:1px solid #999;width:100%%;height:70vh}</style></head>
<body>
<p>mcptui · the App of <b>%[1]s</b> · <small>%[2]s</small></p>
<iframe id="app" sandbox="allow-scripts" src="app" %[3]s></iframe>
<script nonce="%[4]s">
const frame = document.getElementById("app");
window.addEventListener("message", async (ev) => {
  if (ev.source !== frame.contentWindow) return;
  const msg = ev.data;
  if (!msg || typeof msg !== "object" || msg.jsonrpc !== "2.0") return;
  if (msg.method === "ui/notifications/size-changed" && msg.params && msg.params.height) {
    frame.style.height = Math.min(Number(msg.params.height) || 0, 4000) + "px";
  }
  let out;
  try {
    const r = await fetch("rpc", {method: "POST", headers: {"Content-Type": "application/json"}, body: JSON.stringify(msg)});
    out = await r.json();
  } catch (e) {
    if (msg.id !== undefined) out = {reply: {jsonrpc: "2.0", id: msg.id, error: {code: -32603, message: "mcptui is gone"}}};
    else return;
  }
  if (out.reply) frame.contentWindow.postMessage(out.reply, "*");
  for (const n of out.deliver || []) frame.contentWindow.postMessage(n, "*");
});
window.addEventListener("pagehide", () => navigator.sendBeacon("closed"));
fetch("alive", {cache: "no-store"}).then((r) => r.text()).catch(() => {});
</script>
</body></html>
`
