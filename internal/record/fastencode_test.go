package record

import (
	"bytes"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
	"time"
)

// hostileStrings are what a server (a reason, a breakpoint's mark, a
// stderr line) could put in a string field: every escape encoding/json
// writes, and text it must not take as it is.
var hostileStrings = func() []string {
	s := []string{"", "a", "plain words", `"quoted"`, `back\slash`, "<script>&amp;</script>", "\u2028\u2029", "x\u2028y",
		"\xff", "a\xffb", "\xe2\x82", "\xed\xa0\x80", "\xf4\x90\x80\x80", "\xc0\xaf", "é日本🎉", "\ufffd", "\u007f", "\x1b[2J",
		"tab\tnl\ncr\rbs\bff\f", `{"jsonrpc":"2.0"}`, strings.Repeat("é<", 300), "ends with \\", "\x00"}
	var ctl strings.Builder
	for c := range 0x20 {
		ctl.WriteByte(byte(c))
	}
	return append(s, ctl.String())
}()

// hostileLines are lines as relayed: JSON and not, each way encode can
// record them ("msg", "text", "b64").
var hostileLines = [][]byte{
	nil, {}, []byte(`{"jsonrpc":"2.0","id":1,"result":{}}`), []byte(`[1,2]`), []byte(`"x"`), []byte("null"), []byte("1e400"),
	[]byte(` {"x":1} `), []byte("{\"x\":1}\t"), []byte(`{"a":1,"a":2}`), []byte(`"\ud800"`), []byte("{\"a\":\"\xff\"}"),
	[]byte("\xff\xfe"), []byte("plain text"), []byte("{}\r"), []byte("line\r\n"), []byte("crlf\r\nmid"), []byte("{\"a\":\n1}"),
	[]byte("\x1b[2J<b>&</b>"), []byte("\u2028"), []byte(`{"a":"\u2028<>&"}`), []byte("{"), []byte(`{"a":1}{"b":2}`),
	[]byte(`{"jsonrpc":"2.0","method":"bench","params":{"seq":"000000000001","pad":"` + strings.Repeat("x", 1000) + `"}}`),
	bytes.Repeat([]byte("\xe6\x97\xa5\xff"), 300),
}

// oddTimes are times whose format is not the everyday one.
var oddTimes = []time.Time{
	{}, time.Unix(0, 0).UTC(), time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC), time.Date(2026, 1, 2, 3, 4, 5, 1, time.UTC),
	time.Date(2026, 1, 2, 3, 4, 5, 123456789, time.FixedZone("odd", 5*3600+30*60+17)),
	time.Date(1969, 12, 31, 23, 59, 59, 999999999, time.FixedZone("west", -(9*3600+30*60))),
	time.Date(-1, 1, 1, 0, 0, 0, 0, time.UTC), time.Date(10000, 1, 1, 0, 0, 0, 500, time.UTC),
	time.Date(0, 2, 29, 0, 0, 0, 0, time.UTC), time.Now(), time.Now().Local(),
}

// oddMs are "ms" values either side of encoding/json's switches to
// exponents, and the edges of float64.
var oddMs = []float64{0, math.Copysign(0, -1), 0.001, -0.001, 1.5, 123.456, 1e-6, 9.99e-7, 1e-7, 1.5e-9, 1e-10, 5e-324,
	1e20, 9.99e20, 1e21, -1e21, 1.234e25, math.MaxFloat64, -math.MaxFloat64, 9.2e15, float64(math.MaxInt64) / 1000}

// checkSame fails t when the fast path and json.Marshal write e
// differently.
func checkSame(t *testing.T, tm time.Time, ms float64, e entry, content []byte, present bool) {
	t.Helper()
	if !e.plain() {
		t.Fatalf("not a plain entry: %+v", e)
	}
	embed := present && isJSONLine(content)
	want := marshalEntry(tm, ms, e, content, present, embed)
	got := writeEntry(tm, ms, e, content, present, embed)
	if !bytes.Equal(got, want) {
		t.Fatalf("entry %+v, content %q (present %v):\nfast    %q\nMarshal %q", e, content, present, got, want)
	}
}

// The fast path writes what json.Marshal writes, field by field: each
// hostile string in each string field, each odd time and ms, each line.
func TestFastEncodeMatchesMarshalByField(t *testing.T) {
	base := entry{Type: TypeReceived, Size: 12}
	now := time.Now()
	for _, s := range hostileStrings {
		s := s
		for _, e := range []entry{
			{Type: s}, {Type: TypeDiscarded, Reason: s}, {Type: TypeSent, Mark: s, Withheld: true}, {Type: TypeExit, Status: &s},
			{Type: TypeFailed, Error: s}, {Type: TypeNote, Text: &s}, {Type: TypeNote, Protocol: s, Instructions: s},
			{Type: TypeStderr, B64: []byte(s)},
		} {
			checkSame(t, now, 1.5, e, nil, false)
		}
	}
	for _, tm := range oddTimes {
		checkSame(t, tm, 0, base, nil, false)
	}
	for _, ms := range oddMs {
		checkSame(t, now, ms, base, nil, false)
	}
	for _, line := range hostileLines {
		for _, e := range []entry{base, {Type: TypeDiscarded, Size: len(line), Reason: "too long <&>"}, {Type: TypeSent, Mark: "edited", Withheld: true}} {
			checkSame(t, now, 2, e, line, line != nil)
			checkSame(t, now, 2, e, line, true)
		}
	}
	empty := ""
	for _, e := range []entry{
		{}, {Size: -1, Count: -3, PID: math.MaxInt}, {Type: TypeLost, Count: 7}, {Type: TypeExit, Status: &empty}, {Type: TypeEnd},
		{Type: TypeNote, Text: &empty}, {Type: TypeStderr, B64: []byte{}}, {Type: TypeStderr, B64: []byte{0, 0xff}},
	} {
		checkSame(t, now, 3, e, nil, false)
	}
	// A preset text or b64 beside a content that overrides one of them.
	preset := "preset"
	for _, line := range hostileLines {
		checkSame(t, now, 4, entry{Type: TypeReceived, Text: &preset, B64: []byte("b")}, line, true)
	}
}

// The fast path writes what json.Marshal writes for entries drawn at
// random from all of the above, every field set or empty.
func TestFastEncodeMatchesMarshalAtRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(15, 2026))
	str := func() string {
		if rng.IntN(3) == 0 {
			return ""
		}
		return hostileStrings[rng.IntN(len(hostileStrings))]
	}
	for range 20000 {
		e := entry{Type: []string{TypeSent, TypeReceived, TypeDiscarded, TypeStderr, TypeNote, TypeExit, str()}[rng.IntN(7)],
			Reason: str(), Mark: str(), Withheld: rng.IntN(2) == 0, Error: str(), Protocol: str(), Instructions: str()}
		if rng.IntN(2) == 0 {
			e.Size = rng.IntN(1<<20) - 10
		}
		if rng.IntN(4) == 0 {
			e.Count, e.PID = rng.Int(), rng.IntN(100000)
		}
		if rng.IntN(4) == 0 {
			s := str()
			e.Status = &s
		}
		if rng.IntN(4) == 0 {
			s := str()
			e.Text = &s
		}
		if rng.IntN(4) == 0 {
			e.B64 = []byte(str())
		}
		tm := oddTimes[rng.IntN(len(oddTimes))].Add(time.Duration(rng.Int64()))
		ms := oddMs[rng.IntN(len(oddMs))]
		if rng.IntN(2) == 0 {
			ms = float64(rng.Int64N(1<<50)-1<<49) / 1000
		}
		line := hostileLines[rng.IntN(len(hostileLines))]
		checkSame(t, tm, ms, e, line, line != nil || rng.IntN(2) == 0)
	}
}

// encode takes the fast path for the entries a tap writes a line, and
// the recording reads back what it was given.
func TestEncodePlainEntriesRoundTrip(t *testing.T) {
	var buf bytes.Buffer
	r := New(&buf, Header{Command: "srv"})
	t0 := r.Start().Add(1500 * time.Microsecond)
	e := entry{Type: TypeSent, Size: 8, Mark: `edited <"x">`, Withheld: true}
	if !e.plain() {
		t.Fatal("a sent line is not a plain entry")
	}
	got := r.encode(t0, e, []byte(`{"id":1}`), true)
	want := `{"type":"sent","t":"` + t0.Format(time.RFC3339Nano) + `","ms":1.5,"size":8,"mark":"edited \u003c\"x\"\u003e","withheld":true,"msg":{"id":1}}` + "\n"
	if string(got) != want {
		t.Fatalf("encoded\n%s\nwant\n%s", got, want)
	}
	if err := r.Close(); err != nil {
		t.Fatal(err)
	}
}

// FuzzFastEncode: for any entry, time, ms and line the fast path writes
// what json.Marshal writes.
func FuzzFastEncode(f *testing.F) {
	f.Add(TypeReceived, "", "", "", []byte(`{"jsonrpc":"2.0","id":1,"result":{}}`), 1.5, int64(0), int32(0), uint8(1))
	f.Add(TypeDiscarded, "why \xff <&>", "edited\u2028", "text\x00", []byte("\xff\xfe"), -0.001, int64(-1), int32(-34200), uint8(0xff))
	f.Add(TypeStderr, "", "", "\x1b[2J", []byte("a\r"), 1e21, int64(1)<<62, int32(19817), uint8(6))
	f.Add(TypeSent, `"\`, "", "", []byte(" {} "), 1e-7, int64(123456789), int32(1), uint8(3))
	f.Fuzz(func(t *testing.T, typ, reason, mark, text string, line []byte, ms float64, nanos int64, offset int32, flags uint8) {
		if math.IsNaN(ms) || math.IsInf(ms, 0) {
			return // ms is always finite (json.Marshal fails on the others)
		}
		tm := time.Unix(0, nanos).In(time.FixedZone("z", int(offset%(24*3600))))
		e := entry{Type: typ, Reason: reason, Mark: mark, Withheld: flags&1 != 0, Size: len(line)}
		if flags&2 != 0 {
			e.Text = &text
		}
		if flags&4 != 0 {
			e.B64 = []byte(text)
		}
		if flags&8 != 0 {
			e.Status, e.Error, e.Count = &reason, mark, int(nanos)
		}
		checkSame(t, tm, ms, e, line, flags&16 != 0 || line != nil)
	})
}

// BenchmarkEncode is a tap's line: a 1 KiB JSON line received.
func BenchmarkEncode(b *testing.B) {
	r := New(&bytes.Buffer{}, Header{})
	defer r.Close()
	line := hostileLines[len(hostileLines)-2]
	b.SetBytes(int64(len(line)))
	b.ReportAllocs()
	for b.Loop() {
		r.encode(time.Now(), entry{Type: TypeReceived, Size: len(line)}, line, true)
	}
}

// BenchmarkEncodeMarshal is BenchmarkEncode through json.Marshal, for
// comparison.
func BenchmarkEncodeMarshal(b *testing.B) {
	r := New(&bytes.Buffer{}, Header{})
	defer r.Close()
	line := hostileLines[len(hostileLines)-2]
	b.SetBytes(int64(len(line)))
	b.ReportAllocs()
	for b.Loop() {
		t := time.Now()
		marshalEntry(t, float64(t.Sub(r.start).Microseconds())/1000, entry{Type: TypeReceived, Size: len(line)}, line, true, isJSONLine(line))
	}
}
