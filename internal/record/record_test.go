package record

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcptui/mcptui/conn"
	"github.com/mcptui/mcptui/mcp"
)

func str(s string) *string { return &s }

func TestRoundTripIsByteExact(t *testing.T) {
	var buf bytes.Buffer
	r := New(&buf, Header{Mode: "call", Command: "srv", Args: []string{"--token=abc", "--api-key", "k", "-v", "https://u:pw@h/x"},
		Env:      []conn.EnvVar{{Name: "API_KEY", Value: str("s3cret")}, {Name: "HOME"}},
		Settings: Settings{Timeout: "30s", Protocols: []string{"2025-11-25"}}})
	t0 := time.Now()
	lines := []struct {
		kind conn.EventKind
		line []byte
		err  error
	}{
		{conn.Sent, []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`), nil},
		{conn.Received, []byte(`{ "jsonrpc" : "2.0", "id":1, "result":{"tools":[]} }`), nil},
		{conn.Discarded, []byte("Server started on stdio \x1b[32mok\x1b[0m"), errors.New("not JSON")},
		{conn.Discarded, []byte{0xff, 0xfe, 'x'}, errors.New("not JSON")},
		{conn.Discarded, nil, errors.New("line longer than the limit: 99 bytes > 10")},
	}
	for i, l := range lines {
		size := len(l.line)
		if l.line == nil {
			size = 99
		}
		r.Observe(conn.Event{Time: t0.Add(time.Duration(i) * time.Millisecond), Kind: l.kind, Line: l.line, Size: size, Err: l.err})
	}
	w := r.Stderr(nil)
	fmt.Fprint(w, "first line\nsecond ")
	fmt.Fprint(w, "half\r\nbad \xff byte\nno newline at the end")
	r.Observe(conn.Event{Time: t0, Kind: conn.Exited, Err: errors.New("exit status 3")})
	r.Negotiation(mcp.Negotiation{Allowed: []string{"2025-11-25"}, Version: "2025-11-25", Reason: "pinned",
		Steps: []mcp.Step{{Kind: mcp.StepInitialize, Method: "initialize", Sent: json.RawMessage(`{"a":1}`), Err: &mcp.Error{Code: -32601, Message: "nope"}}}})
	r.Note("call echo")
	if err := r.Close(); err != nil {
		t.Fatal(err)
	}
	if err := r.Close(); err != nil {
		t.Fatal("second Close:", err)
	}

	if s := buf.String(); strings.Contains(s, "s3cret") || strings.Contains(s, "abc") || strings.Contains(s, ":pw@") || strings.Contains(s, `"k"`) {
		t.Fatalf("a secret was recorded:\n%s", s)
	}
	rec, err := Read(&buf)
	if err != nil {
		t.Fatal(err)
	}
	if !rec.Complete || rec.Truncated {
		t.Fatalf("complete %v truncated %v", rec.Complete, rec.Truncated)
	}
	h := rec.Header
	if h.Mode != "call" || h.Command != "srv" || h.Env[0].Value != Redacted || !h.Env[1].Unset || h.Settings.Timeout != "30s" {
		t.Fatalf("header: %+v", h)
	}
	wantArgs := []string{"--token=" + Redacted, "--api-key", Redacted, "-v", "https://u:%5Bredacted%5D@h/x"}
	if fmt.Sprint(h.Args) != fmt.Sprint(wantArgs) {
		t.Fatalf("args %q, want %q", h.Args, wantArgs)
	}
	var got []Entry
	for _, e := range rec.Entries {
		if e.IsLine() {
			got = append(got, e)
		}
	}
	if len(got) != len(lines) {
		t.Fatalf("%d lines, want %d", len(got), len(lines))
	}
	for i, l := range lines {
		if !bytes.Equal(got[i].Content(), l.line) {
			t.Errorf("line %d: %q, want %q", i, got[i].Content(), l.line)
		}
	}
	if got[1].Msg == nil || got[2].Text == nil || got[3].B64 == nil || got[4].Content() != nil || got[4].Size != 99 {
		t.Errorf("encodings: %+v", got)
	}
	if got[2].Reason != "not JSON" || got[0].Type != TypeSent || got[1].Type != TypeReceived {
		t.Errorf("types/reasons: %+v", got[:3])
	}
	var stderr []string
	var types []string
	for _, e := range rec.Entries {
		types = append(types, e.Type)
		if e.Type == TypeStderr {
			stderr = append(stderr, string(e.Content()))
		}
	}
	want := []string{"first line", "second half", "bad \xff byte", "no newline at the end"}
	if fmt.Sprintf("%q", stderr) != fmt.Sprintf("%q", want) {
		t.Errorf("stderr %q, want %q", stderr, want)
	}
	if types[len(types)-1] != TypeEnd {
		t.Errorf("last entry %q", types[len(types)-1])
	}
	for _, e := range rec.Entries {
		switch e.Type {
		case TypeExit:
			if e.Status == nil || *e.Status != "exit status 3" {
				t.Errorf("exit: %+v", e)
			}
		case TypeNegotiation:
			n := e.Negotiation
			if n == nil || n.Version != "2025-11-25" || len(n.Steps) != 1 || n.Steps[0].Code != -32601 || n.Steps[0].Kind != "initialize" {
				t.Errorf("negotiation: %+v", n)
			}
		case TypeNote:
			if *e.Text != "call echo" {
				t.Errorf("note: %+v", e)
			}
		}
	}
}

func TestSecretsKept(t *testing.T) {
	var buf bytes.Buffer
	r := New(&buf, Header{Command: "srv", Args: []string{"--token=abc"}, Env: []conn.EnvVar{{Name: "K", Value: str("v")}}, Secrets: true})
	if err := r.Close(); err != nil {
		t.Fatal(err)
	}
	rec, err := Read(&buf)
	if err != nil {
		t.Fatal(err)
	}
	if rec.Header.Env[0].Value != "v" || rec.Header.Args[0] != "--token=abc" || !rec.Header.Secrets {
		t.Fatalf("header: %+v", rec.Header)
	}
}

func TestRedactArgs(t *testing.T) {
	for in, want := range map[string]string{
		"--port 80 --verbose":                "--port 80 --verbose",
		"--password hunter2 --x":             "--password [redacted] --x",
		"-auth=xyz plain":                    "-auth=[redacted] plain",
		"--api-key --next":                   "--api-key --next",
		"postgres://me@db/x":                 "postgres://me@db/x",
		"--github-token ghp_1 file:///a@b/c": "--github-token [redacted] file:///a@b/c",
		// The documented way to run the official GitHub server.
		"run -i --rm -e GITHUB_PERSONAL_ACCESS_TOKEN=ghp_abcdefghijklmnopqrstuvwxyz0123456789 ghcr.io/github/github-mcp-server": "run -i --rm -e GITHUB_PERSONAL_ACCESS_TOKEN=[redacted] ghcr.io/github/github-mcp-server",
		"--env DB_URL=postgres://x -e HOME --env=PLAIN=visible":                                                                 "--env DB_URL=[redacted] -e HOME --env=PLAIN=[redacted]",
		"-e=A=b":               "-e=A=[redacted]",
		"-p hunter2 -p --next": "-p [redacted] -p --next",
		"API_KEY=abc MODE=fast SLACK_BOT_TOKEN=xyz":                                  "API_KEY=[redacted] MODE=fast SLACK_BOT_TOKEN=[redacted]",
		"https://h/sse?api_key=abc&x=1 https://h/?token=t&TOKEN=u https://h/?page=2": "https://h/sse?api_key=%5Bredacted%5D&x=1 https://h/?TOKEN=%5Bredacted%5D&token=%5Bredacted%5D https://h/?page=2",
		"--url=https://h/?access_token=abc":                                          "--url=https://h/?access_token=%5Bredacted%5D",
		"plain ghp_0123456789abcdefghij sk-ant-api03-0123456789abcdef xoxb-1234-5678-abcd AKIAIOSFODNN7EXAMPLE github_pat_11ABCDEFG0123456789_abcdef": "plain [redacted] [redacted] [redacted] [redacted] [redacted]",
		"--config=/etc/sk-short": "--config=/etc/sk-short",
	} {
		got := strings.Join(RedactArgs(strings.Fields(in), false), " ")
		if got != want {
			t.Errorf("RedactArgs(%q) = %q, want %q", in, got, want)
		}
	}
}

// Header arguments hold spaces: "Authorization: Bearer ..." after -H, or
// --header=..., as remote bridges take them.
func TestRedactHeaderArgs(t *testing.T) {
	got := RedactArgs([]string{"mcp-remote", "https://h/mcp", "-H", "Authorization: Bearer abc.def", "--header=X-Api-Key: k1",
		"--header", "Accept: text/event-stream", "--header", "Cookie:session=1"}, false)
	want := []string{"mcp-remote", "https://h/mcp", "-H", "Authorization: " + Redacted, "--header=X-Api-Key: " + Redacted,
		"--header", "Accept: text/event-stream", "--header", "Cookie: " + Redacted}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("RedactArgs = %q\nwant %q", got, want)
	}
}

// blockingWriter blocks every Write until release is closed.
type blockingWriter struct {
	started chan struct{}
	once    sync.Once
	release chan struct{}
	buf     bytes.Buffer
}

func (w *blockingWriter) Write(p []byte) (int, error) {
	w.once.Do(func() { close(w.started) })
	<-w.release
	return w.buf.Write(p)
}

func TestFullQueueDropsAndCounts(t *testing.T) {
	w := &blockingWriter{started: make(chan struct{}), release: make(chan struct{})}
	r := New(w, Header{Command: "srv"})
	r.maxQueue = 1024
	line := []byte(`{"jsonrpc":"2.0","method":"x","params":{"pad":"` + strings.Repeat("a", 200) + `"}}`)
	// The first entry reaches the writer and blocks it; the rest queue.
	r.Observe(conn.Event{Time: time.Now(), Kind: conn.Received, Line: line, Size: len(line)})
	<-w.started
	for range 50 {
		r.Observe(conn.Event{Time: time.Now(), Kind: conn.Received, Line: line, Size: len(line)})
	}
	close(w.release)
	if err := r.Close(); err != nil {
		t.Fatal(err)
	}
	rec, err := Read(&w.buf)
	if err != nil {
		t.Fatal(err)
	}
	kept, lost := 0, 0
	for _, e := range rec.Entries {
		switch e.Type {
		case TypeReceived:
			kept++
		case TypeLost:
			lost += e.Count
		}
	}
	if kept+lost != 51 || lost == 0 {
		t.Fatalf("kept %d, lost %d; want 51 in all, some lost", kept, lost)
	}
}

func TestConcurrentUse(t *testing.T) {
	var buf bytes.Buffer
	r := New(&buf, Header{Command: "srv"})
	w := r.Stderr(io.Discard)
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 200 {
				line := fmt.Appendf(nil, `{"jsonrpc":"2.0","method":"n","params":{"g":%d,"i":%d}}`, g, i)
				r.Observe(conn.Event{Time: time.Now(), Kind: conn.Received, Line: line, Size: len(line)})
				fmt.Fprintf(w, "g%d line %d\n", g, i)
			}
		}()
	}
	wg.Wait()
	if err := r.Close(); err != nil {
		t.Fatal(err)
	}
	r.Observe(conn.Event{Time: time.Now(), Kind: conn.Sent, Line: []byte(`{}`), Size: 2})
	rec, err := Read(&buf)
	if err != nil {
		t.Fatal(err)
	}
	counts := map[string]int{}
	for _, e := range rec.Entries {
		counts[e.Type]++
	}
	if counts[TypeReceived] != 1600 || counts[TypeStderr] != 1600 || counts[TypeSent] != 0 {
		t.Fatalf("counts %v", counts)
	}
}

func TestReadRejectsOtherFiles(t *testing.T) {
	for _, in := range []string{"", "hello\n", `{"type":"sent"}` + "\n"} {
		if _, err := Read(strings.NewReader(in)); !errors.Is(err, ErrNotRecording) {
			t.Errorf("Read(%q): %v", in, err)
		}
	}
}

func TestReadToleratesACutLastLine(t *testing.T) {
	var buf bytes.Buffer
	r := New(&buf, Header{Command: "srv"})
	r.Note("x")
	if err := r.Close(); err != nil {
		t.Fatal(err)
	}
	cut := buf.String()
	cut = cut[:strings.LastIndex(cut, `{"type":"end"`)+10]
	rec, err := Read(strings.NewReader(cut))
	if err != nil {
		t.Fatal(err)
	}
	if !rec.Truncated || rec.Complete || len(rec.Entries) != 1 {
		t.Fatalf("%+v", rec)
	}
}

func TestWaitExits(t *testing.T) {
	r := New(io.Discard, Header{Command: "srv"})
	defer r.Close()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	done := make(chan bool)
	go func() { done <- r.WaitExits(ctx, 2) }()
	r.Observe(conn.Event{Time: time.Now(), Kind: conn.Exited})
	r.Observe(conn.Event{Time: time.Now(), Kind: conn.Exited, Err: errors.New("exit status 1")})
	if !<-done {
		t.Fatal("WaitExits gave up")
	}
	short, stop := context.WithCancel(context.Background())
	stop()
	if r.WaitExits(short, 3) {
		t.Fatal("a third exit was seen")
	}
}
