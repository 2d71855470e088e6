package attach

import (
	"context"
	"fmt"

	tea "charm.land/bubbletea/v2"

	"github.com/mcptui/mcptui/internal/replay"
	"github.com/mcptui/mcptui/internal/tap"
)

// Run opens the inspector on the tap named name in dir ("" = the
// runtime dir) and returns when the person quits.
func Run(ctx context.Context, dir, name string, opts Options) error {
	if dir == "" {
		dir = tap.RuntimeDir()
	}
	if err := tap.CheckDir(dir); err != nil {
		return fmt.Errorf("attach: %w", err)
	}
	v, err := tap.Watch(tap.SocketPath(dir, tap.CleanName(name)))
	if err != nil {
		return fmt.Errorf("attach: no tap named %q is running (mcptui attach lists them): %w", name, err)
	}
	defer v.Close()
	header, err := readHeader(v)
	if err != nil {
		return err
	}
	backend := replay.NewBackend(nil)
	defer backend.Close()
	follower, start := replay.NewFollower(header)
	backend.Push(start...)
	m := New(name, header, backend, v, opts)
	p := tea.NewProgram(m, tea.WithContext(ctx))
	go follow(v, follower, backend, p.Send)
	if _, err := p.Run(); err != nil && ctx.Err() == nil {
		return fmt.Errorf("attach: %w", err)
	}
	return nil
}
