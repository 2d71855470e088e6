package e2e

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/mcptui/mcptui/internal/testkit/tmuxtest"
)

// The test binary doubles as the scripted server: with serverEnv set it
// serves MCP on stdin/stdout (the os/exec helper-process idiom).
const (
	serverEnv = "MCPTUI_E2E_SERVER"
	resultEnv = "MCPTUI_E2E_RESULT"
)

func TestMain(m *testing.M) {
	if os.Getenv(serverEnv) != "" {
		os.Exit(samplingServer(os.Getenv(resultEnv)))
	}
	os.Exit(m.Run())
}

// samplingServer is an initialize-era server that, once initialized, asks
// the client for a completion and writes the text of the answer's content
// (or the error it got) to the file result.
func samplingServer(result string) int {
	_ = os.WriteFile(result+".pid", []byte(strconv.Itoa(os.Getpid())), 0o644)
	in := bufio.NewReader(os.Stdin)
	out := bufio.NewWriter(os.Stdout)
	send := func(line string) {
		out.WriteString(line + "\n")
		out.Flush()
	}
	for {
		line, err := in.ReadBytes('\n')
		if err != nil {
			return 0
		}
		var m struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
			Result *struct {
				Content struct {
					Text string `json:"text"`
				} `json:"content"`
			} `json:"result"`
			Error json.RawMessage `json:"error"`
		}
		if json.Unmarshal(line, &m) != nil {
			continue
		}
		switch {
		case m.Method == "initialize":
			send(`{"jsonrpc":"2.0","id":` + string(m.ID) + `,"result":{"protocolVersion":"2025-11-25","capabilities":{},"serverInfo":{"name":"e2e-sampler","version":"1.0.0"}}}`)
		case m.Method == "notifications/initialized":
			fmt.Fprintln(os.Stderr, "asking for a completion")
			send(`{"jsonrpc":"2.0","id":"s-1","method":"sampling/createMessage","params":{"messages":[{"role":"user","content":{"type":"text","text":"Summarize the build in one line."}}],"maxTokens":100}}`)
		case m.ID != nil && m.Method != "":
			send(`{"jsonrpc":"2.0","id":` + string(m.ID) + `,"error":{"code":-32601,"message":"Method not found"}}`)
		case string(m.ID) == `"s-1"`:
			got := "error: " + string(m.Error)
			if m.Result != nil {
				got = m.Result.Content.Text
			}
			if err := os.WriteFile(result+".tmp", []byte(got), 0o644); err == nil {
				_ = os.Rename(result+".tmp", result)
			}
		}
	}
}

// TestAnswerSamplingByHand: the server asks for a completion; the person
// opens the question, types the reply, keeps it as a draft, approves the
// prepared answer, and the server receives exactly that text.
func TestAnswerSamplingByHand(t *testing.T) {
	tmuxtest.Require(t)
	bin := tmuxtest.Build(t)
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	result := filepath.Join(t.TempDir(), "received")
	command := fmt.Sprintf("env TERM=xterm-256color COLORTERM=truecolor %s=1 %s=%s GORACE=atexit_sleep_ms=0 %s --no-bell -- %s",
		serverEnv, resultEnv, result, bin, self)
	x := tmuxtest.Start(t, "e2e-sampling", 160, 48, command)

	x.WaitFor("e2e-sampler 1.0.0")
	x.WaitFor("pending 1")
	x.WaitFor("Summarize the build in one line.")

	reply := `The build passed: 2 warnings — café "ok" ✓`
	x.Keys("2")
	x.Keys("Enter")
	x.WaitFor("you are the model")
	x.Text(reply)
	x.WaitFor(reply)
	// Keep it as a draft, then approve the prepared answer, which carries
	// it.
	x.Keys("Escape")
	x.WaitUntil("the draft in the question's summary", func(s string) bool {
		return strings.Contains(s, "reply") && strings.Contains(s, "café") && !strings.Contains(s, "you are the model")
	})
	x.Keys("a")
	x.WaitFor("answered sampling/createMessage")

	ctx, cancel := context.WithTimeout(context.Background(), tmuxtest.Deadline)
	defer cancel()
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	for {
		if got, err := os.ReadFile(result); err == nil {
			if string(got) != reply {
				t.Fatalf("the server received %q, want %q", got, reply)
			}
			break
		}
		select {
		case <-ctx.Done():
			t.Fatalf("the server never received the answer:\n%s", x.Screen())
		case <-tick.C:
		}
	}

	// Quit: the program ends, and so does the server.
	x.Keys("q")
	x.WaitExit()
	b, err := os.ReadFile(result + ".pid")
	if err != nil {
		t.Fatal(err)
	}
	pid, _ := strconv.Atoi(string(b))
	if still, err := stillRuns(pid); still {
		t.Errorf("the server (pid %d) outlived mcptui: %v", pid, err)
	}
}
