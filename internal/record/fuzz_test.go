package record

import (
	"bufio"
	"bytes"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/mcptui/mcptui/conn"
)

// Whatever a server writes, the recording is strict JSON Lines (jq and
// Python read every line) and reads back byte for byte.
func FuzzRecordRoundTrip(f *testing.F) {
	for _, s := range []string{`{"jsonrpc":"2.0","id":1,"result":{}}`, "plain text", "\xff\xfe", "{\"a\":\"\xff\"}",
		`{"a":1,"a":2}`, " {\"x\":1} ", "\x1b[2J", "", "null", `"\ud800"`} {
		f.Add([]byte(s), uint8(0))
	}
	f.Fuzz(func(t *testing.T, line []byte, kind uint8) {
		if bytes.ContainsAny(line, "\n") {
			return // conn never reports a line with a newline in it
		}
		var buf bytes.Buffer
		r := New(&buf, Header{Command: "srv", Args: []string{string(line)}})
		k := []conn.EventKind{conn.Sent, conn.Received, conn.Discarded}[int(kind)%3]
		r.Observe(conn.Event{Time: time.Now(), Kind: k, Line: line, Size: len(line), Err: errors.New("why \xff")})
		_, _ = r.Stderr(nil).Write(append(line, '\n'))
		if err := r.Close(); err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(bytes.NewReader(buf.Bytes()))
		sc.Buffer(nil, 1<<20)
		for n := 1; sc.Scan(); n++ {
			// Duplicate names are JSON to jq and Python (the last wins);
			// invalid UTF-8 is not.
			if !jsontext.Value(sc.Bytes()).IsValid(jsontext.AllowDuplicateNames(true)) {
				t.Fatalf("line %d is not strict JSON: %q", n, sc.Bytes())
			}
		}
		rec, err := Read(bytes.NewReader(buf.Bytes()))
		if err != nil {
			t.Fatal(err)
		}
		if len(rec.Entries) < 3 || !rec.Complete {
			t.Fatalf("entries %+v", rec.Entries)
		}
		if got := rec.Entries[0].Content(); !bytes.Equal(got, line) {
			t.Fatalf("line %q read back as %q", line, got)
		}
		if got := rec.Entries[1].Content(); !bytes.Equal(got, bytes.TrimSuffix(line, []byte("\r"))) && len(line) <= maxStderrLine {
			t.Fatalf("stderr %q read back as %q", line, got)
		}
	})
}

// Read never fails on a file other than with an error, in memory bounded
// by its limit.
func FuzzRead(f *testing.F) {
	f.Add([]byte(testHeader + `{"type":"received","t":"2026-01-01T00:00:01Z","ms":1,"size":2,"msg":{}}` + "\n"))
	f.Add([]byte(testHeader + strings.Repeat("x", 5000) + "\n" + `{"type":"end"}`))
	f.Add([]byte("\x00\x00\x00"))
	f.Add([]byte(testHeader + `{"type":"received","msg":{"a":` + "\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		rec, err := ReadLimited(bytes.NewReader(data), 1024)
		if err != nil {
			return
		}
		for _, e := range rec.Entries {
			if len(e.Content()) > MaxEntryBytes(1024) {
				t.Fatalf("an entry of %d bytes passed the limit", len(e.Content()))
			}
		}
	})
}

// RedactArgs keeps the shape of the command line and never lets a
// well-known token literal through.
func FuzzRedactArgs(f *testing.F) {
	f.Add("-e\x00A=ghp_0123456789abcdefghij\x00--header=Authorization: Bearer x", "")
	f.Add("https://u:p@h/?token=1\x00-p\x00pw", "--api-key")
	f.Fuzz(func(t *testing.T, joined, prefix string) {
		args := strings.Split(joined, "\x00")
		secret := "ghp_" + strings.Repeat("Z", 20)
		args = append(args, prefix+secret)
		out := RedactArgs(args, false)
		if len(out) != len(args) {
			t.Fatalf("%d args became %d", len(args), len(out))
		}
		if strings.Contains(strings.Join(out, "\x00"), secret) {
			t.Fatalf("the token survived: %q", out)
		}
	})
}
