package replay

import (
	"encoding/json"
	"reflect"
	"testing"
)

var envelopeCases = []string{
	`{"jsonrpc":"2.0","id":1,"result":{"resultType":"input_required","inputRequests":{"a":{"method":"roots/list"}}}}`,
	`{"id":"x","method":"elicitation/create","params":{"mode":"form"}}`, `{"ID":2,"Method":"m","method":"n"}`,
	`{"id":3,"error":{"code":-1,"message":"no"}}`, `{"id":3,"error":{"code":"x"}}`, `{"id":3,"error":null}`,
	`{"method":5}`, `null`, `[1]`, `{"id":1} x`, `{"id":1,}`, `{"a\u0069d":7}`,
}

// TestEnvelopeDecodeIsUnmarshal: the question finder's in-place envelope
// is json.Unmarshal's.
func TestEnvelopeDecodeIsUnmarshal(t *testing.T) {
	for _, c := range envelopeCases {
		sameEnvelope(t, []byte(c))
	}
}

func FuzzEnvelopeDecode(f *testing.F) {
	for _, c := range envelopeCases {
		f.Add([]byte(c))
	}
	f.Fuzz(func(t *testing.T, b []byte) { sameEnvelope(t, b) })
}

func sameEnvelope(t *testing.T, line []byte) {
	t.Helper()
	var want, got envelope
	werr := json.Unmarshal(line, &want)
	gerr := got.decode(line)
	if (werr == nil) != (gerr == nil) || werr == nil && !reflect.DeepEqual(got, want) {
		t.Fatalf("%q: %+v (%v), json.Unmarshal's %+v (%v)", line, got, gerr, want, werr)
	}
}
