package ui

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/mcptui/mcptui/internal/backend"
	"github.com/mcptui/mcptui/mcp"
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
