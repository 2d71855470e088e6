package httpconn

import (
	"bytes"
	"encoding/json"
	"errors"
	"strconv"

	jsonv2 "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"

	"github.com/mcptui/mcptui/conn"
	"github.com/mcptui/mcptui/internal/jsonscan"
)

// encodeParams turns params into compact JSON (nil for none).
func encodeParams(params any) ([]byte, error) {
	var raw []byte
	switch v := params.(type) {
	case nil:
		return nil, nil
	case json.RawMessage:
		raw = v
	case []byte:
		raw = v
	case jsontext.Value:
		raw = v
	default:
		return jsonv2.Marshal(params)
	}
	if len(raw) == 0 {
		return nil, nil
	}
	v := jsontext.Value(bytes.Clone(raw))
	if err := v.Compact(); err != nil {
		return nil, errors.New("params are not valid JSON")
	}
	return v, nil
}

// encodeRequest is the request's JSON: params with the call options' _meta
// merged in and, for a call WithProgress, the request id as progressToken.
func encodeRequest(id int64, method string, params any, s conn.CallSettings) ([]byte, error) {
	raw, err := encodeParams(params)
	if err != nil {
		return nil, err
	}
	var set [][2][]byte
	if len(s.Meta) > 0 {
		m := jsontext.Value(s.Meta)
		if !m.IsValid() || m.Kind() != '{' {
			return nil, errors.New("WithMeta needs a JSON object")
		}
		_ = jsonscan.EachMember(bytes.TrimSpace(s.Meta), func(_, key, v []byte) error {
			set = append(set, [2][]byte{key, v})
			return nil
		})
	}
	if s.Progress != nil {
		set = append(set, [2][]byte{[]byte(`"progressToken"`), strconv.AppendInt(nil, id, 10)})
	}
	if len(set) > 0 {
		raw, err = mergeMeta(raw, set)
		if err != nil {
			return nil, err
		}
	}
	return appendMessage(nil, rawID(id), method, raw), nil
}

// mergeMeta sets members of params._meta (later ones win).
func mergeMeta(params []byte, set [][2][]byte) ([]byte, error) {
	if params == nil {
		params = []byte(`{}`)
	}
	if params[0] != '{' {
		return nil, errors.New("params must be an object to carry _meta")
	}
	members := map[string]json.RawMessage{}
	var order []string
	var meta []byte
	_ = jsonscan.EachMember(params, func(name, _, v []byte) error {
		if string(name) == "_meta" {
			meta = v
			return nil
		}
		if _, seen := members[string(name)]; !seen {
			order = append(order, string(name))
		}
		members[string(name)] = v
		return nil
	})
	var mb []byte
	mb = append(mb, '{')
	written := map[string]bool{}
	for _, kv := range set {
		written[jsonscan.Unquote(kv[0])] = true
	}
	if len(meta) > 0 && meta[0] == '{' {
		_ = jsonscan.EachMember(meta, func(name, key, v []byte) error {
			if !written[string(name)] {
				mb = append(append(append(append(mb, key...), ':'), v...), ',')
			}
			return nil
		})
	}
	for _, kv := range set {
		mb = append(append(append(append(mb, kv[0]...), ':'), kv[1]...), ',')
	}
	mb[len(mb)-1] = '}'
	out := []byte{'{'}
	for _, name := range order {
		key, _ := jsonv2.Marshal(name)
		out = append(append(append(append(out, key...), ':'), members[name]...), ',')
	}
	out = append(append(out, `"_meta":`...), mb...)
	return append(out, '}'), nil
}

// appendMessage appends a JSON-RPC request (id != nil) or notification.
func appendMessage(b, id []byte, method string, params []byte) []byte {
	b = append(b, `{"jsonrpc":"2.0"`...)
	if id != nil {
		b = append(append(b, `,"id":`...), id...)
	}
	m, _ := jsonv2.Marshal(method)
	b = append(append(b, `,"method":`...), m...)
	if params != nil {
		b = append(append(b, `,"params":`...), params...)
	}
	return append(b, '}')
}

// appendResponse appends a JSON-RPC response to a server request.
func appendResponse(b, id, result []byte, e *conn.Error) []byte {
	b = append(append(append(b, `{"jsonrpc":"2.0","id":`...), id...), ',')
	if e == nil {
		if len(result) == 0 {
			result = []byte(`{}`)
		}
		return append(append(append(b, `"result":`...), result...), '}')
	}
	msg, _ := jsonv2.Marshal(e.Message)
	b = append(append(append(b, `"error":{"code":`...), strconv.Itoa(e.Code)...), `,"message":`...)
	b = append(b, msg...)
	if len(e.Data) > 0 && jsontext.Value(e.Data).IsValid() {
		b = append(append(b, `,"data":`...), e.Data...)
	}
	return append(b, "}}"...)
}
