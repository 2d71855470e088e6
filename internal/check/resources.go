package check

import (
	"encoding/json"
	"net/url"
	"regexp"
	"strings"
	"sync"

	"github.com/mcptui/mcptui/mcp"

	"github.com/mcptui/mcptui/internal/protocol"
)

// resources lists resources and templates, reads each resource, checks
// the templates' RFC 6570 syntax and the not-found error.
func (r *run) resources() {
	if r.cur().Session().Capabilities.Resources == nil {
		r.skip("resources.list-shape", "the server declares no resources")
		return
	}
	items, e := r.list(mcp.MethodListResources, "resources", byURI)
	if transportGone(e) {
		r.skip("resources.list-shape", "resources/list got no answer: "+describe(e))
		return
	}
	if e != nil {
		r.fail("resources.list-shape", "resources/list got %s", describe(e))
		return
	}
	var uris []string
	for _, it := range items {
		ok := isString(it["uri"]) && str(it["uri"]) != "" && isString(it["name"])
		r.judge("resources.list-shape", ok, "a resource with uri %s and name %s", orAbsent(it["uri"]), orAbsent(it["name"]))
		if isString(it["uri"]) {
			r.judge("resources.uri", absoluteURI(str(it["uri"])), "resource URI %s is not an absolute RFC 3986 URI (no scheme)", clip(str(it["uri"]), 100))
		}
		if ok && len(uris) < r.o.MaxItems {
			uris = append(uris, str(it["uri"]))
		}
	}
	if len(items) == 0 {
		r.pass("resources.list-shape")
		r.skip("resources.readable", "the server lists no resources")
	}
	sem := make(chan struct{}, callConcurrency)
	var wg sync.WaitGroup
	for _, uri := range uris {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			r.read(uri)
		}()
	}
	wg.Wait()

	templates, e := r.list(mcp.MethodListResourceTemplates, "resourceTemplates", byTemplate)
	if e == nil {
		for _, t := range templates {
			tmpl := str(t["uriTemplate"])
			r.judge("resources.template-shape", isString(t["uriTemplate"]) && tmpl != "" && isString(t["name"]),
				"a resource template with uriTemplate %s and name %s", orAbsent(t["uriTemplate"]), orAbsent(t["name"]))
			err := validTemplate(tmpl)
			r.judge("resources.templates", isString(t["uriTemplate"]) && err == nil, "uriTemplate %s: %v", orAbsent(t["uriTemplate"]), err)
			if err == nil && len(templateVars(tmpl)) > 0 && r.cur().Session().Capabilities.Completions != nil {
				r.completion(map[string]any{"type": "ref/resource", "uri": tmpl}, templateVars(tmpl)[0])
			}
		}
		if len(templates) == 0 {
			r.skip("resources.templates", "the server lists no resource templates")
			r.skip("resources.template-shape", "the server lists no resource templates")
		}
	}
	r.subscribe(uris)
	r.notFound()
}

// uriScheme is RFC 3986's scheme, then the colon.
var uriScheme = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z][A-Za-z0-9+.\-]*:`) })

// absoluteURI reports whether s is an RFC 3986 URI with a scheme.
func absoluteURI(s string) bool {
	_, err := url.Parse(s)
	return err == nil && uriScheme().MatchString(s) && !strings.ContainsAny(s, " \t\n")
}

// subscribe subscribes to the first resource and unsubscribes again, on
// the initialize era, when the server declares subscribe.
func (r *run) subscribe(uris []string) {
	caps := r.cur().Session().Capabilities.Resources
	if mcp.Stateless(r.era) || caps == nil || !caps.Subscribe {
		r.skip("resources.subscribe", "the server declares no resources.subscribe")
		return
	}
	if len(uris) == 0 {
		r.skip("resources.subscribe", "the server lists no resources to subscribe to")
		return
	}
	for _, method := range []string{protocol.MethodSubscribe, protocol.MethodUnsubscribe} {
		res, e := r.raw(method, map[string]any{"uri": uris[0]})
		if transportGone(e) {
			return
		}
		r.judge("resources.subscribe", e == nil && isObject(res), "%s %q got %s %s", method, clip(uris[0], 80), describe(e), clip(string(res), 80))
	}
}

// read reads one listed resource and judges the answer.
func (r *run) read(uri string) {
	res, e := r.request(mcp.MethodReadResource, map[string]any{"uri": uri})
	if transportGone(e) {
		return
	}
	if e != nil {
		r.fail("resources.readable", "resources/read %q got %s", clip(uri, 80), describe(e))
		return
	}
	r.pass("resources.readable")
	var contents []json.RawMessage
	if json.Unmarshal(object(res)["contents"], &contents) != nil {
		r.fail("resources.read-shape", "resources/read %q answered %s (no contents array)", clip(uri, 80), clip(string(res), 120))
		return
	}
	for _, c := range contents {
		o := object(c)
		if o == nil || !isString(o["uri"]) || (o["text"] == nil) == (o["blob"] == nil) ||
			(o["text"] != nil && !isString(o["text"])) || (o["blob"] != nil && !isString(o["blob"])) {
			r.fail("resources.read-shape", "resources/read %q: a content without uri and exactly one of text or blob: %s", clip(uri, 80), clip(string(c), 120))
			return
		}
	}
	r.pass("resources.read-shape")
}

// notFound reads a URI that no server has.
func (r *run) notFound() {
	const uri = "mcptui-check:///no/such/resource"
	res, e := r.request(mcp.MethodReadResource, map[string]any{"uri": uri})
	if transportGone(e) {
		return
	}
	rule, want := "resources.not-found-32002", -32002
	if mcp.Stateless(r.era) {
		rule, want = "resources.not-found-32602", mcp.CodeInvalidParams
	}
	r.judge(rule, e != nil && e.Code == want, "resources/read of an unknown URI got %s %s (want %d)", describe(e), clip(string(res), 80), want)
}
