package ui

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/mcptui/mcptui/internal/backend"
	"github.com/mcptui/mcptui/mcp"
	"github.com/mcptui/mcptui/model"
)

// TestPostMortemKeyOnTheDemo: on a failed call selected in pane 1, the
// post-mortem key writes the call's redacted Markdown post-mortem to a
// file and says its path; the file holds that call's stderr line and
// none of the calls before and after it.
func TestPostMortemKeyOnTheDemo(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("TMPDIR", dir) // os.TempDir, where the file goes
	l := startDemo(t, []string{mcp.Version20251125})
	defer l.quit()
	l.waitText("● ready")
	stderrLines := func(s string) int {
		m := regexp.MustCompile(`Stderr \((\d+)\)`).FindStringSubmatch(s)
		if m == nil {
			return -1
		}
		n, _ := strconv.Atoi(m[1])
		return n
	}
	call := func(params string) {
		t.Helper()
		n := stderrLines(l.screen())
		_, _ = l.sess.Call(context.Background(), backend.CallRequest{Method: "tools/call", Params: json.RawMessage(params), Timeout: 20 * time.Second})
		// The demo writes "[demo HH:MM:SS.mmm] tools/call NAME" on
		// stderr for each call: wait until it is read, so that it cannot
		// fall into the next call's time.
		l.waitFor("one more stderr line", func(s string) bool { return stderrLines(s) > n })
	}
	call(`{"name":"echo","arguments":{"message":"before"}}`)
	call(`{"name":"rpc_error","arguments":{"code":-32001,"message":"planned failure"}}`)
	call(`{"name":"fail","arguments":{"message":"after"}}`)
	// Pane 1 lists the newest first: fail, rpc_error, echo.
	l.p.Send(keyMsg("1"))
	l.p.Send(keyMsg("g"))
	l.p.Send(keyMsg("j"))
	l.p.Send(keyMsg("m"))
	l.waitText("post-mortem of request")
	var files []string
	l.waitFor("the post-mortem file", func(string) bool {
		files, _ = filepath.Glob(filepath.Join(dir, "mcptui-post-mortem-*.md"))
		return len(files) == 1
	})
	if !strings.Contains(l.screen(), filepath.Base(files[0])[:len("mcptui-post-mortem-")]) {
		t.Errorf("the screen does not say the file:\n%s", l.screen())
	}
	b, err := os.ReadFile(files[0])
	if err != nil {
		t.Fatal(err)
	}
	doc := string(b)
	for _, want := range []string{"# `tools/call rpc_error`", "error -32001 planned failure", "] tools/call rpc_error", "Written by the mcptui inspector"} {
		if !strings.Contains(doc, want) {
			t.Errorf("the post-mortem lacks %q:\n%s", want, doc)
		}
	}
	for _, other := range []string{"] tools/call echo", "] tools/call fail"} {
		if strings.Contains(doc, other) {
			t.Errorf("the post-mortem holds another call's stderr line %q:\n%s", other, doc)
		}
	}
	if fi, err := os.Stat(files[0]); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("the file's mode: %v %v", fi.Mode(), err)
	}
}

// postMortemFile presses the post-mortem key on the request at row (from
// the top, newest first) of pane 1 and returns the new file's content.
func (l *live) postMortemFile(dir string, row int) string {
	l.t.Helper()
	before, _ := filepath.Glob(filepath.Join(dir, "mcptui-post-mortem-*.md"))
	l.p.Send(keyMsg("1"))
	l.p.Send(keyMsg("g"))
	for range row {
		l.p.Send(keyMsg("j"))
	}
	l.p.Send(keyMsg("m"))
	// The file appears before its content is all written: wait for its
	// last line too (seen empty on a busy machine).
	var doc string
	l.waitFor("a new post-mortem file, written to its end", func(string) bool {
		files, _ := filepath.Glob(filepath.Join(dir, "mcptui-post-mortem-*.md"))
		for _, f := range files {
			if !slices.Contains(before, f) {
				b, err := os.ReadFile(f)
				doc = string(b)
				return err == nil && strings.Contains(doc, "\nWritten by the mcptui ")
			}
		}
		return false
	})
	return doc
}

// TestPostMortemNamesWhatEndedTheCall: the post-mortem written in the
// inspector names the timer that fired (the per-request timeout, 1s, on
// the demo's slow tool) and when; a call the person cancelled with the
// cancel key names the key; a call answered says no timer fired; and the
// lint findings on the lines are none for these clean calls.
func TestPostMortemNamesWhatEndedTheCall(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("TMPDIR", dir)
	l := startDemo(t, []string{mcp.Version20251125})
	defer l.quit()
	l.waitText("● ready")
	if _, err := l.sess.Call(context.Background(), backend.CallRequest{Method: "tools/call", Params: json.RawMessage(`{"name":"slow","arguments":{"seconds":60}}`), Timeout: time.Second}); err == nil {
		t.Fatal("slow answered within its 1s timeout")
	}
	// The model folds the cancellation in when the inbox hands it over.
	l.waitMatch(`→2\s+tools/call slow .* cancelled`)
	doc := l.postMortemFile(dir, 0)
	timer := section(doc, "Which timer fired")
	for _, want := range []string{"The per-request timeout: 1s, fired at +1.", "| per-request timeout (`--timeout`) | 1s |"} {
		if !strings.Contains(timer, want) {
			t.Errorf("the timed-out call's post-mortem lacks %q:\n%s", want, doc)
		}
	}
	if !strings.Contains(section(doc, "Lint findings on its lines"), "None: its lines broke no rule") {
		t.Errorf("the timed-out call's findings:\n%s", doc)
	}

	done := make(chan error, 1)
	go func() {
		_, err := l.sess.Call(context.Background(), backend.CallRequest{Method: "tools/call", Params: json.RawMessage(`{"name":"slow","arguments":{"seconds":60}}`), Timeout: time.Minute})
		done <- err
	}()
	l.waitMatch(`→3\s+tools/call slow .* left`)
	l.p.Send(keyMsg("1"))
	l.p.Send(keyMsg("g"))
	l.p.Send(keyMsg("c"))
	select {
	case err := <-done:
		if err == nil {
			t.Fatal("the cancelled call answered")
		}
	case <-time.After(liveDeadline):
		t.Fatal("the cancel key did not end the call")
	}
	l.waitMatch(`→3\s+tools/call slow .* cancelled`)
	doc = l.postMortemFile(dir, 0)
	if got := section(doc, "Which timer fired"); !strings.Contains(got, "None: it was cancelled at +") || !strings.Contains(got, "cancelled by the person (the cancel key)") {
		t.Errorf("the cancelled call's post-mortem:\n%s", doc)
	}

	if _, err := l.sess.Call(context.Background(), backend.CallRequest{Method: "tools/call", Params: json.RawMessage(`{"name":"echo","arguments":{"message":"hi"}}`), Timeout: 20 * time.Second}); err != nil {
		t.Fatal(err)
	}
	l.waitMatch(`→4\s+tools/call echo .* ok`)
	doc = l.postMortemFile(dir, 0)
	if got := section(doc, "Which timer fired"); !strings.HasPrefix(strings.TrimSpace(got), "None: the server answered after ") {
		t.Errorf("the answered call's post-mortem:\n%s", doc)
	}
}

// TestPostMortemListsTheLintFindings: a server that breaks a rule on its
// answer (a result that is no object): the post-mortem of that call lists
// the live lint's finding, with the rule's level and its section of the
// specification.
func TestPostMortemListsTheLintFindings(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("TMPDIR", dir)
	l := startLive(t, "rulebreaker", model.Config{})
	defer l.quit()
	l.waitText("● ready")
	if _, err := l.sess.Call(context.Background(), backend.CallRequest{Method: "tools/call", Params: json.RawMessage(`{"name":"broken","arguments":{}}`), Timeout: 20 * time.Second}); err != nil {
		t.Fatal(err)
	}
	l.waitMatch(`tools/call broken .* ok`)
	doc := l.postMortemFile(dir, 0)
	got := section(doc, "Lint findings on its lines")
	for _, want := range []string{"**`basic.result-object`** (MUST) on the answer", "the rule: ", "https://modelcontextprotocol.io/specification/2025-11-25/basic#responses"} {
		if !strings.Contains(got, want) {
			t.Errorf("the findings lack %q:\n%s", want, doc)
		}
	}
}

// section is the Markdown section of doc under "## heading".
func section(doc, heading string) string {
	_, after, ok := strings.Cut(doc, "\n## "+heading+"\n")
	if !ok {
		return ""
	}
	body, _, _ := strings.Cut(after, "\n## ")
	return body
}

// TestPostMortemOfACallTheServerDiedOn: no timer fired on a call whose
// server exited first: the post-mortem says the transport closed, with the
// exit status and when.
func TestPostMortemOfACallTheServerDiedOn(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("TMPDIR", dir)
	l := startLive(t, "crash", model.Config{})
	defer l.quit()
	l.waitText("● ready")
	if _, err := l.sess.Call(context.Background(), backend.CallRequest{Method: "tools/call", Params: json.RawMessage(`{"name":"any","arguments":{}}`), Timeout: 20 * time.Second}); err == nil {
		t.Fatal("the crashing server answered")
	}
	l.waitText("exited")
	doc := l.postMortemFile(dir, 0)
	if got := section(doc, "Which timer fired"); !strings.Contains(got, "None: the transport closed first: the server process ended (exit status 2) at +") {
		t.Errorf("the post-mortem:\n%s", doc)
	}
}
