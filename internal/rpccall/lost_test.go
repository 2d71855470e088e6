package rpccall

import "testing"

func TestLostAnswerID(t *testing.T) {
	for in, want := range map[string]int64{
		`{"jsonrpc":"2.0","id":7,"result":{"x":"cut`: 7,
		`{"id":12,"error":{"code":1`:                 12,
		`{"result":[[[[`:                             -1, // no id before the cut
		`{"id":1`:                                    -1, // the id may be cut short
		`{"id":3,"method":"x","params":{`:            -1, // a request from the server
		`{"id":"a","result":{}}`:                     -1, // not one of ours
		`{"id":4}`:                                   -1, // neither result nor error
		`[{"id":5,"result":1}]`:                      -1,
		``:                                           -1,
	} {
		id, ok := LostAnswerID([]byte(in))
		if (want < 0 && ok) || (want >= 0 && (!ok || id != want)) {
			t.Errorf("LostAnswerID(%q) = %d, %v; want %d", in, id, ok, want)
		}
	}
}

// Any bytes, cut anywhere, are read without a panic.
func FuzzLostAnswerID(f *testing.F) {
	for _, s := range []string{`{"id":7,"result":{"x":"`, `{"id":1,"error":`, `{"\"":1,`, `{"id" : 9 , "result" :`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		for i := range len(b) + 1 {
			LostAnswerID(b[:i])
		}
	})
}
