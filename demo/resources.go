package demo

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Resources, templates and subscriptions go through go-sdk: it lists them
// (paginated), matches URIs against templates, answers resources/subscribe
// (legacy) and subscriptions/listen (2026-07-28, with the acknowledgement
// and the subscriptionId tag), and delivers Server.ResourceUpdated to
// either kind of subscriber. The demo adds a clock that ticks while anyone
// listens to it.

const (
	readmeURI  = "demo://readme"
	logoURI    = "demo://logo.png"
	counterURI = "demo://counter"
	clockURI   = "demo://clock"
	secretURI  = "demo://secret"

	colorTemplate  = "demo://colors/{name}"
	memberTemplate = "demo://teams/{team}/members/{member}"
)

func (d *demo) addResources(srv *mcp.Server) {
	for _, r := range d.staticResources() {
		srv.AddResource(r.res, r.read)
	}
	srv.AddResourceTemplate(&mcp.ResourceTemplate{
		URITemplate: colorTemplate, Name: "color", Title: "Colours by name", MIMEType: "application/json",
		Description: "A CSS colour by name, as JSON (hex and RGB). The name completes (completion/complete).",
	}, d.readColor)
	srv.AddResourceTemplate(&mcp.ResourceTemplate{
		URITemplate: memberTemplate, Name: "member", Title: "Team members", MIMEType: "application/json",
		Description: "A member of a team. Both parts complete, and the member list depends on the team chosen (completion context).",
	}, d.readMember)
}

// logoPNG is demo://logo.png, drawn at its first read (its size is
// logoSize).
var logoPNG = sync.OnceValue(func() []byte { return drawPNG(128) })

type staticResource struct {
	res  *mcp.Resource
	read mcp.ResourceHandler
}

func (d *demo) staticResources() []staticResource {
	one := func(c *mcp.ResourceContents) (*mcp.ReadResourceResult, error) {
		return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{c}}, nil
	}
	return []staticResource{{
		&mcp.Resource{
			URI: readmeURI, Name: "readme", Title: "About this demo", MIMEType: "text/markdown",
			Description: "What the demo server offers, in Markdown.",
			Size:        int64(len(readme)),
			Annotations: &mcp.Annotations{Audience: []mcp.Role{"user", "assistant"}, Priority: 0.9},
		},
		func(context.Context, *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
			return &mcp.ReadResourceResult{
				Contents:  []*mcp.ResourceContents{{URI: readmeURI, MIMEType: "text/markdown", Text: readme}},
				Cacheable: mcp.Cacheable{TTLMs: 60_000, CacheScope: "public"},
			}, nil
		},
	}, {
		&mcp.Resource{
			URI: logoURI, Name: "logo.png", Title: "Logo (binary)", MIMEType: "image/png",
			Description: "A 128×128 PNG drawn by the server: a binary (blob) resource.",
			Size:        logoSize,
		},
		func(context.Context, *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
			return one(&mcp.ResourceContents{URI: logoURI, MIMEType: "image/png", Blob: logoPNG()})
		},
	}, {
		&mcp.Resource{
			URI: counterURI, Name: "counter", Title: "Counter", MIMEType: "text/plain",
			Description: "A number that the bump tool increments; subscribe to hear about it.",
		},
		func(context.Context, *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
			d.mu.Lock()
			n := d.counter
			d.mu.Unlock()
			return one(&mcp.ResourceContents{URI: counterURI, MIMEType: "text/plain", Text: fmt.Sprint(n)})
		},
	}, {
		&mcp.Resource{
			URI: secretURI, Name: "secret", Title: "Secret (asks first)", MIMEType: "text/plain",
			Description: "A resource that asks the user to confirm (an elicitation) before it can be read: a multi round-trip resources/read.",
		},
		d.readSecret,
	}, {
		&mcp.Resource{
			URI: clockURI, Name: "clock", Title: "Clock", MIMEType: "text/plain",
			Description: fmt.Sprintf("The server's time. While subscribed, you get notifications/resources/updated every %s.", d.cfg.ClockInterval),
		},
		func(context.Context, *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
			return one(&mcp.ResourceContents{URI: clockURI, MIMEType: "text/plain", Text: time.Now().Format(time.RFC3339Nano)})
		},
	}}
}

// readAny reads one of the demo's own resources, for prompts that embed
// them.
func (d *demo) readAny(ctx context.Context, uri string) (*mcp.ResourceContents, error) {
	req := &mcp.ReadResourceRequest{Params: &mcp.ReadResourceParams{URI: uri}}
	var h mcp.ResourceHandler
	for _, r := range d.staticResources() {
		if r.res.URI == uri {
			h = r.read
		}
	}
	switch {
	case h != nil:
	case strings.HasPrefix(uri, "demo://colors/"):
		h = d.readColor
	case strings.HasPrefix(uri, "demo://teams/"):
		h = d.readMember
	default:
		return nil, mcp.ResourceNotFoundError(uri)
	}
	res, err := h(ctx, req)
	if err != nil {
		return nil, err
	}
	return res.Contents[0], nil
}

// resourceURIs lists the URIs readAny knows, for completion.
func (d *demo) resourceURIs() []string {
	var uris []string
	for _, r := range d.staticResources() {
		uris = append(uris, r.res.URI)
	}
	return append(uris, "demo://colors/teal", "demo://teams/core/members/alice")
}

const readme = `# mcptui demo server

Every tool here shows one thing an MCP inspector has to show:

| tool | shows |
|---|---|
| echo | a plain call |
| progress, slow, burst | progress notifications; cancellation (slow); floods (burst) |
| elicit_form, elicit_url | elicitation, form and URL modes |
| sample, sample_with_tools | sampling, with and without tools |
| roots | the client's roots |
| log, chatter, hostile | logging at every level; stderr; escape sequences |
| image, large, structured | image content; big payloads; structured content |
| fail, rpc_error, exit | tool errors, JSON-RPC errors, a dying server |
| toggle_tool, toggle_resource, toggle_prompt, bump | list changes and resource updates |

Subscribe to demo://clock for a steady stream of updates. Reading
demo://secret, or getting the interview prompt, asks you something first.
`

// readSecret serves demo://secret, which asks first: an input_required
// result on 2026-07-28, an elicitation/create request on legacy sessions
// (go-sdk, see mrtr.go). By hand: the input-required result carries an empty
// contents list, because go-sdk v1.8.0 refuses a resources/read result
// without contents on legacy sessions before its own middleware can answer
// the input request.
func (d *demo) readSecret(_ context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
	reply := func(s string) (*mcp.ReadResourceResult, error) {
		return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: secretURI, MIMEType: "text/plain", Text: s}}}, nil
	}
	version := d.versionOf(req.Params.Meta)
	if !has(req.ClientCapabilities(), capElicitForm) {
		if modern(version) {
			_, err := require(version, req.ClientCapabilities(), capElicitForm)
			return nil, err
		}
		return reply("This client cannot confirm (it did not declare elicitation), so the secret stays secret.")
	}
	r, err := d.roundOf("secret", req.Params.InputResponses, req.Params.RequestState)
	if err != nil {
		return nil, err
	}
	ans := r.elicitAnswer("confirm")
	if ans == nil {
		return &mcp.ReadResourceResult{
			Contents: []*mcp.ResourceContents{},
			InputRequests: mcp.InputRequestMap{"confirm": &mcp.ElicitParams{
				Mode:    "form",
				Message: "Reading demo://secret reveals the secret. Go ahead?",
				RequestedSchema: object{{"type", "object"}, {"properties", object{
					{"reveal", object{{"type", "boolean"}, {"title", "Reveal the secret"}, {"default", false}}},
				}}, {"required", []string{"reveal"}}},
			}},
			RequestState: d.seal(d.state("secret", 1, nil)),
		}, nil
	}
	if ans.Action == "accept" && ans.Content["reveal"] == true {
		return reply("The secret is 42.")
	}
	return reply(fmt.Sprintf("The secret stays secret (the user chose %q).", ans.Action))
}

// readColor serves demo://colors/{name}.
func (d *demo) readColor(_ context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
	uri := req.Params.URI
	name := strings.ToLower(strings.TrimPrefix(uri, "demo://colors/"))
	i := slices.IndexFunc(colors, func(c cssColor) bool { return c.name == name })
	if i < 0 {
		return nil, mcp.ResourceNotFoundError(uri)
	}
	c := colors[i]
	body, _ := json.MarshalIndent(map[string]any{
		"name": c.name, "hex": fmt.Sprintf("#%06x", c.rgb),
		"rgb": []int{c.rgb >> 16, c.rgb >> 8 & 0xff, c.rgb & 0xff},
	}, "", "  ")
	return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: uri, MIMEType: "application/json", Text: string(body)}}}, nil
}

// readMember serves demo://teams/{team}/members/{member}.
func (d *demo) readMember(_ context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
	uri := req.Params.URI
	rest := strings.TrimPrefix(uri, "demo://teams/")
	team, member, ok := strings.Cut(rest, "/members/")
	if !ok || !slices.Contains(teams[team], member) {
		return nil, mcp.ResourceNotFoundError(uri)
	}
	body, _ := json.MarshalIndent(map[string]any{
		"team": team, "member": member, "email": member + "@" + team + ".example",
	}, "", "  ")
	return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: uri, MIMEType: "application/json", Text: string(body)}}}, nil
}

type cssColor struct {
	name string
	rgb  int
}

var colors = []cssColor{
	{"aqua", 0x00ffff}, {"azure", 0xf0ffff}, {"beige", 0xf5f5dc}, {"black", 0x000000},
	{"blue", 0x0000ff}, {"brown", 0xa52a2a}, {"coral", 0xff7f50}, {"crimson", 0xdc143c},
	{"cyan", 0x00ffff}, {"gold", 0xffd700}, {"gray", 0x808080}, {"green", 0x008000},
	{"indigo", 0x4b0082}, {"ivory", 0xfffff0}, {"khaki", 0xf0e68c}, {"lavender", 0xe6e6fa},
	{"lime", 0x00ff00}, {"linen", 0xfaf0e6}, {"magenta", 0xff00ff}, {"maroon", 0x800000},
	{"navy", 0x000080}, {"olive", 0x808000}, {"orange", 0xffa500}, {"orchid", 0xda70d6},
	{"peru", 0xcd853f}, {"pink", 0xffc0cb}, {"plum", 0xdda0dd}, {"purple", 0x800080},
	{"red", 0xff0000}, {"salmon", 0xfa8072}, {"sienna", 0xa0522d}, {"silver", 0xc0c0c0},
	{"tan", 0xd2b48c}, {"teal", 0x008080}, {"tomato", 0xff6347}, {"turquoise", 0x40e0d0},
	{"violet", 0xee82ee}, {"wheat", 0xf5deb3}, {"white", 0xffffff}, {"yellow", 0xffff00},
}

var teams = map[string][]string{
	"core":   {"alice", "arturo", "bob", "bea"},
	"design": {"carol", "chen", "dana"},
	"docs":   {"erin", "emeka", "farah"},
}

// subscribe and unsubscribe are go-sdk's hooks for resources/subscribe and
// resources/unsubscribe, also called for the resourceSubscriptions of a
// subscriptions/listen stream while it lasts.
func (d *demo) subscribe(_ context.Context, req *mcp.SubscribeRequest) error {
	d.chatf("subscribed to %s", req.Params.URI)
	if req.Params.URI == clockURI {
		d.clockSubscribers(+1)
	}
	return nil
}

func (d *demo) unsubscribe(_ context.Context, req *mcp.UnsubscribeRequest) error {
	d.chatf("unsubscribed from %s", req.Params.URI)
	if req.Params.URI == clockURI {
		d.clockSubscribers(-1)
	}
	return nil
}

// clockSubscribers counts subscriptions to demo://clock, running its ticker
// while there are any.
func (d *demo) clockSubscribers(delta int) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.clockSubs = max(0, d.clockSubs+delta)
	switch {
	case d.clockSubs > 0 && d.clockStop == nil:
		ctx, cancel := context.WithCancel(d.ctx)
		d.clockStop = cancel
		d.bg.Go(func() { d.tick(ctx) })
	case d.clockSubs == 0 && d.clockStop != nil:
		d.clockStop()
		d.clockStop = nil
	}
}

// stopClock stops the ticker for good and waits for it, when Serve ends.
func (d *demo) stopClock() {
	d.mu.Lock()
	if d.clockStop != nil {
		d.clockStop()
		d.clockStop = nil
	}
	d.mu.Unlock()
	d.bg.Wait()
}

func (d *demo) tick(ctx context.Context) {
	t := time.NewTicker(d.cfg.ClockInterval)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			_ = d.srv.ResourceUpdated(ctx, &mcp.ResourceUpdatedNotificationParams{URI: clockURI})
		}
	}
}

// setCacheable is go-sdk's hook for the 2026-07-28 ttlMs and cacheScope
// fields: lists may be cached for a few seconds, per client, since the
// toggle_* tools change them.
func setCacheable(_ context.Context, req mcp.Request, c *mcp.Cacheable) {
	switch req.(type) {
	case *mcp.ListToolsRequest, *mcp.ListPromptsRequest, *mcp.ListResourcesRequest, *mcp.ListResourceTemplatesRequest:
		c.TTLMs, c.CacheScope = 5_000, "private"
	}
}
