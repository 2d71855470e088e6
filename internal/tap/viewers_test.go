package tap

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// request is a JSON-RPC request line.
func request(id int, method string) string {
	return fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":%q,"params":{}}`+"\n", id, method)
}

// roundTrip writes a line and reads the next line of the host's stdout.
func roundTrip(t *testing.T, h *host, r *bufio.Reader, line string) string {
	t.Helper()
	if _, err := io.WriteString(h.in, line); err != nil {
		t.Fatal(err)
	}
	got, err := r.ReadString('\n')
	if err != nil {
		t.Fatalf("reading the answer to %q: %v", line, err)
	}
	return got
}

// countLines reads a viewer's feed to its end and counts the line entries
// by type.
func countLines(t *testing.T, v *Viewer) map[string]int {
	t.Helper()
	n := map[string]int{}
	for {
		e, err := next(t, v)
		if err != nil {
			return n
		}
		n[e.Type]++
	}
}

// TestViewersComeAndGo: viewers attach and detach during traffic; every
// viewer that stays to the end sees the whole session, history included.
func TestViewersComeAndGo(t *testing.T) {
	h := startTap(t, "lines", Options{})
	r := bufio.NewReader(h.out)
	a := h.watch()
	var b, c *Viewer
	for i := 1; i <= 10; i++ {
		if i == 4 {
			b = h.watch()
		}
		if i == 7 {
			a.Close()
		}
		want := fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"result":{"n":%d}}`+"\n", i, i)
		if got := roundTrip(t, h, r, request(i, "ping")); got != want {
			t.Fatalf("answer %d = %q, want %q", i, got, want)
		}
	}
	c = h.watch()
	h.in.Close()
	if e := h.wait(); e.Code != 0 {
		t.Fatalf("exit %+v", e)
	}
	for name, v := range map[string]*Viewer{"b (from the 4th line)": b, "c (after the end of traffic)": c} {
		n := countLines(t, v)
		if n["sent"] != 10 || n["received"] != 10 || n["header"] != 1 || n["end"] != 1 || n["stderr"] != 10 {
			t.Errorf("viewer %s saw %v, want the header, 10 sent, 10 received, 10 stderr and the end", name, n)
		}
	}
}

// TestStalledViewerNeverSlowsTheHost: a viewer that stops reading while
// 64 MiB go through changes nothing the host sees; when it reads again it
// is told how much it missed.
func TestStalledViewerNeverSlowsTheHost(t *testing.T) {
	h := startTap(t, "echo", Options{})
	stalled := h.watch()
	line := bytes.Repeat([]byte("x"), 1<<20)
	line[len(line)-1] = '\n'
	const lines = 64
	got := make(chan int64, 1)
	go func() {
		n, _ := io.CopyN(io.Discard, h.out, lines<<20)
		got <- n
	}()
	for range lines {
		if _, err := h.in.Write(line); err != nil {
			t.Fatal(err)
		}
	}
	if n := <-got; n != lines<<20 {
		t.Fatalf("the host read %d bytes, want %d", n, lines<<20)
	}
	// The stalled viewer reads again while the tap still runs: it is told
	// it missed entries (the viewer skipped ahead, or the whole feed fell
	// behind on a slow machine).
	told := make(chan string, 1)
	go func() {
		for {
			e, err := next(t, stalled)
			if err != nil {
				told <- ""
				return
			}
			if e.Type == "lost" {
				told <- fmt.Sprintf("it skipped %d entries", e.Count)
				return
			}
			if e.Type == "note" && e.Text != nil && bytes.Contains([]byte(*e.Text), []byte("not shown")) {
				told <- *e.Text
				return
			}
		}
	}()
	what := <-told
	if what == "" {
		t.Errorf("the stalled viewer was not told it missed entries")
	}
	t.Logf("the stalled viewer was told: %s", what)
	h.in.Close()
	h.wait()
}

// TestSocketIsTheUsersOwn: the directory is 0700 and the socket 0600; a
// directory open to others, or a link, is refused for publishing, and the
// tap still relays.
func TestSocketIsTheUsersOwn(t *testing.T) {
	h := startTap(t, "echo", Options{})
	for path, want := range map[string]os.FileMode{h.dir: 0o700, h.socket: 0o600} {
		fi, err := os.Stat(path)
		if err != nil {
			t.Fatal(err)
		}
		if got := fi.Mode().Perm(); got != want {
			t.Errorf("%s has mode %04o, want %04o", path, got, want)
		}
	}
	h.in.Close()
	h.wait()

	open := filepath.Join(t.TempDir(), "open")
	if err := os.Mkdir(open, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(open, 0o755); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(t.TempDir(), "link")
	if err := os.Symlink(t.TempDir(), link); err != nil {
		t.Fatal(err)
	}
	for _, dir := range []string{open, link} {
		h := startTapWith(t, "echo", Options{Dir: dir}, false)
		r := bufio.NewReader(h.out)
		if got := roundTrip(t, h, r, "still relaying\n"); got != "still relaying\n" {
			t.Errorf("through a tap refusing %s: %q", dir, got)
		}
		h.in.Close()
		h.wait()
		if h.socket != "" {
			t.Errorf("the tap published in %s", dir)
		}
		if !bytes.Contains([]byte(h.stderr.String()), []byte("not publishing (still relaying)")) {
			t.Errorf("the tap did not say why it is not publishing in %s: %q", dir, h.stderr.String())
		}
	}
}

// TestViewerQueueSkipsAhead: entries for a viewer that does not read are
// bounded; past the bound it skips ahead and its next delivery starts with
// how many entries it missed.
func TestViewerQueueSkipsAhead(t *testing.T) {
	a, b := net.Pipe()
	defer a.Close()
	defer b.Close()
	v := newViewer(a, 1)
	e := append(bytes.Repeat([]byte("e"), 1<<20-1), '\n')
	const sent = 100
	for range sent {
		v.send(e, false)
		if v.queued > maxViewerQueue {
			t.Fatalf("%d bytes queued for a stalled viewer, over the bound %d", v.queued, maxViewerQueue)
		}
	}
	var l struct {
		Type  string `json:"type"`
		Count int    `json:"count"`
	}
	if err := json.Unmarshal(v.queue[0], &l); err != nil || l.Type != "lost" {
		t.Fatalf("the first entry queued is %q, want a lost entry", clip(v.queue[0]))
	}
	if l.Count+v.entries != sent {
		t.Errorf("lost %d + queued %d = %d entries, want the %d sent", l.Count, v.entries, l.Count+v.entries, sent)
	}
}

// TestFeedRateBoundsWhatViewersAreShown: past the feed's rate, the host
// still gets every byte, the viewer is told how many bytes it was not
// shown and why, and every line it is shown is a whole line (never the
// tail of one cut by the gap).
func TestFeedRateBoundsWhatViewersAreShown(t *testing.T) {
	h := startTap(t, "echo", Options{FeedRate: 64 << 10})
	v := h.watch()
	until(t, v, "the header", func(e feedEntry) bool { return e.Type == "header" })
	var stream bytes.Buffer
	for i := range 4096 {
		fmt.Fprintf(&stream, `{"jsonrpc":"2.0","method":"n","params":{"i":%d,"pad":"%s"}}`+"\n", i, bytes.Repeat([]byte("x"), 1000))
	}
	want := stream.Bytes()
	type seen struct {
		notes, lines int
		fragment     string
	}
	saw := make(chan seen, 1)
	go func() {
		var s seen
		for {
			e, err := next(t, v)
			if err != nil {
				break
			}
			if e.Type == "note" && e.Text != nil && strings.Contains(*e.Text, "not shown") {
				if strings.Contains(*e.Text, "shows at most") {
					s.notes++
				}
			}
			if e.IsLine() {
				s.lines++
				if e.Msg == nil && s.fragment == "" {
					s.fragment = clip(e.Content())
				}
			}
		}
		saw <- s
	}()
	got := readAll(h.out)
	go func() {
		_, _ = h.in.Write(want)
		h.in.Close()
	}()
	if out := receive(t, got); !bytes.Equal(out, want) {
		t.Fatalf("the host read %d bytes, want the %d it sent, byte for byte", len(out), len(want))
	}
	h.wait()
	s := <-saw
	if s.notes == 0 {
		t.Errorf("the viewer was shown %d lines of 8192 and never told of the feed's rate", s.lines)
	}
	if s.fragment != "" {
		t.Errorf("the viewer was shown a piece of a line after a gap: %q", s.fragment)
	}
}
