package lines

import (
	"errors"
	"io"
	"strings"
	"testing"
)

// zeros is an input with no end and no newline (/dev/zero).
type zeros struct{}

func (zeros) Read(p []byte) (int, error) {
	clear(p)
	return len(p), nil
}

// The two readers that were (conn's and the recordings') are one: lines
// over the limit are skipped with their size and head, and StopOverLong
// returns at the limit on an input with no end.
func TestOneReaderForStdioAndRecordings(t *testing.T) {
	lr := NewReader(strings.NewReader("one\r\n"+strings.Repeat("y", 11)+"\n\nten bytes!\nlast"), 10)
	lr.KeepHead = 4
	type got struct {
		line string
		size int
		err  error
	}
	want := []got{{"one", 4, nil}, {"", 11, ErrTooLong}, {"", 0, nil}, {"ten bytes!", 10, nil}, {"last", 4, nil}, {"", 0, io.EOF}}
	for i, w := range want {
		line, size, err := lr.Next()
		if string(line) != w.line || size != w.size || !errors.Is(err, w.err) || err == nil && line == nil {
			t.Errorf("line %d: %q %d %v, want %q %d %v", i, line, size, err, w.line, w.size, w.err)
		}
		if w.err == ErrTooLong && string(lr.Head()) != "yyyy" {
			t.Errorf("head %q, want yyyy", lr.Head())
		}
	}
	stop := NewReader(zeros{}, 1<<10)
	stop.StopOverLong = true
	if line, size, err := stop.Next(); line != nil || size <= 1<<10 || !errors.Is(err, ErrTooLong) {
		t.Errorf("endless line: %q %d %v", line, size, err)
	}
}
