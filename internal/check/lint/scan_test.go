package lint

import (
	"bytes"
	"encoding/json"
	"reflect"
	"runtime"
	"strings"
	"testing"
)

// scanCases are JSON texts on which the in-place readings must answer
// what encoding/json does.
var scanCases = []string{
	`{}`, `null`, `"s"`, `5`, `[]`, `[1,"a",{"b":[2]},null]`, ` {"a":1} `,
	`{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"hi"}]}}`,
	`{"JSONRPC":"2.0","Id":1,"RESULT":{}}`, `{"jsonrpc":"2.0","jsonrpc":null}`, `{"jsonrpc":2}`,
	`{"method":"a","method":5,"method":"b"}`, `{"id":null,"error":{"code":-32600}}`,
	`{"resultType":"complete","ttlMs":"x"}`, `{"resultType":null,"ttlMs":5,"cacheScope":"public","_meta":{"a/b":1}}`,
	`{"ResultType":"task","resulttype":"input_required"}`, `{"structuredContent":{"a":1},"isError":"yes"}`,
	`{"isError":true,"structuredContent":null}`, `{"tools":[{"name":"a","outputSchema":{"type":"object"}},null,{"NAME":"b"}]}`,
	`{"tools":null}`, `{"tools":{}}`, `{"tools":[{"name":5}]}`, `{"tools":[1]}`, `{"Tools":[],"tools":[{"name":"x","name":"y"}]}`, `{"a\u0062":1,"ab":2}`, `{"\ud800":1}`, `"\ud800x"`, `"a\nb"`,
	"{\"\xff\":\"\xfe\"}", "\"\xffx\"", `{"a":{"b":"c"},"a":[1]}`, `{"k":1,"K":2}`, `{"\u212a":1}`,
}

func TestScanReadsAsEncodingJSON(t *testing.T) {
	for _, c := range scanCases {
		sameAsEncodingJSON(t, []byte(c))
	}
}

func FuzzScanReadsAsEncodingJSON(f *testing.F) {
	for _, c := range scanCases {
		f.Add([]byte(c))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		if json.Valid(b) {
			sameAsEncodingJSON(t, bytes.TrimSpace(b))
		}
	})
}

// sameAsEncodingJSON holds members, array, str and decodeFields (for the
// structs the rules read) to json.Unmarshal on valid JSON b.
func sameAsEncodingJSON(t *testing.T, b []byte) {
	t.Helper()
	var m map[string]json.RawMessage
	if len(b) == 0 || b[0] != '{' || json.Unmarshal(b, &m) != nil {
		m = nil
	}
	if got := members(b); !reflect.DeepEqual(norm(got), norm(m)) {
		t.Errorf("members(%q) = %q, encoding/json %q", b, got, m)
	}
	var a []json.RawMessage
	_ = json.Unmarshal(b, &a)
	if got := array(b); len(got) != len(a) || (len(a) > 0 && !reflect.DeepEqual(got, a)) {
		t.Errorf("array(%q) = %q, encoding/json %q", b, got, a)
	}
	var s string
	_ = json.Unmarshal(b, &s)
	if got := str(b); got != s {
		t.Errorf("str(%q) = %q, encoding/json %q", b, got, s)
	}
	var want, got message
	werr := json.Unmarshal(b, &want)
	if gerr := got.decode(b); (gerr == nil) != (werr == nil) || werr == nil && !reflect.DeepEqual(got, want) {
		t.Errorf("message of %q = %+v (%v), encoding/json %+v (%v)", b, got, gerr, want, werr)
	}
	type top struct {
		ResultType    *string         `json:"resultType"`
		TTL           *float64        `json:"ttlMs"`
		CacheScope    *string         `json:"cacheScope"`
		InputRequests json.RawMessage `json:"inputRequests"`
		RequestState  json.RawMessage `json:"requestState"`
		Meta          json.RawMessage `json:"_meta"`
	}
	var wt, gt top
	werr = json.Unmarshal(b, &wt)
	gerr := decodeFields(b, at("resultType", &gt.ResultType), at("ttlMs", &gt.TTL), at("cacheScope", &gt.CacheScope),
		at("inputRequests", &gt.InputRequests), at("requestState", &gt.RequestState), at("_meta", &gt.Meta))
	if (gerr == nil) != (werr == nil) || werr == nil && !reflect.DeepEqual(gt, wt) {
		t.Errorf("result of %q = %+v (%v), encoding/json %+v (%v)", b, gt, gerr, wt, werr)
	}
	var wl struct {
		Tools []listedTool `json:"tools"`
	}
	werr = json.Unmarshal(b, &wl)
	gl, gok := toolsOf(b)
	if gok != (werr == nil) || werr == nil && len(gl)+len(wl.Tools) > 0 && !reflect.DeepEqual(gl, wl.Tools) {
		t.Errorf("tools of %q = %+v (%v), encoding/json %+v (%v)", b, gl, gok, wl.Tools, werr)
	}
	type cr struct {
		Structured json.RawMessage `json:"structuredContent"`
		IsError    bool            `json:"isError"`
	}
	var wc, gc cr
	werr = json.Unmarshal(b, &wc)
	gerr = decodeFields(b, at("structuredContent", &gc.Structured), at("isError", &gc.IsError))
	if (gerr == nil) != (werr == nil) || werr == nil && !reflect.DeepEqual(gc, wc) {
		t.Errorf("tool result of %q = %+v (%v), encoding/json %+v (%v)", b, gc, gerr, wc, werr)
	}
}

// norm is m with empty and nil alike (DeepEqual tells them apart).
func norm(m map[string]json.RawMessage) map[string]string {
	if len(m) == 0 {
		return nil
	}
	out := map[string]string{}
	for k, v := range m {
		out[k] = string(v)
	}
	return out
}

// TestLargeResultReadInPlace: a big tool result is checked once and read
// in place, not decoded and copied at each depth the rules read it (they
// copied a 15 MiB result about a dozen times): judging an 8 MiB one
// allocates well under one copy of it, and finds what it found before.
func TestLargeResultReadInPlace(t *testing.T) {
	const size = 8 << 20
	text := bytes.Repeat([]byte("x"), size)
	line := []byte(`{"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"text","text":"` + string(text) +
		`"},{"type":"image","data":"!!","mimeType":"image/png"}],"structuredContent":[1]}}`)
	l := New()
	for _, ln := range splitLines(initLines) {
		l.Observe(Line{Out: ln[0] == '>', Raw: []byte(ln[1:])})
	}
	l.Observe(Line{Seq: 1, Out: true, Raw: []byte(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"big"}}`)})
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	fs := l.Observe(Line{Seq: 2, Raw: line})
	runtime.ReadMemStats(&after)
	if got := after.TotalAlloc - before.TotalAlloc; got > size/4 {
		t.Errorf("judging an %d MiB result allocated %d KiB", size>>20, got>>10)
	}
	if got := strings.Join(ids(fs), " "); got != "content.base64 tools.structured-content-object" {
		t.Errorf("findings %q", got)
	}
}
