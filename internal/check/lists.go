package check

import (
	"encoding/json"

	"github.com/mcptui/mcptui/mcp"
)

// maxPages bounds how many pages of one list are followed.
const maxPages = 100

// list follows a paginated list to its end and judges the cursors: every
// item once, no cursor twice. key is the result member holding the items,
// idOf an item's identity. ok is false when the first page failed.
func (r *run) list(method, key string, idOf func(map[string]json.RawMessage) string) (items []map[string]json.RawMessage, e *mcp.Error) {
	seen := map[string]bool{}
	cursors := map[string]bool{}
	var cursor string
	for page := 0; ; page++ {
		p := map[string]any{}
		if cursor != "" {
			p["cursor"] = cursor
		}
		res, e := r.request(method, p)
		if e != nil {
			if page == 0 {
				return nil, e
			}
			r.fail("pagination.cursors", "%s with cursor %q (its own nextCursor) got %s", method, clip(cursor, 60), describe(e))
			return items, nil
		}
		m := object(res)
		var raw []json.RawMessage
		_ = json.Unmarshal(m[key], &raw)
		for _, it := range raw {
			o := object(it)
			if o == nil {
				o = map[string]json.RawMessage{}
			}
			id := idOf(o)
			if seen[id] {
				r.fail("pagination.cursors", "%s lists %q twice (page %d)", method, clip(id, 60), page+1)
				continue
			}
			seen[id] = true
			items = append(items, o)
		}
		next := m["nextCursor"]
		if next == nil || string(next) == "null" {
			r.pass("pagination.cursors")
			break
		}
		cursor = str(next)
		if !isString(next) || cursor == "" {
			r.fail("pagination.cursors", "%s nextCursor is %s (want a non-empty string or none)", method, clip(string(next), 60))
			break
		}
		if cursors[cursor] {
			r.fail("pagination.cursors", "%s gave the cursor %q twice: the pages loop", method, clip(cursor, 60))
			break
		}
		if page+1 >= maxPages {
			r.fail("pagination.cursors", "%s still had a nextCursor after %d pages", method, maxPages)
			break
		}
		cursors[cursor] = true
	}
	// A cursor the server never issued.
	restore := r.probeAs("pagination.invalid-cursor")
	_, e = r.request(method, map[string]any{"cursor": "mcptui-check-invalid-cursor"})
	restore()
	if !transportGone(e) {
		r.judge("pagination.invalid-cursor", e != nil && e.Code == mcp.CodeInvalidParams,
			"%s with a cursor it never issued got %s (want -32602)", method, describe(e))
	}
	return items, nil
}

func byName(o map[string]json.RawMessage) string { return str(o["name"]) }
func byURI(o map[string]json.RawMessage) string  { return str(o["uri"]) }
func byTemplate(o map[string]json.RawMessage) string {
	return str(o["uriTemplate"])
}
