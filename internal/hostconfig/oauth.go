package hostconfig

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"
)

// oauth reads an entry's oauth block: VS Code documents clientId (its
// only member); the coding agent's entries also carry callbackPort and
// scopes (one space-separated string). Other members, wrong types and a
// block on a stdio server are problems, said and otherwise ignored.
func (x *expander) oauth(block map[string]json.RawMessage, t Transport) *OAuth {
	if block == nil {
		return nil
	}
	if t == Stdio {
		x.problems = append(x.problems, "an oauth block on a stdio server: ignored (OAuth is for HTTP servers)")
		return nil
	}
	o := &OAuth{}
	names := make([]string, 0, len(block))
	for name := range block {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		raw := block[name]
		var err error
		switch name {
		case "clientId":
			var v string
			if err = json.Unmarshal(raw, &v); err == nil {
				o.ClientID = x.expand(v)
			}
		case "callbackPort":
			var v int
			if err = json.Unmarshal(raw, &v); err == nil && (v < 1 || v > 65535) {
				err = fmt.Errorf("%d is not a port", v)
			}
			if err == nil {
				o.CallbackPort = v
			}
		case "scopes":
			var v string
			if err = json.Unmarshal(raw, &v); err == nil {
				o.Scopes = strings.Fields(x.expand(v))
			}
		default:
			x.problems = append(x.problems, fmt.Sprintf("oauth.%s is not read by mcptui (it reads clientId, callbackPort and scopes): ignored", name))
			continue
		}
		if err != nil {
			x.problems = append(x.problems, fmt.Sprintf("oauth.%s: %v: ignored", name, err))
		}
	}
	return o
}
