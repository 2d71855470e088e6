package jsonscan

import (
	"bytes"
	"testing"
)

// plainRunByByte is plainRun one byte at a time: what it must agree with.
func plainRunByByte(b []byte, i int) int {
	for ; i < len(b); i++ {
		if c := b[i]; c == '"' || c == '\\' || c < 0x20 {
			return i
		}
	}
	return i
}

// plainRun reads eight bytes at a time: every byte that stops it (each
// control byte, the quote, the backslash), at every offset within and
// across words, after bytes just above and below them, is found where
// the byte-by-byte loop finds it.
func TestPlainRunStopsWhereTheByteLoopStops(t *testing.T) {
	var stops []byte
	for c := range 0x20 {
		stops = append(stops, byte(c))
	}
	stops = append(stops, '"', '\\')
	fills := []byte{'a', ' ', '!', '#', '[', ']', 0x7f, 0x80, 0xff, 0x21, 0x1f + 1}
	for _, stop := range stops {
		for _, fill := range fills {
			for n := range 20 {
				for at := range n + 1 {
					b := bytes.Repeat([]byte{fill}, n)
					if at < n {
						b[at] = stop
					}
					for from := range n + 1 {
						if got, want := plainRun(b, from), plainRunByByte(b, from); got != want {
							t.Fatalf("plainRun(%q, %d) = %d, the byte loop says %d", b, from, got, want)
						}
					}
				}
			}
		}
	}
}

func FuzzPlainRun(f *testing.F) {
	f.Add([]byte(`{"level":"info","data":"tick \"tock\"\n"}`), 3)
	f.Fuzz(func(t *testing.T, b []byte, from int) {
		if from < 0 || from > len(b) {
			return
		}
		if got, want := plainRun(b, from), plainRunByByte(b, from); got != want {
			t.Fatalf("plainRun(%q, %d) = %d, the byte loop says %d", b, from, got, want)
		}
	})
}
