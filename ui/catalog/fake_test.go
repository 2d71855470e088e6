package catalog

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/mcptui/mcptui/conn"
	"github.com/mcptui/mcptui/internal/backend"
	"github.com/mcptui/mcptui/mcp"
)

// fake is a Server with the everything server's recorded lists and canned
// answers.
type fake struct {
	mu        sync.Mutex
	version   string
	noLogging bool // declares no logging capability
	tools     []mcp.Tool
	resources []mcp.Resource
	templates []mcp.ResourceTemplate
	prompts   []mcp.Prompt
	calls     []string
	timeouts  []time.Duration // each call's own timer (0: the default)
	results   map[string]string
	// sequence holds answers given once each, in order, before results.
	sequence map[string][]string
	// tasks is the declared tasks capability (nil: none).
	tasks    json.RawMessage
	listens  []mcp.Filter
	level    string
	progress []conn.Progress
	block    chan struct{}
	notified []string
	// extensions is the declared capabilities.extensions (nil: none).
	extensions json.RawMessage
}

func loadList[T any](dir, name string) []T {
	b, err := os.ReadFile("../../internal/schemaform/testdata/corpus/" + dir + "/" + name)
	if err != nil {
		panic(err)
	}
	var raws []json.RawMessage
	if err := json.Unmarshal(b, &raws); err != nil {
		panic(err)
	}
	out := make([]T, len(raws))
	for i, r := range raws {
		if err := json.Unmarshal(r, &out[i]); err != nil {
			panic(err)
		}
	}
	return out
}

func newFake(dir string) *fake {
	return &fake{
		version:   mcp.Version20251125,
		tools:     loadList[mcp.Tool](dir, "tools.json"),
		resources: loadList[mcp.Resource](dir, "resources.json"),
		templates: loadList[mcp.ResourceTemplate](dir, "templates.json"),
		prompts:   loadList[mcp.Prompt](dir, "prompts.json"),
		results:   map[string]string{},
		sequence:  map[string][]string{},
		tasks:     json.RawMessage(`{"list":{},"cancel":{},"requests":{"tools":{"call":{}}}}`),
	}
}

func (f *fake) ListTools(context.Context) ([]mcp.Tool, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]mcp.Tool(nil), f.tools...), nil
}
func (f *fake) ListResources(context.Context) ([]mcp.Resource, error) {
	return append([]mcp.Resource(nil), f.resources...), nil
}
func (f *fake) ListResourceTemplates(context.Context) ([]mcp.ResourceTemplate, error) {
	return append([]mcp.ResourceTemplate(nil), f.templates...), nil
}
func (f *fake) ListPrompts(context.Context) ([]mcp.Prompt, error) {
	return append([]mcp.Prompt(nil), f.prompts...), nil
}

func (f *fake) Call(ctx context.Context, method string, params any, o backend.CatalogCallOptions) (json.RawMessage, error) {
	b, _ := json.Marshal(params)
	f.mu.Lock()
	f.calls = append(f.calls, method+" "+string(b))
	f.timeouts = append(f.timeouts, o.Timeout)
	block := f.block
	f.mu.Unlock()
	if o.Progress != nil {
		for _, p := range f.progress {
			o.Progress(p)
		}
	}
	if block != nil {
		select {
		case <-block:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	var p struct {
		Name   string `json:"name"`
		TaskID string `json:"taskId"`
	}
	_ = json.Unmarshal(b, &p)
	key := p.Name
	if key == "" {
		key = method
	}
	f.mu.Lock()
	res, ok := f.results[key]
	if q := f.sequence[key]; len(q) > 0 {
		res, ok, f.sequence[key] = q[0], true, q[1:]
	}
	f.mu.Unlock()
	if !ok {
		return nil, &mcp.Error{Code: -32602, Message: "no canned result for " + key}
	}
	return json.RawMessage(res), nil
}

func (f *fake) ReadResource(_ context.Context, uri string) (*mcp.ReadResourceResult, error) {
	var raw string
	switch {
	case strings.HasSuffix(uri, ".png") || strings.Contains(uri, "/blob/"):
		raw = fmt.Sprintf(`{"contents":[{"uri":%q,"mimeType":"image/png","blob":"iVBORw0KGgoAAAANSUhEUgAAAAIAAAADCAIAAAA2iEnWAAAAEklEQVR4nGP4z8DAwMDAwMAAAA8EAf1YY6/LAAAAAElFTkSuQmCC"}]}`, uri)
	case strings.Contains(uri, "missing"):
		return nil, &mcp.Error{Code: -32002, Message: "Resource not found"}
	default:
		raw = fmt.Sprintf(`{"contents":[{"uri":%q,"mimeType":"text/markdown","text":"# Read\n\nThe text of %s."}]}`, uri, uri)
	}
	var r mcp.ReadResourceResult
	if err := json.Unmarshal([]byte(raw), &r); err != nil {
		return nil, err
	}
	r.Raw = json.RawMessage(raw)
	return &r, nil
}

func (f *fake) GetPrompt(_ context.Context, name string, args map[string]string) (*mcp.GetPromptResult, error) {
	b, _ := json.Marshal(args)
	raw := fmt.Sprintf(`{"description":"the %s prompt","messages":[{"role":"user","content":{"type":"text","text":"Arguments: %s"}},{"role":"assistant","content":{"type":"text","text":"Understood."}}]}`, name, strings.ReplaceAll(string(b), `"`, `\"`))
	var r mcp.GetPromptResult
	if err := json.Unmarshal([]byte(raw), &r); err != nil {
		return nil, err
	}
	r.Raw = json.RawMessage(raw)
	return &r, nil
}

func (f *fake) Complete(_ context.Context, ref mcp.Ref, arg, value string, _ map[string]string) (*mcp.CompleteResult, error) {
	all := map[string][]string{"department": {"Engineering", "Marketing", "Sales"}, "resourceId": {"1", "2", "3", "10"}, "name": {"Alice", "Bob"}}[arg]
	var out []string
	for _, v := range all {
		if strings.HasPrefix(strings.ToLower(v), strings.ToLower(value)) {
			out = append(out, v)
		}
	}
	return &mcp.CompleteResult{Values: out}, nil
}

func (f *fake) SetLogLevel(_ context.Context, level string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.level = level
	return nil
}

type fakeSub struct {
	ch       chan mcp.Notification
	accepted json.RawMessage
}

func (s *fakeSub) Next(ctx context.Context) (mcp.Notification, error) {
	select {
	case n := <-s.ch:
		return n, nil
	case <-ctx.Done():
		return mcp.Notification{}, ctx.Err()
	}
}
func (s *fakeSub) Close() error              { return nil }
func (s *fakeSub) Accepted() json.RawMessage { return s.accepted }

func (f *fake) Listen(_ context.Context, flt mcp.Filter) (backend.Subscription, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.listens = append(f.listens, flt)
	b, _ := json.Marshal(flt)
	return &fakeSub{ch: make(chan mcp.Notification), accepted: b}, nil
}

func (f *fake) RootsChanged(context.Context) (string, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if mcp.Stateless(f.version) {
		return "2026-07-28 has no list_changed: the server sees them on its next request", nil
	}
	f.notified = append(f.notified, mcp.NotificationRootsListChanged)
	return "sent notifications/roots/list_changed", nil
}

func (f *fake) Info() backend.CatalogInfo {
	info := backend.CatalogInfo{Version: f.version, Name: "fake", Key: "fake-server",
		Capabilities: mcp.ServerCapabilities{
			Tools:       &mcp.ListChangedCapability{ListChanged: true},
			Prompts:     &mcp.ListChangedCapability{ListChanged: true},
			Resources:   &mcp.ResourcesCapability{Subscribe: true, ListChanged: true},
			Completions: json.RawMessage(`{}`),
			Logging:     json.RawMessage(`{}`),
			Tasks:       f.tasks,
			Extensions:  f.extensions,
		}}
	if f.noLogging {
		info.Capabilities.Logging = nil
	}
	return info
}
