package rpccall

import "testing"

// One key matches an answer to its request in conn, in the model and in
// the recordings' readers (verify, snapshot): the id as peers match it.
func TestMatchKey(t *testing.T) {
	for _, tc := range []struct{ a, b string }{
		{"7", "7.0"}, {"7", "7e0"}, {" 7 ", "7"}, {`"a"`, ` "a"`}, {`{"x": 1}`, `{"x":1}`},
	} {
		if MatchKey([]byte(tc.a)) != MatchKey([]byte(tc.b)) {
			t.Errorf("%s and %s have keys %q and %q", tc.a, tc.b, MatchKey([]byte(tc.a)), MatchKey([]byte(tc.b)))
		}
	}
	for _, tc := range []struct{ a, b string }{{"7", `"7"`}, {"7", "7.5"}, {`"a"`, `"b"`}} {
		if MatchKey([]byte(tc.a)) == MatchKey([]byte(tc.b)) {
			t.Errorf("%s and %s share the key %q", tc.a, tc.b, MatchKey([]byte(tc.a)))
		}
	}
	if MatchKey(nil) != "" {
		t.Error("no id has a key")
	}
}
