package conn_test

// Rule 5, memory: an over-long line is discarded as it arrives.

import (
	"fmt"
	"runtime"
	"testing"
	"time"

	"github.com/mcptui/mcptui/conn"
)

// A 256 MiB line (written by the server in 64 KiB chunks) with MaxLineBytes
// 1 MiB is discarded without being held: the Observer gets its full size,
// the next call is answered, and this process allocates far less than the
// line while reading it. The test is not parallel so that the allocation
// count is this test's alone.
func TestHugeLineDiscardedWithoutBuffering(t *testing.T) {
	if testing.Short() {
		t.Skip("writes 256 MiB through a pipe")
	}
	const size = 256 << 20
	h := start(t, conn.Options{MaxLineBytes: 1 << 20})
	h.ping()

	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, err := h.call(fmt.Sprintf("long/%d", size), nil, conn.WithTimeout(50*time.Millisecond))
	wantErr(t, err, conn.CodeTimeout, "Request timed out")
	// The server writes the line before it reads the next request, so this
	// call is answered after the whole line went through.
	h.ping()
	runtime.ReadMemStats(&after)

	d := discarded(h.events.all())
	if len(d) != 1 || d[0].Size != size || d[0].Line != nil {
		t.Fatalf("discarded events:\n%s\nwant one of size %d with no line", dump(d), size)
	}
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 64<<20 {
		t.Fatalf("reading a discarded %d MiB line allocated %d MiB", size>>20, alloc>>20)
	}
}
