package session

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/mcptui/mcptui/internal/backend"
	"github.com/mcptui/mcptui/internal/session/inbox"
	"github.com/mcptui/mcptui/model"
)

// floodEnv makes the test binary the flooding server of floodServer.
const floodEnv = "SESSION_TEST_FLOOD_SERVER"

// floodNotifications is how many progress notifications the flooding
// server sends before its answer: ten times the inbox's hard limit
// in the test.
const floodNotifications = 20_000

// floodServer is a legacy MCP server whose tools/call answers after
// floodNotifications progress notifications for it, then says its last
// words on stderr and exits with status 3.
func floodServer() int {
	in := bufio.NewReader(os.Stdin)
	out := bufio.NewWriterSize(os.Stdout, 1<<20)
	for {
		line, err := in.ReadBytes('\n')
		if err != nil {
			return 0
		}
		var m struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
			Params struct {
				Meta struct {
					Token json.RawMessage `json:"progressToken"`
				} `json:"_meta"`
			} `json:"params"`
		}
		if json.Unmarshal(line, &m) != nil || m.ID == nil {
			continue
		}
		switch m.Method {
		case "initialize":
			fmt.Fprintf(out, `{"jsonrpc":"2.0","id":%s,"result":{"protocolVersion":"2025-11-25","capabilities":{"tools":{}},"serverInfo":{"name":"flood","version":"1"}}}`+"\n", m.ID)
		case "tools/call":
			for i := range floodNotifications {
				fmt.Fprintf(out, `{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":%s,"progress":%d,"total":%d}}`+"\n", m.Params.Meta.Token, i, floodNotifications)
			}
			fmt.Fprintf(out, `{"jsonrpc":"2.0","id":%s,"result":{"content":[{"type":"text","text":"the answer"}]}}`+"\n", m.ID)
			out.Flush()
			fmt.Fprintln(os.Stderr, "last words before exit")
			os.Exit(3)
		default:
			fmt.Fprintf(out, `{"jsonrpc":"2.0","id":%s,"error":{"code":-32601,"message":"no %s"}}`+"\n", m.ID, m.Method)
		}
		out.Flush()
	}
}

// TestFloodNeverLosesTheAnswer: a server floods progress notifications
// past the inbox's hard limit while nobody drains it, then answers, writes
// a last stderr line and exits. The notifications are shed and counted;
// the request, its answer, the last stderr line and the exit all reach the
// model, which closes the call as answered.
func TestFloodNeverLosesTheAnswer(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv(floodEnv, "1")
	in := inbox.New(inbox.Limits{MaxEvents: 1000})
	s, err := Start(context.Background(), Config{Command: exe, Inbox: in})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Shutdown(context.Background()) })
	h := &harness{t: t, s: s}
	waitFor(h, "Ready", anyOf[model.Ready])

	// Nobody drains the inbox while the call runs.
	res, err := s.Call(context.Background(), backend.CallRequest{
		Method: "tools/call", Params: json.RawMessage(`{"name":"work"}`), Progress: true, ResetOnProgress: true, Timeout: waitTimeout,
	})
	if err != nil || !strings.Contains(string(res), "the answer") {
		t.Fatalf("Call = %s, %v", res, err)
	}
	waitFor(h, "the exit", anyOf[model.Exited])

	sess := model.New(model.Config{})
	sess.ApplyAll(h.events)
	var call *model.Call
	for _, c := range sess.Recent() {
		if c.Method == "tools/call" {
			call = c
		}
	}
	if call == nil || call.Outcome.Kind != model.Succeeded || call.ResponseSeq == 0 {
		t.Fatalf("the model's tools/call = %+v, want it answered", call)
	}
	if lost := sess.Counters().Lost; lost == 0 || lost > floodNotifications {
		t.Errorf("lost %d, want the shed notifications counted", lost)
	}
	if tail := sess.StderrTail(5); len(tail) == 0 || tail[len(tail)-1] != "last words before exit" {
		t.Errorf("stderr tail = %q, want the last words", tail)
	}
	if st := sess.Conn().ExitStatus; !strings.Contains(st, "exit status 3") {
		t.Errorf("exit status %q", st)
	}
}
