package record

import (
	"bytes"
	"errors"
	"io"
	"runtime"
	"strings"
	"testing"

	"github.com/mcptui/mcptui/internal/lines"
)

// hugeLine is an io.Reader of prefix, n bytes of filler, then suffix:
// a line of any size without keeping it in memory or on disk.
type hugeLine struct {
	prefix, suffix []byte
	filler         byte
	n              int64
	block          []byte // filler bytes, copied out a block at a time
}

func (h *hugeLine) Read(p []byte) (int, error) {
	switch {
	case len(h.prefix) > 0:
		k := copy(p, h.prefix)
		h.prefix = h.prefix[k:]
		return k, nil
	case h.n > 0:
		// Filled by copy, not byte by byte: under -race every single
		// store is checked, and 1 GiB of them took half a minute.
		k := int(min(int64(len(p)), h.n))
		if len(h.block) == 0 {
			h.block = bytes.Repeat([]byte{h.filler}, 64<<10)
		}
		for done := 0; done < k; {
			done += copy(p[done:k], h.block)
		}
		h.n -= int64(k)
		return k, nil
	case len(h.suffix) > 0:
		k := copy(p, h.suffix)
		h.suffix = h.suffix[k:]
		return k, nil
	}
	return 0, io.EOF
}

const testHeader = `{"type":"header","format":"mcptui-recording","version":1,"t":"2026-01-01T00:00:00Z","ms":0,"command":"srv","args":[],"secrets":false,"settings":{}}` + "\n"

// A recording with a 1 GiB line is read in memory bounded by the line
// limit: the line is skipped as it streams by and kept as a marked
// discard, and the entries after it are read.
func TestReadSkipsA1GiBLine(t *testing.T) {
	r := &hugeLine{
		prefix: []byte(testHeader + `{"type":"received","t":"2026-01-01T00:00:01Z","ms":1000,"size":5,"msg":"ok"}` + "\n" + `{"type":"received","t":"2026-01-01T00:00:02Z","ms":2000,"size":1073741824,"msg":"`),
		filler: 'x', n: 1 << 30,
		suffix: []byte(`"}` + "\n" + `{"type":"end","t":"2026-01-01T00:00:03Z","ms":3000}` + "\n"),
	}
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	rec, err := Read(r)
	runtime.ReadMemStats(&after)
	if err != nil {
		t.Fatal(err)
	}
	allocated := after.TotalAlloc - before.TotalAlloc
	t.Logf("reading a recording with a 1 GiB line allocated %.1f MiB", float64(allocated)/(1<<20))
	if allocated > 256<<20 {
		t.Errorf("reading allocated %d MiB: the line was held", allocated>>20)
	}
	if len(rec.Entries) != 3 || !rec.Complete {
		t.Fatalf("entries %+v, complete %v", rec.Entries, rec.Complete)
	}
	d := rec.Entries[1]
	if d.Type != TypeDiscarded || d.Content() != nil || d.LineNo != 3 || d.Ms != 1000 ||
		!strings.Contains(d.Reason, "line 3 of the recording, 1.0 GiB, is over the 32.1 MiB limit") {
		t.Errorf("the huge line became %+v", d)
	}
}

// A file that is no recording and never ends a line (/dev/zero) is refused
// once its first line passes the limit, not read forever.
func TestReadRefusesAnEndlessFirstLine(t *testing.T) {
	_, err := ReadLimited(&hugeLine{filler: 0, n: 1 << 62}, 1<<10)
	if !errors.Is(err, ErrNotRecording) || !strings.Contains(err.Error(), "first line is over") {
		t.Fatalf("err = %v", err)
	}
}

func TestLineReader(t *testing.T) {
	lr := lines.NewReader(strings.NewReader("one\r\n"+strings.Repeat("y", 11)+"\n\nten bytes!\nlast"), 10)
	var got []string
	for {
		line, size, err := lr.Next()
		if err == io.EOF {
			break
		}
		switch {
		case errors.Is(err, lines.ErrTooLong):
			got = append(got, "too long "+strings.Repeat("#", size/11))
		case err != nil:
			t.Fatal(err)
		default:
			got = append(got, string(line))
		}
	}
	want := []string{"one", "too long #", "", "ten bytes!", "last"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("lines %q, want %q", got, want)
	}
}
