package attach

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/mcptui/mcptui/internal/replay"
	"github.com/mcptui/mcptui/internal/tap"
	"github.com/mcptui/mcptui/model"
	"github.com/mcptui/mcptui/ui/kit"
)

// Run opens the inspector on the tap named name in dir ("" = the first of
// tap.RuntimeDirs where a tap of that name answers) and returns when the
// person quits.
func Run(ctx context.Context, dir, name string, opts Options) error {
	dirs := []string{dir}
	if dir == "" {
		dirs = tap.RuntimeDirs(os.Getenv)
	}
	v, err := watch(dirs, name)
	if err != nil {
		return err
	}
	defer v.Close()
	header, err := readHeader(v)
	if err != nil {
		return err
	}
	backend := replay.NewBackend(nil)
	defer backend.Close()
	follower, start := replay.NewFollower(header)
	// Every line comes judged by the live lint with the output schemas'
	// validator (opts.Linter), in the feed's goroutine, not the UI's.
	var pre *model.Prelinter
	if opts.Linter != nil {
		pre = model.NewPrelinterWith(opts.Linter())
		pre.Lint(start)
		backend.Push(model.LintAhead{On: true})
	}
	backend.Push(start...)
	m := New(name, header, backend, v, opts)
	p := tea.NewProgram(m, tea.WithContext(ctx), kit.DetectedColors())
	go follow(v, follower, backend, pre, p.Send)
	if _, err := p.Run(); err != nil && ctx.Err() == nil {
		return fmt.Errorf("attach: %w", err)
	}
	return nil
}

// watch connects to the tap named name in the first of dirs where one
// answers; the error names every place it looked.
func watch(dirs []string, name string) (*tap.Viewer, error) {
	var tried []string
	for _, dir := range dirs {
		if err := tap.CheckDir(dir); err != nil {
			if !errors.Is(err, os.ErrNotExist) {
				tried = append(tried, fmt.Sprintf("%s (skipped: %v)", dir, err))
			} else {
				tried = append(tried, dir+" (none)")
			}
			continue
		}
		socket := tap.SocketPath(dir, tap.CleanName(name))
		v, err := tap.Watch(socket)
		if err == nil {
			return v, nil
		}
		if errors.Is(err, os.ErrNotExist) {
			tried = append(tried, dir+" (none)")
		} else {
			tried = append(tried, fmt.Sprintf("%s (%v)", socket, err))
		}
	}
	return nil, fmt.Errorf("no tap named %q is running (mcptui attach lists them); looked in %s", name, strings.Join(tried, ", "))
}
