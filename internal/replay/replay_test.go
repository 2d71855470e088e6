package replay

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/mcptui/mcptui/demo"
	"github.com/mcptui/mcptui/internal/cli"
	"github.com/mcptui/mcptui/internal/headless"
	"github.com/mcptui/mcptui/internal/record"
	"github.com/mcptui/mcptui/internal/testkit/racechild"
	"github.com/mcptui/mcptui/model"
)

// The test binary doubles as the servers: MCPTUI_REPLAY_SERVER=demo runs
// the demo server, =serve:FILE serves a recording.
const serverEnv = "MCPTUI_REPLAY_SERVER"

func TestMain(m *testing.M) {
	if name := os.Getenv(serverEnv); name != "" {
		ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM)
		defer stop()
		var err error
		if file, ok := strings.CutPrefix(name, "serve:"); ok {
			err = ServeFile(ctx, file, 0, os.Stdin, os.Stdout, os.Stderr)
		} else {
			err = demo.Serve(ctx, os.Stdin, os.Stdout, os.Stderr)
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	racechild.NoExitSleep() // the servers this binary starts are itself
	os.Exit(m.Run())
}

// runMcptui runs a headless command line and returns its exit code and
// output.
func runMcptui(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	cfg, err := cli.Parse(args)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	var stdout, stderr bytes.Buffer
	code := headless.Run(ctx, cfg, &stdout, &stderr)
	return code, stdout.String(), stderr.String()
}

func testServer(name string) []string {
	return []string{"-e", serverEnv + "=" + name, "--", os.Args[0]}
}

const script = `tools
call echo message="recorded and replayed"
expect .content[0].text == "recorded and replayed"
call progress steps:=3
read demo://readme
get greet name=Ada
complete resource:demo://colors/{name} name=gr
call sample
expect ok
call roots
expect ok
call fail
expect isError
call rpc_error code:=-32042 message=nope
expect error -32042
`

// recordScript runs the script against a server, recording, and returns
// the recording.
func recordScript(t *testing.T, dir, name string, extra ...string) (*record.Recording, string) {
	t.Helper()
	sc := filepath.Join(dir, "checks.mcpt")
	if err := os.WriteFile(sc, []byte(script), 0o600); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(dir, name)
	args := append([]string{"run", sc, "--record", file, "--answer", "sampling=text:a recorded haiku", "--root", "file:///project"}, extra...)
	code, stdout, stderr := runMcptui(t, args...)
	if code != 0 {
		t.Fatalf("run: exit %d\n%s\n%s", code, stdout, stderr)
	}
	rec, err := record.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	return rec, file
}

// recordedLines are the sent and received lines of a recording, as recorded.
func recordedLines(rec *record.Recording) []string {
	var out []string
	for _, e := range rec.Entries {
		if e.Type == record.TypeSent || e.Type == record.TypeReceived {
			out = append(out, e.Type+" "+string(e.Content()))
		}
	}
	return out
}

func TestRecordingReplayedLineForLine(t *testing.T) {
	t.Parallel()
	for _, proto := range []string{"2026-07-28", "2025-11-25"} {
		t.Run(proto, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			first, file := recordScript(t, dir, "first.jsonl", append([]string{"--protocol", proto}, testServer("demo")...)...)
			second, _ := recordScript(t, dir, "second.jsonl", append([]string{"--protocol", proto}, testServer("serve:"+file)...)...)
			a, b := recordedLines(first), recordedLines(second)
			if len(a) < 20 {
				t.Fatalf("only %d lines recorded", len(a))
			}
			for i := range max(len(a), len(b)) {
				var x, y string
				if i < len(a) {
					x = a[i]
				}
				if i < len(b) {
					y = b[i]
				}
				if x != y {
					t.Fatalf("line %d differs:\nrecorded: %s\nreplayed: %s", i, x, y)
				}
			}
		})
	}
}

func TestServeAnswersUnrecordedRequestsWithErrors(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	_, file := recordScript(t, dir, "rec.jsonl", testServer("demo")...)
	code, stdout, stderr := runMcptui(t, append([]string{"call", "echo", "--arg", "message=never recorded"}, testServer("serve:"+file)...)...)
	if code != headless.ExitProtocol || !strings.Contains(stderr, "-32602") || !strings.Contains(stderr, "no recorded tools/call has these params") {
		t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
	}
	code, _, stderr = runMcptui(t, append([]string{"request", "logging/setLevel", "--params", `{"level":"debug"}`, "--protocol", "2025-11-25"}, testServer("serve:"+file)...)...)
	if code == 0 || !strings.Contains(stderr, "-32601") {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
}

func TestServeRewritesIDsAndTokens(t *testing.T) {
	line := []byte(`{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":4,"progress":1,"_meta":{"x":1}}}`)
	got := replaceMember(line, []string{"params", "progressToken"}, []byte(`"tok-9"`))
	want := `{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"tok-9","progress":1,"_meta":{"x":1}}}`
	if string(got) != want {
		t.Fatalf("%s", got)
	}
	resp := []byte(`{ "result" : {"id":"inner"}, "id" : 7 , "jsonrpc":"2.0"}`)
	if got := replaceMember(resp, []string{"id"}, []byte(`12`)); string(got) != `{ "result" : {"id":"inner"}, "id" : 12 , "jsonrpc":"2.0"}` {
		t.Fatalf("%s", got)
	}
	if got := replaceMember(resp, []string{"params", "x"}, []byte(`1`)); !bytes.Equal(got, resp) {
		t.Fatalf("absent path changed the line: %s", got)
	}
	if canonicalParams([]byte(`{"b":1,"a":{"y":2,"x":1},"_meta":{"progressToken":3},"inputResponses":{}}`)) != `{"a":{"x":1,"y":2},"b":1}` {
		t.Fatal(canonicalParams([]byte(`{"b":1}`)))
	}
}

func TestEventsRebuildTheSession(t *testing.T) {
	t.Parallel()
	for _, proto := range []string{"2026-07-28", "2025-11-25"} {
		// 2026-07-28 negotiated rather than pinned, so that server/discover
		// names the server.
		pin := []string{"--protocol", proto}
		if proto == "2026-07-28" {
			pin = nil
		}
		rec, _ := recordScript(t, t.TempDir(), "rec.jsonl", append(pin, testServer("demo")...)...)
		s := model.New(Config(rec, 0))
		s.ApplyAll(Events(rec))
		c := s.Conn()
		if c.ServerName != "mcptui-demo" || c.Protocol != proto || c.Phase != model.PhaseExited || c.Gen != 1 {
			t.Errorf("%s: conn %+v", proto, c)
		}
		h := s.History()
		sent, recv := 0, 0
		for _, e := range rec.Entries {
			switch e.Type {
			case record.TypeSent:
				sent++
			case record.TypeReceived:
				recv++
			}
		}
		if h.Len() != sent+recv {
			t.Errorf("%s: history has %d entries, the recording %d lines", proto, h.Len(), sent+recv)
		}
		asked := map[model.QuestionKind]model.QuestionState{}
		for _, q := range s.Questions() {
			asked[q.Kind] = q.State
		}
		if asked[model.AskSampling] != model.Answered || asked[model.AskRoots] != model.Answered {
			t.Errorf("%s: questions %v", proto, asked)
		}
		if proto == "2026-07-28" {
			// An input_required entry is filed under the round that asked
			// it: pane 1 labels that round from its own questions.
			filed := 0
			for _, c := range s.Recent() {
				for _, q := range s.QuestionsOf(c) {
					if c.Outcome.Kind != model.NeedsInput || q.InputKey == "" {
						t.Errorf("question %+v filed under call %+v", q, c)
					}
					filed++
				}
			}
			if filed == 0 {
				t.Errorf("no input_required question is filed under its round")
			}
		}
		if s.StderrLog().Len() == 0 {
			t.Errorf("%s: no stderr", proto)
		}
		if len(s.InFlight()) != 0 {
			t.Errorf("%s: %d calls still in flight", proto, len(s.InFlight()))
		}
	}
}

func TestEventsFindReadinessOnTheWire(t *testing.T) {
	t.Parallel()
	for _, pin := range [][]string{nil, {"--protocol", "2025-11-25"}} {
		rec, _ := recordScript(t, t.TempDir(), "rec.jsonl", append(pin, testServer("demo")...)...)
		// A program that records only the wire: no negotiation, no ready.
		var wire []record.Entry
		for _, e := range rec.Entries {
			if e.Type != record.TypeReady && e.Type != record.TypeNegotiation {
				wire = append(wire, e)
			}
		}
		rec.Entries = wire
		s := model.New(Config(rec, 0))
		s.ApplyAll(Events(rec))
		if c := s.Conn(); c.ServerName != "mcptui-demo" || c.Protocol == "" {
			t.Errorf("%v: %+v", pin, c)
		}
	}
}

func TestBackendIsReadOnly(t *testing.T) {
	evs := []model.Event{model.Stderr{Line: "a"}, model.Stderr{Line: "b"}}
	b := NewBackend(evs)
	ctx := context.Background()
	got, err := b.Next(ctx)
	if err != nil || len(got) != 2 {
		t.Fatalf("%v %v", got, err)
	}
	for name, err := range map[string]error{
		"cancel":  b.Cancel(ctx, []byte("1")),
		"extend":  b.Extend(ctx, []byte("1"), time.Second),
		"answer":  b.Answer(ctx, model.QuestionRef{}, []byte("{}")),
		"reject":  b.Reject(ctx, model.QuestionRef{}, model.RPCError{}),
		"close":   b.CloseSubscription(ctx, []byte("1")),
		"restart": b.Restart(ctx),
	} {
		if !errors.Is(err, ErrReadOnly) || !strings.Contains(err.Error(), "read-only: mcptui only watches") {
			t.Errorf("%s: %v", name, err)
		}
	}
	if err := b.Shutdown(ctx); err != nil {
		t.Errorf("shutdown: %v", err)
	}
	done := make(chan error, 1)
	go func() {
		_, err := b.Next(ctx)
		done <- err
	}()
	b.Close()
	if err := <-done; !errors.Is(err, io.EOF) {
		t.Fatalf("Next after Close: %v", err)
	}
}

func TestServeStopsAtEndOfInputWhileWaitingForAnAnswer(t *testing.T) {
	t.Parallel()
	rec := &record.Recording{Entries: []record.Entry{
		{Type: record.TypeSent, Msg: []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"sample"}}`)},
		{Type: record.TypeReceived, Msg: []byte(`{"jsonrpc":"2.0","id":0,"method":"sampling/createMessage","params":{}}`)},
		{Type: record.TypeSent, Msg: []byte(`{"jsonrpc":"2.0","id":0,"result":{}}`)},
		{Type: record.TypeReceived, Msg: []byte(`{"jsonrpc":"2.0","id":1,"result":{"content":[]}}`)},
	}}
	in := strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"sample"}}` + "\n")
	var out bytes.Buffer
	// The client never answers the sampling request and its input ends:
	// Serve returns, without the tool's response.
	if err := Serve(context.Background(), rec, 0, in, &out, io.Discard); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(out.String(), `"result"`) {
		t.Fatalf("answered without the client's answer:\n%s", out.String())
	}
}

func TestServeWaitsForTheClientsAnswer(t *testing.T) {
	t.Parallel()
	rec := &record.Recording{Entries: []record.Entry{
		{Type: record.TypeSent, Msg: []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"sample"}}`)},
		{Type: record.TypeReceived, Msg: []byte(`{"jsonrpc":"2.0","id":0,"method":"sampling/createMessage","params":{}}`)},
		{Type: record.TypeReceived, Msg: []byte(`{"jsonrpc":"2.0","id":1,"result":{"content":[]}}`)},
	}}
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	done := make(chan error, 1)
	go func() { done <- Serve(context.Background(), rec, 0, inR, outW, io.Discard) }()
	br := bufio.NewReader(outR)
	fmt.Fprintln(inW, `{"jsonrpc":"2.0","id":"a","method":"tools/call","params":{"name":"sample"}}`)
	if line, _ := br.ReadString('\n'); !strings.Contains(line, "sampling/createMessage") {
		t.Fatalf("first line %q", line)
	}
	fmt.Fprintln(inW, `{"jsonrpc":"2.0","id":0,"result":{"role":"assistant"}}`)
	if line, _ := br.ReadString('\n'); line != `{"jsonrpc":"2.0","id":"a","result":{"content":[]}}`+"\n" {
		t.Fatalf("response %q", line)
	}
	inW.Close()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
}
