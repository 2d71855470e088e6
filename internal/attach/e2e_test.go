package attach

import (
	"bufio"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mcptui/mcptui/internal/testkit/tmuxtest"
)

// scriptedHost runs the real mcptui tap in front of the demo server, as a
// host would start it, and talks to it line by line.
type scriptedHost struct {
	t     *testing.T
	cmd   *exec.Cmd
	stdin io.WriteCloser
	out   *bufio.Reader
}

func startHost(t *testing.T, bin, runtime, name string) *scriptedHost {
	t.Helper()
	cmd := exec.Command(bin, "tap", "--name", name, "--", bin, "demo-server")
	cmd.Env = append(os.Environ(), "XDG_RUNTIME_DIR="+runtime)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	h := &scriptedHost{t: t, cmd: cmd, stdin: stdin, out: bufio.NewReaderSize(stdout, 1<<20)}
	t.Cleanup(func() {
		stdin.Close()
		done := make(chan struct{})
		go func() { _ = cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(tmuxtest.Deadline):
			_ = cmd.Process.Kill()
			t.Errorf("the tap did not end at EOF")
		}
	})
	return h
}

// ask sends a line and returns the next line the server answers with an
// id (notifications are skipped).
func (h *scriptedHost) ask(line string) string {
	h.t.Helper()
	if _, err := io.WriteString(h.stdin, line+"\n"); err != nil {
		h.t.Fatal(err)
	}
	for {
		got, err := h.out.ReadString('\n')
		if err != nil {
			h.t.Fatalf("reading the answer to %s: %v", line, err)
		}
		if strings.Contains(got, `"id"`) {
			return got
		}
	}
}

func (h *scriptedHost) tell(line string) {
	h.t.Helper()
	if _, err := io.WriteString(h.stdin, line+"\n"); err != nil {
		h.t.Fatal(err)
	}
}

// TestAttachEndToEnd: the real binary, a tap under a scripted host, and
// mcptui attach in tmux: the list shows the tap; the inspector shows the
// host's handshake live; a breakpoint holds the host's tools/call until
// it is forwarded from the keyboard, and the traffic marks it; the
// footer offers nothing that would send (it only watches).
func TestAttachEndToEnd(t *testing.T) {
	tmuxtest.Require(t)
	bin := tmuxtest.Build(t)
	runtime, err := os.MkdirTemp("", "tape2e")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(runtime) })
	h := startHost(t, bin, runtime, "e2e")
	if got := h.ask(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"scripted-host","version":"1"}}}`); !strings.Contains(got, `"serverInfo"`) {
		t.Fatalf("initialize: %s", got)
	}
	h.tell(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)

	list, err := exec.Command("env", "XDG_RUNTIME_DIR="+runtime, bin, "attach").CombinedOutput()
	if err != nil || !strings.Contains(string(list), "e2e") || !strings.Contains(string(list), "demo-server") {
		t.Fatalf("mcptui attach (the list): %v\n%s", err, list)
	}

	x := tmuxtest.Start(t, "tap", 140, 40, "XDG_RUNTIME_DIR="+runtime+" "+bin+" attach e2e")
	x.WaitFor("ATTACH e2e", "initialize", "mcptui-demo")
	if got := h.ask(`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`); !strings.Contains(got, `"tools"`) {
		t.Fatalf("tools/list: %s", got)
	}
	x.WaitFor("tools/list")

	// Read-only: the footer offers no action that would send, and the
	// composer's key says why at once instead of opening a form.
	if foot := x.WaitFor("enter outcome", "q quit"); strings.Contains(foot, "c cancel") || strings.Contains(foot, "n new request") {
		t.Fatalf("the attached inspector offers what it cannot do:\n%s", foot)
	}
	x.Keys("n")
	if got := x.WaitFor("read-only: mcptui only watches this session"); strings.Contains(got, "ctrl+s send") {
		t.Fatalf("n opened the composer on a watched session:\n%s", got)
	}

	x.Keys("C-k")
	x.Text("dir:out method:tools/call")
	x.Keys("Enter")
	x.WaitFor("breakpoint armed: dir:out method:tools/call")
	answered := make(chan string, 1)
	go func() {
		answered <- h.ask(`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"echo","arguments":{"message":"through the tap"}}}`)
	}()
	x.WaitFor("HELD #1", "tools/call #3")
	select {
	case got := <-answered:
		t.Fatalf("the held call was answered before it was forwarded: %s", got)
	default:
	}
	x.Keys("C-f")
	select {
	case got := <-answered:
		if !strings.Contains(got, `"id":3`) {
			t.Fatalf("the answer to the forwarded call: %s", got)
		}
	case <-time.After(tmuxtest.Deadline):
		t.Fatal("the forwarded call was never answered")
	}
	screen := x.WaitFor("forwarded unchanged by the viewer")
	t.Logf("attach showed:\n%s", screen)
	x.Keys("q")
	x.WaitExit()
	_ = filepath.Join
}
