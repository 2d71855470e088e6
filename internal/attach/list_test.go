package attach

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mcptui/mcptui/internal/tap"
)

// A tap published somewhere other than the viewer's own runtime directory
// (its host stripped XDG_RUNTIME_DIR) is listed and attached to, and the
// list and the errors say where mcptui looked.
func TestAttachLooksInEveryPlace(t *testing.T) {
	root, err := os.MkdirTemp("", "atl")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(root) })
	viewers, hosts := filepath.Join(root, "xdg", "mcptui"), filepath.Join(root, "mcptui-tmp")

	var out bytes.Buffer
	if err := List(&out, []string{viewers, hosts}, time.Now()); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "No taps are running. Looked in "+viewers+" (none), "+hosts+" (none).") {
		t.Errorf("no taps:\n%s", out.String())
	}

	stdin, feed := io.Pipe()
	published := make(chan string, 1)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		_, _ = tap.Run(ctx, tap.Options{Command: "cat", Name: "far", Dir: hosts, Stdin: stdin, Stdout: io.Discard, Stderr: io.Discard,
			OnPublish: func(_, socket string) { published <- socket }})
	}()
	t.Cleanup(func() {
		feed.Close()
		cancel()
		<-done
	})
	select {
	case <-published:
	case <-time.After(time.Minute):
		t.Fatal("the tap did not publish")
	}

	out.Reset()
	if err := List(&out, []string{viewers, hosts}, time.Now()); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "far") || !strings.Contains(out.String(), "Looked in "+viewers+" (none), "+hosts+" (1).") {
		t.Errorf("the list:\n%s", out.String())
	}
	v, err := watch([]string{viewers, hosts}, "far")
	if err != nil {
		t.Fatalf("attaching to the tap in the second place: %v", err)
	}
	v.Close()
	if _, err := watch([]string{viewers, hosts}, "near"); err == nil || !strings.Contains(err.Error(), "looked in "+viewers+" (none), "+hosts+" (none)") {
		t.Errorf("no such tap: %v", err)
	}
}
