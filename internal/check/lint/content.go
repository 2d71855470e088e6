package lint

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"mime"
	"regexp"
	"strings"
	"sync"

	"github.com/mcptui/mcptui/internal/protocol"
)

// The shape rules of what results carry: content items, annotations,
// icons and _meta key names.

func isString(raw json.RawMessage) bool { return len(raw) > 0 && raw[0] == '"' }

func isNumber(raw json.RawMessage) bool {
	var f float64
	return len(raw) > 0 && raw[0] != '"' && json.Unmarshal(raw, &f) == nil
}

// content judges one content item (of a tool result or a prompt message).
func (j *judge) content(raw json.RawMessage, where, v string) {
	c := members(raw)
	if c == nil {
		return
	}
	switch str(c["type"]) {
	case "image", "audio":
		if d := c["data"]; d != nil && !validBase64(d) {
			j.fail("content.base64", v, "%s: %s data that is not base64: %s", where, str(c["type"]), clip(d))
		}
		if mt := c["mimeType"]; mt != nil && !validMIME(mt) {
			j.fail("content.mime-type", v, "%s: %s content with mimeType %s", where, str(c["type"]), clip(mt))
		}
	case "resource":
		j.resourceContents(c["resource"], where, v)
	}
	j.annotations(c["annotations"], where, v)
}

// resourceContents judges a resource's contents (read or embedded).
func (j *judge) resourceContents(raw json.RawMessage, where, v string) {
	r := members(raw)
	if r == nil {
		return
	}
	if b := r["blob"]; b != nil && !validBase64(b) {
		j.fail("content.base64", v, "%s: blob of %s is not base64: %s", where, clip(r["uri"]), clip(b))
	}
	j.annotations(r["annotations"], where, v)
}

// validBase64 reports whether raw is a string of standard base64 (padding
// optional: some encoders leave it out, and every client decodes both).
func validBase64(raw json.RawMessage) bool {
	if !isString(raw) {
		return false
	}
	s := strings.TrimRight(str(raw), "=")
	_, err := base64.RawStdEncoding.DecodeString(s)
	return err == nil
}

// validMIME reports whether raw is a string holding type/subtype.
func validMIME(raw json.RawMessage) bool {
	if !isString(raw) {
		return false
	}
	t, _, err := mime.ParseMediaType(str(raw))
	return err == nil && strings.Count(t, "/") == 1 && !strings.HasPrefix(t, "/") && !strings.HasSuffix(t, "/")
}

// annotations judges content or resource annotations.
func (j *judge) annotations(raw json.RawMessage, where, v string) {
	if raw == nil || string(raw) == "null" {
		return
	}
	a := members(raw)
	if a == nil {
		j.fail("content.annotations", v, "%s: annotations is %s, not an object", where, clip(raw))
		return
	}
	if au := a["audience"]; au != nil {
		roles := array(au)
		ok := len(au) > 0 && au[0] == '['
		for _, r := range roles {
			ok = ok && (str(r) == "user" || str(r) == "assistant")
		}
		if !ok {
			j.fail("content.annotations", v, "%s: audience %s (want an array of \"user\" and \"assistant\")", where, clip(au))
		}
	}
	if p := a["priority"]; p != nil {
		var f float64
		if !isNumber(p) || json.Unmarshal(p, &f) != nil || f < 0 || f > 1 {
			j.fail("content.annotations", v, "%s: priority %s (want a number from 0 to 1)", where, clip(p))
		}
	}
	if lm := a["lastModified"]; lm != nil && !isString(lm) {
		j.fail("content.annotations", v, "%s: lastModified %s is not a string", where, clip(lm))
	}
}

// icons judges an icons member.
func (j *judge) icons(raw json.RawMessage, where, v string) {
	if raw == nil {
		return
	}
	for _, ic := range array(raw) {
		i := members(ic)
		src := strings.ToLower(str(i["src"]))
		switch {
		case i == nil || !isString(i["src"]):
			j.fail("basic.icons", v, "%s: an icon without a src string: %s", where, clip(ic))
		case !strings.HasPrefix(src, "https://") && !strings.HasPrefix(src, "http://") && !strings.HasPrefix(src, "data:"):
			j.fail("basic.icons", v, "%s: icon src %s is not an http(s) or data: URI", where, clip(i["src"]))
		case i["theme"] != nil && str(i["theme"]) != "light" && str(i["theme"]) != "dark":
			j.fail("basic.icons", v, "%s: icon theme %s (want light or dark)", where, clip(i["theme"]))
		case i["sizes"] != nil && !validSizes(i["sizes"]):
			j.fail("basic.icons", v, "%s: icon sizes %s (want strings like \"48x48\" or \"any\")", where, clip(i["sizes"]))
		}
	}
}

var iconSize = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^(any|[0-9]+x[0-9]+)$`) })

func validSizes(raw json.RawMessage) bool {
	if raw[0] != '[' {
		return false
	}
	for _, s := range array(raw) {
		if !isString(s) || !iconSize().MatchString(str(s)) {
			return false
		}
	}
	return true
}

// metaKeys judges the key names of a _meta object.
func (j *judge) metaKeys(raw json.RawMessage, where, v string) {
	if len(raw) == 0 {
		return // no _meta, the common case: nothing to decode
	}
	m := members(raw)
	for k := range m {
		if !validMetaKey(k) {
			j.fail("basic.meta-key-names", v, "%s: _meta key %q breaks the key name format", where, clip([]byte(k)))
			return
		}
	}
}

var (
	metaLabel = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z]([A-Za-z0-9-]*[A-Za-z0-9])?$`) })
	metaName  = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^([A-Za-z0-9]([A-Za-z0-9._-]*[A-Za-z0-9])?)?$`) })
)

func validMetaKey(k string) bool {
	name := k
	if i := strings.IndexByte(k, '/'); i >= 0 {
		name = k[i+1:]
		for _, l := range strings.Split(k[:i], ".") {
			if !metaLabel().MatchString(l) {
				return false
			}
		}
	}
	return metaName().MatchString(name)
}

// listed judges the items of a list result: icons and annotations.
func (j *judge) listed(method string, res json.RawMessage, v string) {
	key := map[string]string{protocol.MethodListTools: "tools", protocol.MethodListPrompts: "prompts", protocol.MethodListResources: "resources", protocol.MethodListResourceTemplates: "resourceTemplates"}[method]
	if key == "" {
		return
	}
	for _, it := range array(members(res)[key]) {
		o := members(it)
		if o == nil {
			continue
		}
		where := method + " " + clip(bytes.TrimSpace(firstOf(o["name"], o["uri"])))
		j.icons(o["icons"], where, v)
		for _, f := range []string{"title", "description"} {
			if x := o[f]; x != nil && string(x) != "null" && !isString(x) {
				j.fail("basic.display-fields", v, "%s: %s is %s, not a string", where, f, clip(x))
			}
		}
		if method != protocol.MethodListTools {
			j.annotations(o["annotations"], where, v)
		}
	}
}

func firstOf(a, b json.RawMessage) json.RawMessage {
	if a != nil {
		return a
	}
	return b
}
