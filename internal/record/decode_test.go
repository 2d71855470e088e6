package record

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

var entryCases = []string{
	`{"type":"received","t":"2026-12-03T10:02:52.34Z","ms":1.5,"size":12,"msg":{"jsonrpc":"2.0","id":2,"result":{}}}`,
	`{"msg":{"a":1},"type":"sent","MSG":[2],"Msg":null}`,
	`{"type":"stderr","text":"hi","msg":"x"}`,
	`{"type":5,"msg":{"a":"b"},"size":"no"}`,
	`{"type":"header","format":"mcptui-recording","version":1,"args":["a"],"settings":{"timeout":"30s"}}`,
	`{"type":"received","msg":{"a":1}} x`,
	`{"type":"received","msg":{"a":1}`,
	`{"t":"","msg":""}`, `{"t":"","msg":{"pad":"x"}}`,
	`[1]`, `null`, `"s"`, `{}`, `{"m\u0073g":{"q":1},"type":"received"}`,
	`{"type":"http","exchange":3,"method":"POST","requestHeaders":[{"name":"a","value":"b"}],"msg":{}}`,
}

// TestUnmarshalEntryIsUnmarshal: the entry decoded around its msg is the
// entry json.Unmarshal decodes, with the same error.
func TestUnmarshalEntryIsUnmarshal(t *testing.T) {
	for _, c := range entryCases {
		sameEntry(t, []byte(c))
		big := strings.Replace(c, `"msg":{`, `"msg":{"pad":"`+strings.Repeat("x", bigEntry)+`",`, 1)
		sameEntry(t, []byte(big))
	}
}

func FuzzUnmarshalEntry(f *testing.F) {
	for _, c := range entryCases {
		f.Add([]byte(c))
	}
	f.Fuzz(func(t *testing.T, b []byte) { sameEntry(t, b) })
}

func sameEntry(t *testing.T, line []byte) {
	t.Helper()
	var want, got Entry
	werr := json.Unmarshal(line, &want)
	gerr := unmarshalAround(line, &got, 0)
	if (werr == nil) != (gerr == nil) || werr != nil && werr.Error() != gerr.Error() {
		t.Fatalf("%.200q: error %v, json.Unmarshal's %v", line, gerr, werr)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("%.200q: %+v, json.Unmarshal's %+v", line, got, want)
	}
}
