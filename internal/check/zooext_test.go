package check

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/mcptui/mcptui/internal/check/rules"
)

// The broken servers of the extensions' rules (rules/table_ext.go):
// the extensions demo (skills with directoryRead, the counter App) behind
// one mutation each.

// extDemo names the unmutated extensions demo (zooOptions(extDemo, era)).
const extDemo = "extdemo"

// entries applies f to every skills/list entry and skills/get's skill.
func entries(f func(e msg)) func(z *zoo, m msg, req msg) []msg {
	return func(z *zoo, m msg, req msg) []msg {
		res := result(m)
		if req == nil || res == nil {
			return []msg{m}
		}
		switch method(req) {
		case "skills/list":
			list, _ := res["skills"].([]any)
			for _, e := range list {
				f(e.(msg))
			}
		case "skills/get":
			if e, ok := res["skill"].(msg); ok {
				f(e)
			}
		}
		return []msg{m}
	}
}

// firstFile applies f to the first file of every entry's resources.
func firstFile(f func(file msg)) func(z *zoo, m msg, req msg) []msg {
	return entries(func(e msg) {
		if rs, ok := e["resources"].([]any); ok && len(rs) > 0 {
			f(rs[0].(msg))
		}
	})
}

// uiTools applies f to the _meta.ui of every tool that has one.
var uiTools = func(f func(ui msg)) func(z *zoo, m msg, req msg) []msg {
	return onResult("tools/list", func(res msg, _ msg) {
		tools, _ := res["tools"].([]any)
		for _, t := range tools {
			if meta, ok := t.(msg)["_meta"].(msg); ok {
				if ui, ok := meta["ui"].(msg); ok {
					f(ui)
				}
			}
		}
	})
}

// uiContent applies f to the UI resource's contents on resources/read.
func uiContent(f func(c msg)) func(z *zoo, m msg, req msg) []msg {
	return onResult("resources/read", func(res msg, req msg) {
		if !strings.HasPrefix(params(req)["uri"].(string), "ui://") {
			return
		}
		cs, _ := res["contents"].([]any)
		for _, c := range cs {
			f(c.(msg))
		}
	})
}

func init() {
	for id, mu := range map[string]mutation{
		// Declares the extension, and no resources capability.
		"skills.resources-capability": {era: e26, out: onResult("server/discover", func(res msg, _ msg) {
			delete(res["capabilities"].(msg), "resources")
		})},
		// SKILL.md left out of its own manifest.
		"skills.entry-shape": {era: e26, out: entries(func(e msg) {
			if rs, ok := e["resources"].([]any); ok && len(rs) > 1 {
				e["resources"] = rs[1:]
			}
		})},
		// The digest of other bytes.
		"skills.digests": {era: e26, out: firstFile(func(f msg) {
			f["digest"] = "sha256:" + strings.Repeat("ab", 32)
		})},
		// A name its path does not end in.
		"skills.uri-name": {era: e26, out: entries(func(e msg) {
			e["frontmatter"].(msg)["name"] = "renamed"
		})},
		// The skill's URI under another scheme (its files keep theirs).
		"skills.uri-scheme": {era: e26, out: onResult("skills/list", func(res msg, _ msg) {
			for _, e := range res["skills"].([]any) {
				e := e.(msg)
				uri := e["uri"].(string)
				alt := strings.Replace(uri, "skill://", "docs://", 1)
				e["uri"] = alt
				for _, f := range e["resources"].([]any) {
					if f := f.(msg); f["uri"] == uri {
						f["uri"] = alt
					}
				}
			}
		}), in: func(z *zoo, m msg) (bool, []msg) {
			// Read docs:// as the demo's skill:// (the digests hold).
			if p := params(m); p != nil {
				if u, ok := p["uri"].(string); ok {
					p["uri"] = strings.Replace(u, "docs://", "skill://", 1)
				}
			}
			return true, nil
		}},
		// skills/get answers a skill it does not serve with a result.
		"skills.get": {era: e26, in: answer(func(m msg) msg {
			if method(m) == "skills/get" && strings.Contains(params(m)["uri"].(string), "no-such") {
				return response(m["id"], msg{"resultType": "complete", "skill": msg{}, "ttlMs": 0, "cacheScope": "private"})
			}
			return nil
		})},
		// Declares directoryRead and answers it -32601.
		"skills.directory-read": {era: e26, in: answer(func(m msg) msg {
			if method(m) == "resources/directory/read" {
				return errResponse(m["id"], -32601, "method not found")
			}
			return nil
		})},

		// A tool's UI at an https:// address.
		"apps.resource-uri": {era: e25, out: uiTools(func(ui msg) {
			ui["resourceUri"] = "https://example.com/counter.html"
		})},
		// visibility a string.
		"apps.tool-meta": {era: e25, out: uiTools(func(ui msg) { ui["visibility"] = "app" })},
		// The tool names a resource the server does not have.
		"apps.resource-exists": {era: e25, out: uiTools(func(ui msg) {
			ui["resourceUri"] = "ui://extdemo/gone.html"
		})},
		// Read back as plain text/html.
		"apps.resource-mime": {era: e25, out: uiContent(func(c msg) { c["mimeType"] = "text/html" })},
		// Listed as text/html.
		"apps.listed-mime": {era: e25, out: onResult("resources/list", func(res msg, _ msg) {
			for _, it := range res["resources"].([]any) {
				if it := it.(msg); strings.HasPrefix(it["uri"].(string), "ui://") {
					it["mimeType"] = "text/html"
				}
			}
		})},
		// A connect domain that smuggles a directive.
		"apps.csp-shape": {era: e25, out: uiContent(func(c msg) {
			c["_meta"] = msg{"ui": msg{"csp": msg{"connectDomains": []any{"https://api.example.com; script-src *"}}}}
		})},
	} {
		mu.ext = true
		zooMutations[id] = mu
	}
}

// extensionRule reports whether id is a rule of the Skills or Apps
// extension: the demo implements neither (TestDemoPassesEveryRule skips
// them), the extensions demo passes them (TestExtensionsDemoPasses).
func extensionRule(id string) bool {
	return strings.HasPrefix(id, "skills.") || strings.HasPrefix(id, "apps.")
}

// TestExtensionsDemoPasses: the extensions demo passes every rule of both
// extensions on each era it speaks where they apply, each judged, none
// skipped.
func TestExtensionsDemoPasses(t *testing.T) {
	t.Parallel()
	for _, era := range []string{e26, e25} {
		t.Run(era, func(t *testing.T) {
			t.Parallel()
			o := zooOptions(extDemo, era)
			o.Rules = []string{"skills", "apps"}
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()
			rep := Run(ctx, o)
			if rep.Error != "" || len(rep.Eras) != 1 {
				t.Fatalf("check: %s (%d eras)", rep.Error, len(rep.Eras))
			}
			want := 0
			for _, r := range rules.ForEra(era) {
				if extensionRule(r.ID) {
					want++
				}
			}
			if got := len(rep.Eras[0].Results); got != want {
				t.Errorf("%d results, want %d", got, want)
			}
			for _, res := range rep.Eras[0].Results {
				if res.Status != Passed {
					t.Errorf("%s %s on the extensions demo: %s %v", res.ID, res.Status, res.Why, res.Seen)
				}
			}
		})
	}
}
