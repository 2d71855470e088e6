package check

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/mcptui/mcptui/apps"
	"github.com/mcptui/mcptui/mcp"
	"github.com/mcptui/mcptui/skills"
)

// The official extensions' rules (rules/table_ext.go): Skills where
// the server declares io.modelcontextprotocol/skills, MCP Apps where a
// tool declares a UI resource.

// skillsRules are the Skills extension's rules, skipped together.
var skillsRules = []string{"skills.resources-capability", "skills.entry-shape", "skills.digests",
	"skills.uri-name", "skills.uri-scheme", "skills.get", "skills.directory-read"}

// appsRules are MCP Apps' rules, skipped together.
var appsRules = []string{"apps.resource-uri", "apps.tool-meta", "apps.resource-exists",
	"apps.resource-mime", "apps.listed-mime", "apps.csp-shape"}

// digestForm is a SkillResource's digest: sha256: and 64 lowercase hex.
var digestForm = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^sha256:[0-9a-f]{64}$`) })

func (r *run) skipAll(ids []string, why string) {
	for _, id := range ids {
		r.skip(id, why)
	}
}

// extensions runs both groups, each only where a rule of it applies to
// the era and was asked for.
func (r *run) extensions() {
	if r.judges("skills.") {
		r.skillsExt()
	}
	if r.judges("apps.") {
		r.appsExt()
	}
}

// judges reports whether a rule of this era with the id prefix is to be
// judged (wants asks only when rules were selected).
func (r *run) judges(prefix string) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	for id := range r.results {
		if strings.HasPrefix(id, prefix) {
			return true
		}
	}
	return false
}

// skillsExt lists the skills, judges each entry, reads every listed file
// (up to MaxItems) against its digest and size, asks skills/get for each
// and for one that does not exist, and reads each skill's root directory
// where directoryRead is declared.
func (r *run) skillsExt() {
	caps := r.cur().Session().Capabilities
	d := skills.Declared(caps)
	if !d.Declared {
		r.skipAll(skillsRules, "the server does not declare the "+skills.ExtensionID+" extension")
		return
	}
	r.judge("skills.resources-capability", caps.Resources != nil,
		"the server declares %s but not the resources capability", skills.ExtensionID)
	entries, e := r.skillEntries()
	if transportGone(e) {
		r.skipAll(skillsRules, "skills/list got no answer: "+describe(e))
		return
	}
	if e != nil {
		r.fail("skills.entry-shape", "skills/list got %s", describe(e))
		return
	}
	if len(entries) == 0 {
		r.skipAll(skillsRules, "skills/list lists no skills")
		return
	}
	read := 0
	for _, raw := range entries {
		sk, ok := r.skillEntry(raw)
		if !ok {
			continue
		}
		for _, f := range sk.Files {
			if read >= r.o.MaxItems {
				break
			}
			read++
			r.skillFile(f)
		}
		r.skillGet(sk, raw)
		if d.DirectoryRead {
			r.skillDirectory(sk)
		}
	}
	if !d.DirectoryRead {
		r.skip("skills.directory-read", "the server does not declare directoryRead")
	}
	res, e := r.request("skills/get", map[string]any{"uri": "skill://mcptui-check-no-such-skill/SKILL.md"})
	if !transportGone(e) {
		r.judge("skills.get", e != nil && e.Code == mcp.CodeInvalidParams,
			"skills/get of a skill the server does not serve got %s (want -32602)", orResult(e, res))
	}
}

// orResult describes an answer: the error, or the result when none.
func orResult(e *mcp.Error, res json.RawMessage) string {
	if e != nil {
		return describe(e)
	}
	return "the result " + clip(string(res), 120)
}

// skillEntries pages through skills/list.
func (r *run) skillEntries() ([]json.RawMessage, *mcp.Error) {
	var out []json.RawMessage
	cursor := ""
	for page := 0; page < maxPages; page++ {
		p := map[string]any{}
		if cursor != "" {
			p["cursor"] = cursor
		}
		res, e := r.request("skills/list", p)
		if e != nil {
			if page == 0 {
				return nil, e
			}
			return out, nil
		}
		var list struct {
			Skills     []json.RawMessage `json:"skills"`
			NextCursor string            `json:"nextCursor"`
		}
		if json.Unmarshal(res, &list) != nil || object(res)["skills"] == nil {
			r.fail("skills.entry-shape", "skills/list answered %s (no skills array)", clip(string(res), 120))
			return out, nil
		}
		out = append(out, list.Skills...)
		if list.NextCursor == "" {
			break
		}
		cursor = list.NextCursor
	}
	return out, nil
}

// skillEntry judges one entry's shape and URIs; ok is false when it is too
// malformed to go on with.
func (r *run) skillEntry(raw json.RawMessage) (skills.Skill, bool) {
	var sk skills.Skill
	o := object(raw)
	if o == nil || json.Unmarshal(raw, &sk) != nil {
		r.fail("skills.entry-shape", "a skills/list entry is %s, not an object", clip(string(raw), 120))
		return sk, false
	}
	uri := sk.URI
	fm := object(o["frontmatter"])
	problem := sk.Problem
	switch {
	case problem != "":
	case !isString(o["uri"]) || uri == "":
		problem = "no uri"
	case fm == nil || !isString(fm["name"]) || !isString(fm["description"]):
		problem = "frontmatter is not an object with name and description strings: " + clip(string(o["frontmatter"]), 80)
	case !sk.Dynamic:
		problem = manifestProblem(sk, o["resources"])
	}
	r.judge("skills.entry-shape", problem == "", "skill %q: %s", clip(uri, 80), problem)
	if uri == "" {
		return sk, false
	}
	name := str(fm["name"])
	last := ""
	if root, ok := strings.CutSuffix(uri, "/SKILL.md"); ok {
		last = root[strings.LastIndex(root, "/")+1:]
	}
	r.judge("skills.uri-name", last != "" && last == name,
		"skill %q: the final segment of its path is %q, its frontmatter's name %q", clip(uri, 80), clip(last, 40), clip(name, 40))
	scheme := strings.HasPrefix(uri, "skill://")
	for _, f := range sk.Files {
		scheme = scheme && strings.HasPrefix(f.URI, "skill://")
	}
	r.judge("skills.uri-scheme", scheme, "skill %q: a URI outside the skill:// scheme", clip(uri, 80))
	return sk, problem == ""
}

// manifestProblem says what is wrong with a resources array ("" when
// nothing is): every file once, SKILL.md among them, each under the
// skill's directory, with a sha256 digest and a size.
func manifestProblem(sk skills.Skill, raw json.RawMessage) string {
	var files []json.RawMessage
	if json.Unmarshal(raw, &files) != nil {
		return "resources is " + clip(string(raw), 60) + ", neither an array nor \"dynamic\""
	}
	seen := map[string]bool{}
	root := sk.Root() + "/"
	for _, f := range files {
		o := object(f)
		var size float64
		switch {
		case o == nil || !isString(o["uri"]):
			return "a resource without a uri: " + clip(string(f), 80)
		case !digestForm().MatchString(str(o["digest"])):
			return fmt.Sprintf("%s: digest %s is not sha256: and 64 lowercase hex", str(o["uri"]), clip(string(o["digest"]), 80))
		case !isNumber(o["size"]) || json.Unmarshal(o["size"], &size) != nil || size < 0 || size != float64(int64(size)):
			return fmt.Sprintf("%s: size %s is not a byte count", str(o["uri"]), orAbsent(o["size"]))
		}
		u := str(o["uri"])
		if seen[u] {
			return u + " listed twice"
		}
		seen[u] = true
		if u != sk.URI && !strings.HasPrefix(u, root) {
			return u + " is not within the skill's directory " + root
		}
	}
	if !seen[sk.URI] {
		return "its own SKILL.md (" + sk.URI + ") is not among its resources"
	}
	return ""
}

// skillFile reads one listed file and checks its bytes.
func (r *run) skillFile(f skills.File) {
	res, e := r.request(mcp.MethodReadResource, map[string]any{"uri": f.URI})
	if transportGone(e) {
		return
	}
	if e != nil {
		r.fail("skills.digests", "resources/read of the listed file %q got %s", clip(f.URI, 80), describe(e))
		return
	}
	var rr mcp.ReadResourceResult
	if json.Unmarshal(res, &rr) != nil {
		r.fail("skills.digests", "resources/read of %q answered %s", clip(f.URI, 80), clip(string(res), 120))
		return
	}
	b, _, err := skills.Bytes(&rr, f.URI)
	if err != nil {
		r.fail("skills.digests", "resources/read of %q: %v", clip(f.URI, 80), err)
		return
	}
	v := skills.Verify(f, b)
	r.judge("skills.digests", v.OK, "%s: %s", clip(f.URI, 80), v.Reason)
}

// skillGet asks skills/get for a listed skill: the same entry back.
func (r *run) skillGet(sk skills.Skill, listed json.RawMessage) {
	res, e := r.request("skills/get", map[string]any{"uri": sk.URI})
	if transportGone(e) {
		return
	}
	if e != nil {
		r.fail("skills.get", "skills/get of the listed %q got %s", clip(sk.URI, 80), describe(e))
		return
	}
	got := object(res)["skill"]
	r.judge("skills.get", sameJSON(got, listed), "skills/get of %q answered %s, skills/list %s", clip(sk.URI, 80), clip(string(got), 100), clip(string(listed), 100))
}

// sameJSON compares two JSON values by meaning.
func sameJSON(a, b json.RawMessage) bool {
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return false
	}
	ja, _ := json.Marshal(x)
	jb, _ := json.Marshal(y)
	return string(ja) == string(jb)
}

// skillDirectory reads a skill's root directory (its direct children:
// each under the root, SKILL.md among them) and its SKILL.md as a
// directory (-32602).
func (r *run) skillDirectory(sk skills.Skill) {
	root := sk.Root()
	res, e := r.request("resources/directory/read", map[string]any{"uri": root})
	if transportGone(e) {
		return
	}
	if e != nil {
		r.fail("skills.directory-read", "resources/directory/read of the skill root %q got %s", clip(root, 80), describe(e))
		return
	}
	var dir struct {
		Resources []struct {
			URI string `json:"uri"`
		} `json:"resources"`
	}
	ok := json.Unmarshal(res, &dir) == nil && object(res)["resources"] != nil
	found := false
	for _, c := range dir.Resources {
		rest, under := strings.CutPrefix(c.URI, root+"/")
		ok = ok && under && rest != "" && !strings.Contains(rest, "/")
		found = found || c.URI == sk.URI
	}
	r.judge("skills.directory-read", ok && (found || sk.Dynamic),
		"resources/directory/read of %q answered %s (want its direct children, %s among them)", clip(root, 80), clip(string(res), 160), sk.URI)
	res, e = r.request("resources/directory/read", map[string]any{"uri": sk.URI})
	if !transportGone(e) {
		r.judge("skills.directory-read", e != nil && e.Code == mcp.CodeInvalidParams,
			"resources/directory/read of the file %q got %s (want -32602: not a directory)", clip(sk.URI, 80), orResult(e, res))
	}
}

// appsExt judges every tool that declares a UI and the resources they
// name: read once each.
func (r *run) appsExt() {
	if r.cur().Session().Capabilities.Tools == nil {
		r.skipAll(appsRules, "the server declares no tools")
		return
	}
	tools, e := r.allItems(mcp.MethodListTools, "tools")
	if e != nil {
		r.skipAll(appsRules, "tools/list got "+describe(e))
		return
	}
	var uris []string
	for _, t := range tools {
		meta := object(t["_meta"])
		ui, flat := meta["ui"], meta["ui/resourceUri"]
		if ui == nil && flat == nil {
			continue
		}
		name := clip(str(t["name"]), 60)
		uri := ""
		if ui != nil {
			u := object(ui)
			vis := u["visibility"]
			var v []string
			ok := u != nil && (u["resourceUri"] == nil || isString(u["resourceUri"])) &&
				(vis == nil || json.Unmarshal(vis, &v) == nil && !slices.ContainsFunc(v, func(s string) bool { return s != "model" && s != "app" }))
			r.judge("apps.tool-meta", ok, "tool %q _meta.ui is %s", name, clip(string(ui), 120))
			uri = str(u["resourceUri"])
		}
		if uri == "" {
			uri = str(flat)
		}
		if uri == "" {
			continue
		}
		r.judge("apps.resource-uri", strings.HasPrefix(uri, "ui://"), "tool %q names the UI resource %q, not a ui:// URI", name, clip(uri, 80))
		if !slices.Contains(uris, uri) {
			uris = append(uris, uri)
		}
	}
	if len(uris) == 0 {
		r.skipAll(appsRules, "no tool declares a UI (_meta.ui.resourceUri)")
		return
	}
	listed := map[string]map[string]json.RawMessage{}
	if r.cur().Session().Capabilities.Resources != nil {
		if items, e := r.allItems(mcp.MethodListResources, "resources"); e == nil {
			for _, it := range items {
				listed[str(it["uri"])] = it
			}
		}
	}
	for i, uri := range uris {
		if i >= r.o.MaxItems {
			break
		}
		if it, ok := listed[uri]; ok {
			r.judge("apps.listed-mime", str(it["mimeType"]) == apps.MIMEType,
				"resources/list lists the UI resource %q with mimeType %s", clip(uri, 80), orAbsent(it["mimeType"]))
			if m := object(it["_meta"]); m["ui"] != nil {
				r.cspShape(uri, m["ui"])
			}
		}
		r.uiResource(uri)
	}
}

// allItems pages through a list without the pagination rules' probes.
func (r *run) allItems(method, key string) ([]map[string]json.RawMessage, *mcp.Error) {
	var out []map[string]json.RawMessage
	cursor := ""
	for page := 0; page < maxPages; page++ {
		p := map[string]any{}
		if cursor != "" {
			p["cursor"] = cursor
		}
		res, e := r.request(method, p)
		if e != nil {
			if page == 0 {
				return nil, e
			}
			break
		}
		var raw []json.RawMessage
		_ = json.Unmarshal(object(res)[key], &raw)
		for _, it := range raw {
			if o := object(it); o != nil {
				out = append(out, o)
			}
		}
		cursor = str(object(res)["nextCursor"])
		if cursor == "" {
			break
		}
	}
	return out, nil
}

// uiResource reads one UI resource: it exists, as HTML of the Apps
// profile, its _meta.ui well-formed.
func (r *run) uiResource(uri string) {
	res, e := r.request(mcp.MethodReadResource, map[string]any{"uri": uri})
	if transportGone(e) {
		return
	}
	if e != nil {
		r.fail("apps.resource-exists", "resources/read of the UI resource %q got %s", clip(uri, 80), describe(e))
		return
	}
	var contents []json.RawMessage
	_ = json.Unmarshal(object(res)["contents"], &contents)
	var c map[string]json.RawMessage
	for _, raw := range contents {
		if o := object(raw); o != nil && (str(o["uri"]) == uri || c == nil) {
			c = o
		}
	}
	if c == nil {
		r.fail("apps.resource-exists", "resources/read of the UI resource %q returned no contents: %s", clip(uri, 80), clip(string(res), 120))
		return
	}
	r.pass("apps.resource-exists")
	content := ""
	switch {
	case isString(c["text"]) && c["blob"] == nil:
	case isString(c["blob"]) && c["text"] == nil:
		if _, err := base64.StdEncoding.DecodeString(str(c["blob"])); err != nil {
			content = "a blob that is not base64"
		}
	default:
		content = "neither a text string nor a base64 blob"
	}
	r.judge("apps.resource-mime", str(c["mimeType"]) == apps.MIMEType && content == "",
		"resources/read of %q: mimeType %s%s", clip(uri, 80), orAbsent(c["mimeType"]), strings.TrimSuffix(", "+content, ", "))
	if m := object(c["_meta"]); m["ui"] != nil {
		r.cspShape(uri, m["ui"])
	} else {
		r.pass("apps.csp-shape") // none declared: the restrictive default
	}
}

// cspShape judges a UI resource's _meta.ui.
func (r *run) cspShape(uri string, raw json.RawMessage) {
	problem := uiMetaProblem(raw)
	r.judge("apps.csp-shape", problem == "", "UI resource %q _meta.ui: %s", clip(uri, 80), problem)
}

// uiMetaProblem says what is wrong with a UIResourceMeta ("" when
// nothing is).
func uiMetaProblem(raw json.RawMessage) string {
	ui := object(raw)
	if ui == nil {
		return "not an object: " + clip(string(raw), 80)
	}
	if c := ui["csp"]; c != nil {
		csp := object(c)
		if csp == nil {
			return "csp is " + clip(string(c), 80) + ", not an object"
		}
		for _, k := range []string{"connectDomains", "resourceDomains", "frameDomains", "baseUriDomains"} {
			if csp[k] == nil {
				continue
			}
			var ds []string
			if json.Unmarshal(csp[k], &ds) != nil {
				return fmt.Sprintf("csp.%s is %s, not an array of strings", k, clip(string(csp[k]), 80))
			}
			for _, d := range ds {
				if !cspOrigin(d) {
					return fmt.Sprintf("csp.%s holds %q, not an origin", k, clip(d, 80))
				}
			}
		}
		if w := csp["wasmUnsafeEval"]; w != nil && !isBool(w) {
			return "csp.wasmUnsafeEval is " + clip(string(w), 40) + ", not a boolean"
		}
	}
	if p := ui["permissions"]; p != nil {
		perms := object(p)
		if perms == nil {
			return "permissions is " + clip(string(p), 80) + ", not an object"
		}
		for _, k := range []string{"camera", "microphone", "geolocation", "clipboardWrite"} {
			if v := perms[k]; v != nil && !isObject(v) {
				return fmt.Sprintf("permissions.%s is %s, not an object", k, clip(string(v), 40))
			}
		}
	}
	if d := ui["domain"]; d != nil && !isString(d) {
		return "domain is " + clip(string(d), 40) + ", not a string"
	}
	if b := ui["prefersBorder"]; b != nil && !isBool(b) {
		return "prefersBorder is " + clip(string(b), 40) + ", not a boolean"
	}
	return ""
}

// cspOrigin: scheme://host[:port], the host possibly *.-prefixed; nothing
// a CSP header would read as another source or directive.
var cspOriginForm = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^[a-z][a-z0-9+.-]*://(\*\.)?[A-Za-z0-9.-]+(:[0-9]+)?/?$`)
})

func cspOrigin(s string) bool { return cspOriginForm().MatchString(s) }
