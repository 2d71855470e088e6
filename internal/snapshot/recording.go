package snapshot

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"

	"github.com/mcptui/mcptui/internal/record"
	"github.com/mcptui/mcptui/mcp"

	"github.com/mcptui/mcptui/internal/rpccall"
)

// FromRecording rebuilds the surface a recorded session saw: the
// handshake's answer (initialize or server/discover, else the "ready"
// entry) and the last complete answer to each list, its pages in order.
// A list the session never asked for is left out (unknown, not empty).
func FromRecording(rec *record.Recording) (*Document, error) {
	s := Surface{}
	type pending struct {
		method string
		fresh  bool // no cursor: the list starts again
	}
	asked := map[string]pending{}
	lists := map[string][]json.RawMessage{}
	var handshake bool
	for _, e := range rec.Entries {
		switch e.Type {
		case record.TypeReady:
			s.Protocol = mcp.CanonicalVersion(e.Protocol)
			if handshake {
				continue // the handshake's answer has it all, as sent
			}
			s.Capabilities = e.Capabilities
			s.Instructions = e.Instructions
			if e.Server != nil {
				s.Server, _ = json.Marshal(e.Server)
			}
		case record.TypeSent:
			var m struct {
				ID     json.RawMessage `json:"id"`
				Method string          `json:"method"`
				Params struct {
					Cursor *string `json:"cursor"`
				} `json:"params"`
			}
			if json.Unmarshal(e.Content(), &m) != nil || m.ID == nil || m.Method == "" {
				continue
			}
			asked[rpccall.MatchKey(m.ID)] = pending{method: m.Method, fresh: m.Params.Cursor == nil}
		case record.TypeReceived:
			var m struct {
				ID     json.RawMessage `json:"id"`
				Result json.RawMessage `json:"result"`
			}
			if json.Unmarshal(e.Content(), &m) != nil || m.ID == nil || m.Result == nil {
				continue
			}
			p, ok := asked[rpccall.MatchKey(m.ID)]
			if !ok {
				continue
			}
			delete(asked, rpccall.MatchKey(m.ID))
			switch p.method {
			case mcp.MethodInitialize, mcp.MethodDiscover:
				handshake = true
				var r struct {
					ProtocolVersion   string                     `json:"protocolVersion"`
					SupportedVersions []string                   `json:"supportedVersions"`
					Capabilities      json.RawMessage            `json:"capabilities"`
					ServerInfo        json.RawMessage            `json:"serverInfo"`
					Instructions      string                     `json:"instructions"`
					Meta              map[string]json.RawMessage `json:"_meta"`
				}
				if json.Unmarshal(m.Result, &r) != nil {
					continue
				}
				if r.ProtocolVersion != "" {
					s.Protocol = mcp.CanonicalVersion(r.ProtocolVersion)
				}
				s.Capabilities, s.Instructions = r.Capabilities, r.Instructions
				if r.ServerInfo != nil {
					s.Server = r.ServerInfo
				} else if info := r.Meta[mcp.MetaServerInfo]; info != nil {
					s.Server = info // 2026-07-28: in the discover result's _meta
				}
			}
			for _, l := range Lists {
				if l.Method != p.method {
					continue
				}
				var page map[string]json.RawMessage
				if json.Unmarshal(m.Result, &page) != nil {
					continue
				}
				var items []json.RawMessage
				_ = json.Unmarshal(page[l.Field], &items)
				if p.fresh {
					lists[l.Field] = nil
				}
				lists[l.Field] = append(lists[l.Field], items...)
				if _, more := page["nextCursor"]; !more {
					// The list is whole: it is the one kept until a
					// later one is whole too.
					*s.items(l.Field) = append([]json.RawMessage{}, lists[l.Field]...)
				}
			}
		}
	}
	if s.Protocol == "" {
		return nil, errors.New("the recording holds no handshake (initialize, server/discover or a ready entry)")
	}
	if len(s.Capabilities) > 0 && !json.Valid(s.Capabilities) {
		s.Capabilities = nil
	}
	if err := s.normalize(); err != nil {
		return nil, err
	}
	return &Document{Format: Format, Version: Version, Eras: []Surface{s}}, nil
}

// Load reads a file that is a snapshot or a recording.
func Load(path string) (*Document, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	if rec, err := record.Read(bytes.NewReader(b)); err == nil {
		d, err := FromRecording(rec)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		return d, nil
	}
	d, err := Parse(b)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return d, nil
}
