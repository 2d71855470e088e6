package e2e

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mcptui/mcptui/internal/everything"
)

// deadline bounds each wait: generous for a loaded machine, never a
// measure of speed.
const deadline = 2 * time.Minute

// server is the command line that starts the everything server (the test
// is skipped, saying why, when it cannot be had).
func server(t *testing.T) string {
	command, args := everything.Server(t)
	return strings.Join(append([]string{command}, args...), " ")
}

// tmux runs tmux on the test's own server socket.
type tmux struct {
	t      *testing.T
	socket string
}

func (x tmux) run(args ...string) {
	x.t.Helper()
	out, err := exec.Command("tmux", append([]string{"-L", x.socket}, args...)...).CombinedOutput()
	if err != nil {
		x.t.Fatalf("tmux %s: %v\n%s", strings.Join(args, " "), err, out)
	}
}

// keys sends tmux key names; text sends literal text.
func (x tmux) keys(names ...string) { x.run(append([]string{"send-keys", "-t", "e2e"}, names...)...) }
func (x tmux) text(s string)        { x.run("send-keys", "-t", "e2e", "-l", s) }

func (x tmux) screen() string {
	out, err := exec.Command("tmux", "-L", x.socket, "capture-pane", "-p", "-t", "e2e").CombinedOutput()
	if err != nil {
		return ""
	}
	return string(out)
}

// waitFor polls the pane until it shows every text.
func (x tmux) waitFor(texts ...string) string {
	x.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), deadline)
	defer cancel()
	tick := time.NewTicker(50 * time.Millisecond)
	defer tick.Stop()
	for {
		s := x.screen()
		ok := true
		for _, text := range texts {
			ok = ok && strings.Contains(s, text)
		}
		if ok {
			return s
		}
		select {
		case <-ctx.Done():
			x.t.Fatalf("the terminal never showed %q:\n%s", texts, s)
		case <-tick.C:
		}
	}
}

// waitGone polls the pane until it no longer shows text.
func (x tmux) waitGone(text string) {
	x.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), deadline)
	defer cancel()
	tick := time.NewTicker(50 * time.Millisecond)
	defer tick.Stop()
	for strings.Contains(x.screen(), text) {
		select {
		case <-ctx.Done():
			x.t.Fatalf("the terminal kept showing %q:\n%s", text, x.screen())
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

// TestFillEverythingElicitation: in the real binary, the explorer calls
// the everything server's trigger-elicitation-request; the server asks for
// a form; ctrl+a opens it; the person types a name, ticks the box, types an
// email, changes an enum and a multi-select, and accepts; the tool's reply
// lists exactly those answers.
func TestFillEverythingElicitation(t *testing.T) {
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("SKIP: tmux is not installed: this end-to-end test drives the real binary in tmux (apt-get install tmux)")
	}
	srv := server(t)
	bin := buildMcptui(t)
	x := tmux{t: t, socket: fmt.Sprintf("mcptui-e2e-answer-%d", os.Getpid())}
	t.Cleanup(func() { _ = exec.Command("tmux", "-L", x.socket, "kill-server").Run() })
	command := fmt.Sprintf("env TERM=xterm-256color COLORTERM=truecolor XDG_STATE_HOME=%s %s --no-bell -- %s",
		t.TempDir(), bin, srv)
	x.run("new-session", "-d", "-s", "e2e", "-x", "150", "-y", "46", command)
	x.waitFor("mcp-servers/everything", "● ready")
	// The everything server asks for the client's roots right after the
	// handshake. Answer that first (approve the prepared, empty list), so
	// the only question left to answer below is the elicitation.
	x.waitFor("pending 1")
	x.keys("2")
	x.keys("a")
	x.waitFor("pending 0")

	x.keys("E")
	x.waitFor("Explorer — mcp-servers/everything", "trigger-elicitation-request")
	x.keys("/")
	x.text("trigger-elicitation-request")
	x.keys("Enter")
	x.waitFor("filter trigger-elicitation-request")
	x.keys("Enter")
	x.waitFor("Call tool trigger-elicitation-request")
	x.keys("C-s")
	x.waitFor("waiting for tools/call trigger-elicitation-request", "ctrl+a answers")

	x.keys("C-a")
	x.waitFor("Please provide inputs for the following fields:", "Your full, legal name")
	x.text("Ada Lovelace")
	x.keys("Down", "Space") // agree to the terms
	x.keys("Down", "Down")  // past the default first line, to the email
	x.text("ada@example.com")
	// Down to the integer, replace 42 with 7.
	x.keys("Down", "Down", "Down", "C-u")
	x.text("7")
	// The untitled single select: Monica → Rachel.
	x.keys("Down", "Down", "Right")
	// The untitled multi-select: Piano besides Guitar.
	x.keys("Down", "Down", "Down", "Space")
	x.waitFor("Ada Lovelace", "ada@example.com", "‹ Rachel ›", "2 of 5 picked")
	x.keys("C-s")

	s := x.waitFor("tools/call trigger-elicitation-request ·",
		"User provided the requested information!", "- Name: Ada Lovelace", "- Agreed to terms: true",
		"- Email: ada@example.com", "- Favorite Integer: 7")
	for _, want := range []string{`"untitledSingleSelectEnum": "Rachel"`, `"Guitar",`, `"Piano"`} {
		if !strings.Contains(s, want) {
			t.Errorf("the tool's reply lacks %s:\n%s", want, s)
		}
	}

	// Leave the explorer and quit: the program ends. One escape at a time:
	// several in one write read as alt+escape.
	x.keys("Escape")
	x.waitFor("Call tool trigger-elicitation-request")
	x.keys("Escape")
	x.waitFor("filter trigger-elicitation-request")
	x.keys("Escape")
	x.waitGone("filter trigger-elicitation-request")
	x.keys("Escape")
	x.waitFor("1 In flight (")
	x.keys("q")
	ctx, cancel := context.WithTimeout(context.Background(), deadline)
	defer cancel()
	tick := time.NewTicker(50 * time.Millisecond)
	defer tick.Stop()
	for exec.Command("tmux", "-L", x.socket, "has-session", "-t", "e2e").Run() == nil {
		select {
		case <-ctx.Done():
			t.Fatalf("mcptui did not quit:\n%s", x.screen())
		case <-tick.C:
		}
	}
}
