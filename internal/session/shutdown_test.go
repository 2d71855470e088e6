package session

import (
	"context"
	"errors"
	"os"
	"testing"
	"time"

	"github.com/mcptui/mcptui/conn"
	"github.com/mcptui/mcptui/internal/session/inbox"
	"github.com/mcptui/mcptui/internal/testkit/proctree"
	"github.com/mcptui/mcptui/mcp"
	"github.com/mcptui/mcptui/model"
)

// startTree is a session on the demo server inside a process tree of the
// role, every process of it marked.
func startTree(t *testing.T, role string) (*harness, proctree.Mark) {
	t.Helper()
	t.Setenv(roleEnv, "1")
	mark := proctree.NewMark(t)
	value := mark.Value
	exe, args := proctree.Command(t, role, mustExecutable(t))
	s, err := Start(context.Background(), Config{
		Command:       exe,
		Args:          args,
		MCP:           mcp.Options{Conn: conn.Options{Env: []conn.EnvVar{{Name: mark.Name, Value: &value}}}},
		Inbox:         inbox.New(inbox.Limits{}),
		ShutdownGrace: 100 * time.Millisecond,
	})
	if err != nil {
		t.Fatal(err)
	}
	return &harness{t: t, s: s}, mark
}

func mustExecutable(t *testing.T) string {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return exe
}

// The pid in the header is the direct child's, known as soon as it runs;
// each stage of the shutdown is an event; the tree is gone at the end.
func TestShutdownStagesAndPID(t *testing.T) {
	h, mark := startTree(t, proctree.Stubborn)
	spawned := waitFor(h, "the spawn", anyOf[model.Spawned])
	ready := waitFor(h, "ready", anyOf[model.Ready])
	if spawned.PID == 0 || spawned.PID != ready.PID {
		t.Fatalf("spawned pid %d, ready pid %d: want the same, known at the spawn", spawned.PID, ready.PID)
	}
	if err := h.s.Shutdown(context.Background()); err == nil {
		t.Fatal("Shutdown of a launcher that ignores EOF and SIGTERM: nil, want an error saying it was killed")
	}
	for _, stage := range []conn.ShutdownStage{conn.StageClosing, conn.StageWaiting, conn.StageTerminating, conn.StageKilling, conn.StageDone} {
		waitFor(h, "the stage "+stage.String(), func(e model.Stopping) bool { return e.Stage == stage.String() })
	}
	mark.WaitNone(t)
}

// Shutdown honours its context: it returns when ctx ends, and the shutdown
// goes on to its end in the background.
func TestShutdownHonoursItsContext(t *testing.T) {
	h, mark := startTree(t, proctree.Stubborn)
	waitFor(h, "ready", anyOf[model.Ready])
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := h.s.Shutdown(ctx); !errors.Is(err, context.Canceled) {
		t.Fatalf("Shutdown with a cancelled context: %v, want context.Canceled", err)
	}
	mark.WaitNone(t)
}
