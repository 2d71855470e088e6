package jsonscan

import (
	"errors"
	"testing"
)

func TestSkipValue(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{`"a\"b\\" x`, `"a\"b\\"`},
		{`{"a":[1,{"b":"}"}]} x`, `{"a":[1,{"b":"}"}]}`},
		{`-1.5e3,`, `-1.5e3`},
		{`true}`, `true`},
		{`[] `, `[]`},
	} {
		if got := tc.in[:SkipValue([]byte(tc.in), 0)]; got != tc.want {
			t.Errorf("SkipValue(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
	if got := SkipString([]byte(`"open`), 0); got != 5 {
		t.Errorf("an unclosed string ends at the end, got %d", got)
	}
}

func TestEachMember(t *testing.T) {
	obj := []byte(`{ "a" : 1 , "b\u0063" :{"x":[1]},"d":"s"}`)
	var got []string
	err := EachMember(obj, func(name, rawKey, v []byte) error {
		got = append(got, string(name)+"|"+string(rawKey)+"|"+string(v))
		return nil
	})
	want := []string{`a|"a"|1`, `bc|"b\u0063"|{"x":[1]}`, `d|"d"|"s"`}
	if err != nil || len(got) != len(want) {
		t.Fatalf("%v %q", err, got)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("member %d = %s, want %s", i, got[i], want[i])
		}
	}
	stop := errors.New("stop")
	n := 0
	if err := EachMember(obj, func(_, _, _ []byte) error { n++; return stop }); err != stop || n != 1 {
		t.Errorf("an error stops the walk: %v after %d", err, n)
	}
	if err := EachMember([]byte(`{ }`), func(_, _, _ []byte) error { t.Fatal("no members"); return nil }); err != nil {
		t.Fatal(err)
	}
}

func TestMemberAndPath(t *testing.T) {
	line := []byte(` {"result":{"id":"inner"}, "id" : 7 ,"params":{"_meta":{"k":[2]}}}`)
	if got := string(Member(line, "id")); got != "7" {
		t.Errorf("Member id = %q", got)
	}
	if Member([]byte(`[1]`), "id") != nil || Member(line, "nope") != nil {
		t.Error("Member found what is not there")
	}
	start, end, ok := Path(line, "params", "_meta", "k")
	if !ok || string(line[start:end]) != "[2]" {
		t.Errorf("Path = %d %d %v", start, end, ok)
	}
	if start, end, ok := Path(line, "id"); !ok || string(line[start:end]) != "7" {
		t.Errorf("Path id = %d %d %v", start, end, ok)
	}
	for _, path := range [][]string{{}, {"nope"}, {"id", "x"}, {"params", "nope"}} {
		if _, _, ok := Path(line, path...); ok {
			t.Errorf("Path %q found something", path)
		}
	}
}

func TestUnquote(t *testing.T) {
	if got := Unquote([]byte(`"a\u00e9\n"`)); got != "aé\n" {
		t.Errorf("%q", got)
	}
	if got := Unquote([]byte(`"plain"`)); got != "plain" {
		t.Errorf("%q", got)
	}
}

func TestDeeperThan(t *testing.T) {
	for in, want := range map[string]bool{
		`[[1]]`:              false,
		`[[[1]]]`:            true,
		`{"a":{"b":"[[[["}}`: false,
		`[[[`:                true, // not JSON, still too deep
		`"\"[[[["`:           false,
	} {
		if got := DeeperThan([]byte(in), 2); got != want {
			t.Errorf("DeeperThan(%s, 2) = %v", in, got)
		}
	}
}
