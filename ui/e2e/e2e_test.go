package e2e

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// The test binary doubles as the scripted server: with serverEnv set it
// serves MCP on stdin/stdout (the os/exec helper-process idiom).
const (
	serverEnv = "MCPTUI_E2E_SERVER"
	resultEnv = "MCPTUI_E2E_RESULT"
)

// deadline bounds each wait: generous for a loaded machine, never a
// measure of speed.
const deadline = 2 * time.Minute

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

// tmux runs tmux on the test's own server socket.
type tmux struct {
	t      *testing.T
	socket string
}

func (x tmux) run(args ...string) string {
	x.t.Helper()
	out, err := exec.Command("tmux", append([]string{"-L", x.socket}, args...)...).CombinedOutput()
	if err != nil {
		x.t.Fatalf("tmux %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

func (x tmux) screen() string {
	out, err := exec.Command("tmux", "-L", x.socket, "capture-pane", "-p", "-t", "e2e").CombinedOutput()
	if err != nil {
		return ""
	}
	return string(out)
}

// waitFor polls the pane until it shows text.
func (x tmux) waitFor(text string) string {
	x.t.Helper()
	return x.waitUntil(fmt.Sprintf("%q", text), func(s string) bool { return strings.Contains(s, text) })
}

func (x tmux) waitUntil(what string, ok func(string) bool) string {
	x.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), deadline)
	defer cancel()
	tick := time.NewTicker(50 * time.Millisecond)
	defer tick.Stop()
	for {
		s := x.screen()
		if ok(s) {
			return s
		}
		select {
		case <-ctx.Done():
			x.t.Fatalf("the terminal never showed %s:\n%s", what, s)
		case <-tick.C:
		}
	}
}

// buildMcptui builds the binary from this module.
func buildMcptui(t *testing.T) string {
	t.Helper()
	root, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}").Output()
	if err != nil {
		t.Fatalf("finding the module: %v", err)
	}
	bin := filepath.Join(t.TempDir(), "mcptui")
	cmd := exec.Command("go", "build", "-o", bin, ".")
	cmd.Dir = strings.TrimSpace(string(root))
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// TestAnswerSamplingByHand: the server asks for a completion; the person
// opens the question, types the reply, keeps it as a draft, approves the
// prepared answer, and the server receives exactly that text.
func TestAnswerSamplingByHand(t *testing.T) {
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("tmux is not installed: this end-to-end test drives the real binary in tmux (apt-get install tmux)")
	}
	bin := buildMcptui(t)
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	result := filepath.Join(t.TempDir(), "received")
	x := tmux{t: t, socket: fmt.Sprintf("mcptui-e2e-%d", os.Getpid())}
	t.Cleanup(func() { _ = exec.Command("tmux", "-L", x.socket, "kill-server").Run() })
	command := fmt.Sprintf("env TERM=xterm-256color COLORTERM=truecolor %s=1 %s=%s GORACE=atexit_sleep_ms=0 %s --no-bell -- %s",
		serverEnv, resultEnv, result, bin, self)
	x.run("new-session", "-d", "-s", "e2e", "-x", "160", "-y", "48", command)

	x.waitFor("e2e-sampler 1.0.0")
	x.waitFor("pending 1")
	x.waitFor("Summarize the build in one line.")

	reply := `The build passed: 2 warnings — café "ok" ✓`
	x.run("send-keys", "-t", "e2e", "2")
	x.run("send-keys", "-t", "e2e", "Enter")
	x.waitFor("Reply as the model to sampling/createMessage")
	x.run("send-keys", "-t", "e2e", "-l", reply)
	x.waitFor(reply)
	// Keep it as a draft, then approve the prepared answer, which carries
	// it.
	x.run("send-keys", "-t", "e2e", "Escape")
	x.waitUntil("the draft in the question's summary", func(s string) bool {
		return strings.Contains(s, "reply") && strings.Contains(s, "café") && !strings.Contains(s, "Reply as the model")
	})
	x.run("send-keys", "-t", "e2e", "a")
	x.waitFor("answered sampling/createMessage")

	ctx, cancel := context.WithTimeout(context.Background(), deadline)
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
			t.Fatalf("the server never received the answer:\n%s", x.screen())
		case <-tick.C:
		}
	}

	// Quit: the program ends, and so does the server.
	x.run("send-keys", "-t", "e2e", "q")
	x.waitUntil("the program's end", func(s string) bool {
		return exec.Command("tmux", "-L", x.socket, "has-session", "-t", "e2e").Run() != nil
	})
	b, err := os.ReadFile(result + ".pid")
	if err != nil {
		t.Fatal(err)
	}
	pid, _ := strconv.Atoi(string(b))
	if err := syscall.Kill(pid, 0); !errors.Is(err, syscall.ESRCH) {
		t.Errorf("the server (pid %d) outlived mcptui: kill(0) = %v", pid, err)
	}
}
