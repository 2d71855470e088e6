package tap

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/mcptui/mcptui/internal/record"
)

// TestFeedGapEndsAtALineEnd: bytes over the feed's rate are not shown,
// and neither is the rest of the line they cut; the viewer is told how
// many bytes that was, and the next line is shown whole.
func TestFeedGapEndsAtALineEnd(t *testing.T) {
	var out bytes.Buffer
	rec := record.New(&out, record.Header{Mode: "tap"})
	f := newFeed(rec, 0, 1<<10) // 1 KiB/s, 4 KiB at once
	t0 := time.Unix(1_700_000_000, 0)
	first := `{"jsonrpc":"2.0","method":"first"}` + "\n"
	cut := `{"jsonrpc":"2.0","method":"cut","params":{"pad":"` + strings.Repeat("x", 4<<10) + `"}}` + "\n"
	last := `{"jsonrpc":"2.0","method":"last"}` + "\n"
	f.push(ToServer, []byte(first), 1, t0)
	f.push(ToServer, []byte(cut[:4<<10]), 2, t0)                  // over the burst: not shown
	f.push(ToServer, []byte(cut[4<<10:]), 3, t0.Add(time.Minute)) // within the rate again
	f.push(ToServer, []byte(last), 4, t0.Add(time.Minute))
	f.close()
	if err := rec.Close(); err != nil {
		t.Fatal(err)
	}
	r, err := record.Read(&out)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range r.Entries {
		switch {
		case e.IsLine():
			got = append(got, "line "+string(e.Content()))
		case e.Type == record.TypeNote:
			got = append(got, "note "+*e.Text)
		}
	}
	want := []string{
		"line " + strings.TrimSuffix(first, "\n"),
		"note the tap's feed shows at most 1 KiB/s: 4149 bytes to the server not shown (they were relayed)",
		"line " + strings.TrimSuffix(last, "\n"),
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("the feed showed\n%s\nwant\n%s", clip([]byte(strings.Join(got, "\n"))), strings.Join(want, "\n"))
	}
}
