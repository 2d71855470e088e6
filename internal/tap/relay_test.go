package tap

import (
	"bytes"
	"crypto/rand"
	"fmt"
	"strings"
	"testing"
)

// mixedStream is traffic of every shape: JSON lines, a line over 16 MiB,
// garbage bytes, CRLF endings, empty lines, and a last line without
// newline.
func mixedStream(t *testing.T) []byte {
	t.Helper()
	var b bytes.Buffer
	for i := range 50 {
		fmt.Fprintf(&b, `{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"echo"}}`+"\n", i)
	}
	huge := make([]byte, 17<<20)
	for i := range huge {
		huge[i] = 'a' + byte(i%26)
	}
	b.WriteString(`{"jsonrpc":"2.0","id":"huge","method":"x","params":{"s":"`)
	b.Write(huge)
	b.WriteString("\"}}\n")
	garbage := make([]byte, 4096)
	_, _ = rand.Read(garbage)
	b.Write(garbage)
	b.WriteString("\n\x00\x01\xff\xfe not json at all\n")
	b.WriteString("{\"jsonrpc\":\"2.0\",\"method\":\"crlf\"}\r\n\r\n\n")
	b.WriteString(`{"jsonrpc":"2.0","method":"last, without newline"}`)
	return b.Bytes()
}

// TestRelayIsByteExact sends a mixed stream through the tap to an echoing
// server: both streams must be exactly the bytes sent, with publishing on
// and a viewer watching, and the tap must end like the server at EOF.
func TestRelayIsByteExact(t *testing.T) {
	rec := tempFile(t, "tap.jsonl")
	h := startTap(t, "echo", Options{Record: rec})
	v := h.watch()
	until(t, v, "the header", func(e feedEntry) bool { return e.Type == "header" })
	want := mixedStream(t)
	type seen struct{ huge, gap, end bool }
	saw := make(chan seen, 1)
	go func() {
		var s seen
		for {
			e, err := next(t, v)
			if err != nil {
				break
			}
			if e.IsLine() && e.Size > 16<<20 {
				s.huge = true
			}
			if e.Type == "end" {
				s.end = true
			}
			if e.Type == "note" && e.Text != nil && strings.Contains(*e.Text, "not shown") {
				s.gap = true // the feed fell behind (a busy machine) and said so
			}
		}
		saw <- s
	}()
	got := readAll(h.out)
	go func() {
		_, _ = h.in.Write(want)
		h.in.Close()
	}()
	out := receive(t, got)
	if !bytes.Equal(out, want) {
		t.Fatalf("the host read %d bytes, want the %d it sent, byte for byte (first difference at %d)", len(out), len(want), firstDiff(out, want))
	}
	if e := h.wait(); e.Code != 0 || e.Signal != 0 {
		t.Fatalf("exit = %+v, want 0 like the echo server", e)
	}
	if !bytes.Contains([]byte(h.stderr.String()), []byte("echo: stdin closed")) {
		t.Errorf("the server's stderr did not pass through: %q", h.stderr.String())
	}
	// The viewer saw the huge line by its size, and the end.
	// (On a busy machine the feed may fall behind: then the viewer must
	// have been told, and may be cut off when the tap ends.)
	if s := <-saw; !s.gap && (!s.huge || !s.end) {
		t.Errorf("the viewer saw huge=%v end=%v, want both (it was told of no gap)", s.huge, s.end)
	}
	r := recordingOf(t, rec)
	if !r.Complete || r.Header.Mode != "tap" {
		t.Errorf("recording: complete=%v mode=%q", r.Complete, r.Header.Mode)
	}
}

func firstDiff(a, b []byte) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	return min(len(a), len(b))
}
