package conn

import (
	"errors"
	"strconv"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/mcptui/mcptui/internal/jsonscan"
	"github.com/mcptui/mcptui/internal/rpccall"
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
var emptyObject = []byte(`{}`)

var (
	errNotJSON     = errors.New("not valid JSON (strict: UTF-8, unique object keys)")
	errBatch       = errors.New("a JSON array (batches are not supported)")
	errEmptyBatch  = errors.New("an empty JSON-RPC batch")
	errNotObject   = errors.New("a JSON value that is not an object")
	errMethodType  = errors.New("method is not a string")
	errNotAMessage = errors.New("neither a request, a response nor a notification")
	errTooDeep     = rpccall.ErrTooDeep
)

// maxDepth is the JSON parser's nesting limit (jsontext's).
const maxDepth = rpccall.MaxDepth

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

// Wire encoding (rpccall's, with the newline that ends a line).

// appendRequest appends a request or, with id 0, a notification line
// (newline included).
func appendRequest(dst []byte, id int64, method string, params []byte) []byte {
	return append(rpccall.AppendRequest(dst, id, method, params), '\n')
}

// appendResponse appends a response line with either result or errObj.
func appendResponse(dst, id, result, errObj []byte) []byte {
	return append(rpccall.AppendResponse(dst, id, result, errObj), '\n')
}

// encodeError encodes e as a JSON-RPC error object.
func encodeError(e *Error) []byte { return rpccall.EncodeError(e.Code, e.Message, e.Data) }
