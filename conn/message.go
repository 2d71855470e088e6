package conn

import (
	"bytes"
	"errors"
	"fmt"
	"strconv"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/mcptui/mcptui/internal/jsonscan"
)

// message is one decoded JSON-RPC line. Its fields are slices of the line.
type message struct {
	id        []byte // raw; nil when absent
	method    string
	hasMethod bool
	params    []byte
	result    []byte
	errObj    []byte
}

// Reasons a line is not a JSON-RPC message.
var (
	errNotJSON       = errors.New("not valid JSON (strict: UTF-8, unique object keys)")
	errBatch         = errors.New("a JSON array (batches are not supported)")
	errEmptyBatch    = errors.New("an empty JSON-RPC batch")
	errNotObject     = errors.New("a JSON value that is not an object")
	errMethodType    = errors.New("method is not a string")
	errNotAMessage   = errors.New("neither a request, a response nor a notification")
	errParamsNotJSON = errors.New("params are not valid JSON")
	errTooDeep       = fmt.Errorf("JSON nested deeper than %d levels, the parser's limit", maxDepth)
)

// maxDepth is the JSON parser's nesting limit (jsontext's).
const maxDepth = 10000

// parseMessage decodes a line strictly: invalid JSON, invalid UTF-8 and
// duplicate object keys anywhere make it unusable.
func parseMessage(line []byte) (message, error) {
	var m message
	if !jsontext.Value(line).IsValid() {
		if jsonscan.DeeperThan(line, maxDepth) {
			return m, errTooDeep
		}
		return m, errNotJSON
	}
	i := jsonscan.SkipSpace(line, 0)
	switch line[i] {
	case '{':
	case '[':
		return m, errBatch
	default:
		return m, errNotObject
	}
	err := jsonscan.EachMember(line[i:], func(name, _, value []byte) error {
		switch string(name) {
		case "id":
			m.id = value
		case "method":
			if value[0] != '"' {
				return errMethodType
			}
			m.method, m.hasMethod = jsonscan.Unquote(value), true
		case "params":
			m.params = value
		case "result":
			m.result = value
		case "error":
			m.errObj = value
		}
		return nil
	})
	if err != nil {
		return message{}, err
	}
	if m.id == nil && !m.hasMethod {
		return message{}, errNotAMessage
	}
	return m, nil
}

// ourID reads an id this client could have sent: a positive integer literal.
func ourID(raw []byte) (int64, bool) {
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

// rpcError decodes a response's error member: an object with an integer code
// and a string message (data optional).
func rpcError(raw []byte) (*Error, bool) {
	if len(raw) == 0 || raw[0] != '{' {
		return nil, false
	}
	e := &Error{}
	var hasCode, hasMessage, bad bool
	_ = jsonscan.EachMember(raw, func(name, _, v []byte) error {
		switch string(name) {
		case "code":
			n, err := strconv.ParseInt(string(v), 10, 64)
			if err != nil {
				bad = true
			}
			e.Code, hasCode = int(n), true
		case "message":
			if v[0] != '"' {
				bad = true
				return nil
			}
			e.Message, hasMessage = jsonscan.Unquote(v), true
		case "data":
			e.Data = v
		}
		return nil
	})
	return e, hasCode && hasMessage && !bad
}

// Wire encoding.

var (
	jsonrpcPrefix = []byte(`{"jsonrpc":"2.0"`)
	emptyObject   = []byte(`{}`)
)

// appendRequest appends a request or, with id 0, a notification line
// (newline included).
func appendRequest(dst []byte, id int64, method string, params []byte) []byte {
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
	return append(dst, "}\n"...)
}

// appendResponse appends a response line with either result or errObj.
func appendResponse(dst, id, result, errObj []byte) []byte {
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
	return append(dst, "}\n"...)
}

// encodeError encodes e as a JSON-RPC error object.
func encodeError(e *Error) []byte {
	b := append([]byte(`{"code":`), strconv.Itoa(e.Code)...)
	b = append(b, `,"message":`...)
	b, _ = jsontext.AppendQuote(b, e.Message)
	if len(e.Data) > 0 && jsontext.Value(e.Data).IsValid() {
		b = append(b, `,"data":`...)
		b = append(b, compactLine(e.Data)...)
	}
	return append(b, '}')
}

// compactLine makes valid JSON safe to put on one line.
func compactLine(v []byte) []byte {
	if bytes.IndexByte(v, '\n') < 0 && bytes.IndexByte(v, '\r') < 0 {
		return v
	}
	c := jsontext.Value(bytes.Clone(v))
	if err := c.Compact(); err != nil {
		return v
	}
	return c
}

// metaMember is one member to set in params._meta.
type metaMember struct {
	key   string
	value []byte
}

// withMeta returns params (a JSON object, or nil for none) with the members
// set in its _meta object, later members winning over earlier ones and over
// what _meta already had.
func withMeta(params []byte, set []metaMember) ([]byte, error) {
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
		if laterSets(set[j+1:], m.key) {
			continue
		}
		if written > 0 {
			out = append(out, ',')
		}
		out, _ = jsontext.AppendQuote(out, m.key)
		out = append(out, ':')
		out = append(out, m.value...)
		written++
	}
	return append(out, "}}"...), nil
}

func laterSets(set []metaMember, key string) bool {
	for _, m := range set {
		if m.key == key {
			return true
		}
	}
	return false
}
