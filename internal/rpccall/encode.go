package rpccall

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"

	jsonv2 "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"

	"github.com/mcptui/mcptui/internal/jsonscan"
)

// ErrParamsNotJSON is the error for raw params that are not valid JSON.
var ErrParamsNotJSON = errors.New("params are not valid JSON")

var (
	jsonrpcPrefix = []byte(`{"jsonrpc":"2.0"`)
	emptyObject   = []byte(`{}`)
)

// EncodeParams turns params into one line of JSON; nil means no params.
// Raw JSON (json.RawMessage, []byte, jsontext.Value) is checked and kept as
// it is unless it spans lines; anything else is marshalled.
func EncodeParams(params any) ([]byte, error) {
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
	if !jsontext.Value(raw).IsValid() {
		return nil, ErrParamsNotJSON
	}
	return CompactLine(raw), nil
}

// RequestParams encodes params and merges meta (a JSON object, or nil) into
// params._meta; progressToken, when not 0, is set as _meta.progressToken
// (winning over meta's).
func RequestParams(params any, meta json.RawMessage, progressToken int64) ([]byte, error) {
	raw, err := EncodeParams(params)
	if err != nil {
		return nil, err
	}
	var set []MetaMember
	if len(meta) > 0 {
		i := jsonscan.SkipSpace(meta, 0)
		if !jsontext.Value(meta).IsValid() || i >= len(meta) || meta[i] != '{' {
			return nil, errors.New("WithMeta needs a JSON object")
		}
		_ = jsonscan.EachMember(meta[i:], func(name, _, v []byte) error {
			set = append(set, MetaMember{string(name), CompactLine(v)})
			return nil
		})
	}
	if progressToken != 0 {
		set = append(set, MetaMember{"progressToken", strconv.AppendInt(nil, progressToken, 10)})
	}
	return WithMeta(raw, set)
}

// AppendRequest appends a request or, with id 0, a notification (no
// newline).
func AppendRequest(dst []byte, id int64, method string, params []byte) []byte {
	dst = append(dst, jsonrpcPrefix...)
	if id != 0 {
		dst = append(dst, `,"id":`...)
		dst = strconv.AppendInt(dst, id, 10)
	}
	dst = append(dst, `,"method":`...)
	dst, _ = jsontext.AppendQuote(dst, method)
	if params != nil {
		dst = append(dst, `,"params":`...)
		dst = append(dst, params...)
	}
	return append(dst, '}')
}

// AppendResponse appends a response (no newline) with either result or
// errObj (from EncodeError).
func AppendResponse(dst, id, result, errObj []byte) []byte {
	dst = append(dst, jsonrpcPrefix...)
	dst = append(dst, `,"id":`...)
	dst = append(dst, id...)
	if errObj != nil {
		dst = append(dst, `,"error":`...)
		dst = append(dst, errObj...)
	} else {
		dst = append(dst, `,"result":`...)
		dst = append(dst, result...)
	}
	return append(dst, '}')
}

// EncodeError encodes a JSON-RPC error object; data is left out unless it
// is valid JSON.
func EncodeError(code int, message string, data []byte) []byte {
	b := append([]byte(`{"code":`), strconv.Itoa(code)...)
	b = append(b, `,"message":`...)
	b, _ = jsontext.AppendQuote(b, message)
	if len(data) > 0 && jsontext.Value(data).IsValid() {
		b = append(b, `,"data":`...)
		b = append(b, CompactLine(data)...)
	}
	return append(b, '}')
}

// CompactLine makes valid JSON safe to put on one line.
func CompactLine(v []byte) []byte {
	if bytes.IndexByte(v, '\n') < 0 && bytes.IndexByte(v, '\r') < 0 {
		return v
	}
	c := jsontext.Value(bytes.Clone(v))
	if err := c.Compact(); err != nil {
		return v
	}
	return c
}

// MetaMember is one member to set in params._meta: its name and its value
// as JSON.
type MetaMember struct {
	Key   string
	Value []byte
}

// WithMeta returns params (a JSON object, or nil for none) with the members
// set in its _meta object, later members winning over earlier ones and over
// what _meta already had.
func WithMeta(params []byte, set []MetaMember) ([]byte, error) {
	if len(set) == 0 {
		return params, nil
	}
	if params == nil {
		params = emptyObject
	}
	i := jsonscan.SkipSpace(params, 0)
	if i >= len(params) || params[i] != '{' {
		return nil, fmt.Errorf("params must be a JSON object to carry _meta, not %.20s", params)
	}
	out := make([]byte, 0, len(params)+64)
	out = append(out, '{')
	var meta []byte
	_ = jsonscan.EachMember(params[i:], func(name, k, v []byte) error {
		if string(name) == "_meta" {
			meta = v
			return nil
		}
		out = append(out, k...)
		out = append(out, ':')
		out = append(out, v...)
		out = append(out, ',')
		return nil
	})
	out = append(out, `"_meta":{`...)
	written := 0
	if len(meta) > 0 && meta[0] == '{' {
		_ = jsonscan.EachMember(meta, func(name, k, v []byte) error {
			if laterSets(set, string(name)) {
				return nil
			}
			if written > 0 {
				out = append(out, ',')
			}
			out = append(out, k...)
			out = append(out, ':')
			out = append(out, v...)
			written++
			return nil
		})
	}
	for j, m := range set {
		if laterSets(set[j+1:], m.Key) {
			continue
		}
		if written > 0 {
			out = append(out, ',')
		}
		out, _ = jsontext.AppendQuote(out, m.Key)
		out = append(out, ':')
		out = append(out, m.Value...)
		written++
	}
	return append(out, "}}"...), nil
}

func laterSets(set []MetaMember, key string) bool {
	for _, m := range set {
		if m.Key == key {
			return true
		}
	}
	return false
}

// OurID reads an id this client could have sent: a positive integer
// literal (what the transports number their requests with).
func OurID(raw []byte) (int64, bool) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || len(raw) > 18 || raw[0] == '0' {
		return 0, false
	}
	var n int64
	for _, c := range raw {
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int64(c-'0')
	}
	return n, true
}

// Progress is a notifications/progress decoded; its fields are those of
// conn.Progress, which converts from it.
type Progress struct {
	Progress float64
	Total    float64
	Message  string
	Params   json.RawMessage
}

// ProgressCall is the id of the call a notifications/progress's params
// name in progressToken, if it is one of ours.
func ProgressCall(params []byte) (int64, bool) {
	return OurID(jsonscan.Member(params, "progressToken"))
}

// progressParams is what a progress notification carries.
type progressParams struct {
	Progress float64 `json:"progress"`
	Total    float64 `json:"total"`
	Message  string  `json:"message"`
}

// DecodeProgress reads a notifications/progress's params (members that
// are missing or of the wrong type read as zero).
func DecodeProgress(params []byte) Progress {
	var pp progressParams
	_ = jsonv2.Unmarshal(params, &pp)
	return Progress{Progress: pp.Progress, Total: pp.Total, Message: pp.Message, Params: params}
}

// MatchKey is the key under which an answer finds its request (and a
// cancellation or a progress notification its call): the id as JSON-RPC
// peers match it, so 7, 7.0 and 7e0 are one id, "7" another; a string as
// written; anything else compacted.
func MatchKey(id []byte) string {
	id = bytes.TrimSpace(id)
	if len(id) == 0 {
		return ""
	}
	if id[0] == '"' {
		return string(id)
	}
	if f, err := strconv.ParseFloat(string(id), 64); err == nil && f == float64(int64(f)) {
		return strconv.FormatInt(int64(f), 10)
	}
	v := jsontext.Value(bytes.Clone(id))
	if err := v.Compact(jsonscan.Lenient()...); err != nil {
		return string(id)
	}
	return string(v)
}
