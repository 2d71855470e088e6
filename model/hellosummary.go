package model

import (
	"encoding/json"
	"slices"
	"strings"
)

// serverInfoMeta is where a 2026-07-28 server/discover result names the
// server.
const serverInfoMeta = "io.modelcontextprotocol/serverInfo"

// helloSummary reads the two results a server introduces itself with, as
// a person would: initialize's (the version it answered, who it is, what
// it offers) and server/discover's (the versions it speaks, who, what).
// ok is false for any other result.
func helloSummary(protocol, supported, capabilities, serverInfo, meta []byte) (string, bool) {
	var parts []string
	switch {
	case kind(protocol) == '"' && kind(capabilities) == '{':
		v, _ := str(protocol)
		parts = append(parts, who(serverInfo), "speaks "+v)
	case kind(supported) == '[' && kind(capabilities) == '{':
		var versions []string
		_ = json.Unmarshal(supported, &versions)
		parts = append(parts, who(member(meta, serverInfoMeta)), "speaks "+strings.Join(versions, " "))
	default:
		return "", false
	}
	if offers := capabilityNames(capabilities); offers != "" {
		parts = append(parts, "offers "+offers)
	} else {
		parts = append(parts, "offers nothing")
	}
	return clip(strings.TrimPrefix(strings.Join(parts, " · "), " · ")), true
}

// who is a server's name and version from its Implementation object.
func who(info []byte) string {
	v, _ := members(info, "name", "version")
	name, _ := str(v[0])
	version, _ := str(v[1])
	return strings.TrimSpace(strings.Join(strings.Fields(name+" "+version), " "))
}

// capabilityNames lists a capabilities object's members, sorted, each with
// the sub-features it turns on in parentheses: "logging, resources
// (subscribe, listChanged), tools".
func capabilityNames(raw []byte) string {
	var caps map[string]json.RawMessage
	if json.Unmarshal(raw, &caps) != nil {
		return ""
	}
	names := make([]string, 0, len(caps))
	for name, v := range caps {
		var sub map[string]json.RawMessage
		_ = json.Unmarshal(v, &sub)
		var on []string
		for s, b := range sub {
			if string(b) == "true" {
				on = append(on, s)
			}
		}
		slices.Sort(on)
		if len(on) > 0 {
			name += " (" + strings.Join(on, ", ") + ")"
		}
		names = append(names, name)
	}
	slices.Sort(names)
	return strings.Join(names, ", ")
}
