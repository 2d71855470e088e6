package conn

// Internal tests of the line reader and the message parser: examples, and
// fuzz tests that compare them with simple reference models.

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"

	jsonv2 "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
)

// chunkReader returns at most n bytes per Read, so lines arrive in pieces.
type chunkReader struct {
	data []byte
	n    int
}

func (r *chunkReader) Read(p []byte) (int, error) {
	if len(r.data) == 0 {
		return 0, io.EOF
	}
	k := min(len(p), r.n, len(r.data))
	copy(p, r.data[:k])
	r.data = r.data[k:]
	return k, nil
}

// readerResult is one result of lineReader.next.
type readerResult struct {
	line []byte
	size int
	err  error
}

// expectedLines is what a line reader with limit must return for stream:
// one result per line (the last may lack its newline), the line without its
// newline and one trailing \r, nil and errLineTooLong when what is left is
// longer than limit, and the size of the line on the wire before its newline.
func expectedLines(stream []byte, limit int) []readerResult {
	var out []readerResult
	segs := bytes.Split(stream, []byte("\n"))
	if len(segs[len(segs)-1]) == 0 {
		segs = segs[:len(segs)-1]
	}
	for _, seg := range segs {
		line := bytes.TrimSuffix(seg, []byte("\r"))
		if len(line) > limit {
			out = append(out, readerResult{nil, len(seg), errLineTooLong})
		} else {
			out = append(out, readerResult{line, len(seg), nil})
		}
	}
	return out
}

// checkLineReader reads stream in chunks of chunk bytes with limit and
// compares every result with expectedLines, then checks io.EOF (twice).
func checkLineReader(t *testing.T, stream []byte, limit, chunk int) {
	t.Helper()
	lr := newLineReader(&chunkReader{data: stream, n: chunk}, limit)
	for i, want := range expectedLines(stream, limit) {
		line, size, err := lr.Next()
		if err != want.err || size != want.size || !bytes.Equal(line, want.line) || (want.err != nil && line != nil) {
			t.Fatalf("line %d (limit %d, chunk %d): got %.60q size %d err %v; want %.60q size %d err %v",
				i, limit, chunk, line, size, err, want.line, want.size, want.err)
		}
		// Memory stays near the limit: a returned line holds at most the
		// limit plus one byte, or one read buffer.
		if c := cap(line); c > max(limit+1, readBufferSize, len(line)) {
			t.Fatalf("line %d of %d bytes has capacity %d (limit %d)", i, len(line), c, limit)
		}
	}
	for range 2 {
		if line, size, err := lr.Next(); err != io.EOF || line != nil || size != 0 {
			t.Fatalf("at the end: %q %d %v, want io.EOF", line, size, err)
		}
	}
}

func TestLineReader(t *testing.T) {
	big := strings.Repeat("b", 3*readBufferSize+17)
	cases := []struct {
		name   string
		stream string
		limit  int
	}{
		{"empty stream", "", 10},
		{"lines", "a\nbb\nccc\n", 10},
		{"last line without newline", "a\nlast", 10},
		{"crlf", "a\r\nbb\r\n", 10},
		{"only one cr trimmed", "a\r\r\n", 10},
		{"empty lines", "\n\n\r\n", 10},
		{"exactly the limit", "12345\n123456\n", 5},
		{"exactly the limit before crlf", "12345\r\n123456\r\n", 5},
		{"over the limit at eof", "123456", 5},
		{"spans reads, under the limit", big + "\nnext\n", len(big)},
		{"spans reads, over the limit", big + "\nnext\n", len(big) - 1},
		{"spans reads, limit below one read", big + "\r\nnext\n", 100},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			for _, chunk := range []int{1, 7, 4096, 1 << 20} {
				if chunk == 1 && len(tc.stream) > 1<<16 {
					continue
				}
				checkLineReader(t, []byte(tc.stream), tc.limit, chunk)
			}
		})
	}
}

// errReader fails after its data.
type errReader struct {
	data []byte
	err  error
}

func (r *errReader) Read(p []byte) (int, error) {
	if len(r.data) == 0 {
		return 0, r.err
	}
	n := copy(p, r.data)
	r.data = r.data[n:]
	return n, nil
}

// A read error other than EOF is returned as it is.
func TestLineReaderError(t *testing.T) {
	boom := errors.New("boom")
	lr := newLineReader(&errReader{data: []byte("ok\npartial"), err: boom}, 100)
	if line, _, err := lr.Next(); err != nil || string(line) != "ok" {
		t.Fatalf("first line %q %v", line, err)
	}
	if _, _, err := lr.Next(); err != boom {
		t.Fatalf("error %v, want the reader's", err)
	}
}

// expand turns each '*' in data into n*1024 bytes of 'x' (n = 0 leaves it),
// so that short fuzz inputs make lines spanning several reads.
func expand(data []byte, n uint8) []byte {
	if n == 0 {
		return data
	}
	return bytes.ReplaceAll(data, []byte("*"), bytes.Repeat([]byte("x"), int(n)*1024))
}

// FuzzLineReader checks the line reader against the reference model: lines
// are reassembled exactly, sizes are right, a line is discarded exactly when
// it is over the limit, memory per line is bounded, and nothing panics.
func FuzzLineReader(f *testing.F) {
	f.Add([]byte("a\nb\r\n\n"), uint32(10), uint16(3), uint8(0))
	f.Add([]byte("*\n*\r\nshort\n*"), uint32(70000), uint16(4096), uint8(70))
	f.Fuzz(func(t *testing.T, data []byte, limit uint32, chunk uint16, blowup uint8) {
		stream := expand(data, blowup)
		checkLineReader(t, stream, int(limit%(1<<20))+1, int(chunk)+1)
	})
}

// parseReference is what parseMessage must make of line, using the strict
// decoder of the JSON library: the error (only whether and which) and the
// members.
func parseReference(line []byte) (message, error) {
	if !jsontext.Value(line).IsValid() {
		return message{}, errNotJSON
	}
	switch bytes.TrimLeft(line, " \t\r\n")[0] {
	case '{':
	case '[':
		return message{}, errBatch
	default:
		return message{}, errNotObject
	}
	var obj map[string]jsontext.Value
	if err := jsonv2.Unmarshal(line, &obj); err != nil {
		panic("valid JSON object does not decode: " + err.Error())
	}
	var m message
	if v, ok := obj["method"]; ok {
		if v.Kind() != '"' {
			return message{}, errMethodType
		}
		var s string
		jsonv2.Unmarshal(v, &s)
		m.method, m.hasMethod = s, true
	}
	m.id, m.params, m.result, m.errObj = obj["id"], obj["params"], obj["result"], obj["error"]
	if m.id == nil && !m.hasMethod {
		return message{}, errNotAMessage
	}
	return m, nil
}

func checkParse(t *testing.T, line []byte) {
	t.Helper()
	got, err := parseMessage(line)
	want, wantErr := parseReference(line)
	if err != wantErr {
		t.Fatalf("parseMessage(%q): error %v, want %v", line, err, wantErr)
	}
	if err != nil {
		return
	}
	same := func(a, b []byte) bool { return (a == nil) == (b == nil) && bytes.Equal(a, b) }
	if !same(got.id, want.id) || got.method != want.method || got.hasMethod != want.hasMethod ||
		!same(got.params, want.params) || !same(got.result, want.result) || !same(got.errObj, want.errObj) {
		t.Fatalf("parseMessage(%q):\n got  id %q method %q/%v params %q result %q error %q\n want id %q method %q/%v params %q result %q error %q",
			line, got.id, got.method, got.hasMethod, got.params, got.result, got.errObj,
			want.id, want.method, want.hasMethod, want.params, want.result, want.errObj)
	}
}

func TestParseMessage(t *testing.T) {
	for _, line := range []string{
		`{"jsonrpc":"2.0","id":1,"result":{}}`,
		` { "jsonrpc" : "2.0" , "id" : "x" , "method" : "a\/b\u00e9" , "params" : [ 1 ] } `,
		`{"\u0069d":7,"result":null}`,
		`{"id":null,"error":{"code":1,"message":"m"}}`,
		`{"method":"n","params":{"_meta":{"io.modelcontextprotocol/subscriptionId":3,"x":{"id":9}}}}`,
		`{"id":123456789012345678901234567890123456789012345678901234567890123456789,"result":1e999}`,
		`{"id":1,"id":2,"result":{}}`,
		`{"method":"n","params":{"a":1,"a":1}}`,
		"{\"method\":\"\xff\"}",
		`{"method":1}`,
		`{"jsonrpc":"2.0"}`,
		`[]`,
		`"s"`,
		`{"id":1,"result":{}} {}`,
		`{"id":1,"result":{}`,
		``,
		"\xEF\xBB\xBF{\"id\":1,\"result\":{}}",
	} {
		checkParse(t, []byte(line))
	}
}

// FuzzParseMessage checks parseMessage against the strict decoder: the same
// lines are rejected for the same reason, and accepted lines yield the same
// members, byte for byte.
func FuzzParseMessage(f *testing.F) {
	f.Add([]byte(`{"jsonrpc":"2.0","id":1,"method":"m","params":{"_meta":{"progressToken":1}}}`))
	f.Fuzz(func(t *testing.T, line []byte) {
		checkParse(t, line)
	})
}
