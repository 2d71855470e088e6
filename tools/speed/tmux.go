package main

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"time"
)

// replayDone says whether the inspector's screen shows a replay read to
// its end: the REPLAY bar is up and no longer reading.
func replayDone(screen string) bool {
	m := replayStatus.FindStringSubmatch(screen)
	return m != nil && m[1] == m[2] && !replayFolding.MatchString(m[3])
}

// replayStatus is the timeline's status line: the cursor, the number of
// events read and what follows. A recording read as a stream (newer
// builds) shows its screen, and a cursor at the end of what was read so
// far, before the inspector has folded it all; older builds read the
// whole file first ("reading the recording…", which has no count).
var replayStatus = regexp.MustCompile(`REPLAY \S+ (\d+)/(\d+) (.*)`)

// replayFolding is the status line's progress while the inspector folds
// the events up to the cursor ("loading… 40%", "rebuilding… 7%").
var replayFolding = regexp.MustCompile(`… \d+%`)

// step is keys pressed once the replay is at its end, and the screen they
// are done at.
type step struct {
	keys []string
	done func(screen string) bool
}

// openSelected opens the selected request's response (Enter on the
// requests pane) and waits for the viewer to show what: a substring of
// the result's first screen.
func openSelected(what string) step {
	return step{keys: []string{"Enter"}, done: func(screen string) bool { return strings.Contains(screen, what) }}
}

// inspectReplay runs `mcptui replay FILE` in a tmux of its own (160×48),
// through -wrap for its rusage, until its screen shows the recording's
// end, then takes the steps, then presses q (until it quits: the first
// closes what a step opened). The wall time is to the last screen; CPU
// and peak RSS are the process's whole life (the quit adds little).
func inspectReplay(e *env, b *build, file string, steps ...step) (sample, error) {
	e.seq++
	socket := fmt.Sprintf("speed-%d-%d", os.Getpid(), e.seq)
	out := filepath.Join(e.tmp, fmt.Sprintf("wrap-%d.json", e.seq))
	tmux := func(args ...string) *exec.Cmd {
		return exec.CommandContext(e.ctx, "tmux", append([]string{"-L", socket}, args...)...)
	}
	defer func() { _ = exec.Command("tmux", "-L", socket, "kill-server").Run() }()
	line := "env TERM=xterm-256color " + quoteAll([]string{e.self, "-wrap", out, "--", b.mcptui, "replay", file})
	start := time.Now()
	if msg, err := tmux("new-session", "-d", "-s", "s", "-x", "160", "-y", "48", line).CombinedOutput(); err != nil {
		return sample{}, fmt.Errorf("tmux: %w: %s", err, msg)
	}
	deadline := start.Add(5 * time.Minute)
	var screen []byte
	for {
		screen, _ = tmux("capture-pane", "-p", "-t", "s").Output()
		if replayDone(string(screen)) {
			break
		}
		if time.Now().After(deadline) || e.ctx.Err() != nil {
			return sample{}, fmt.Errorf("the replay never reached its end:\n%s", screen)
		}
		time.Sleep(20 * time.Millisecond) // the poll's period, not a synchronization
	}
	for _, st := range steps {
		if err := tmux(append([]string{"send-keys", "-t", "s"}, st.keys...)...).Run(); err != nil {
			return sample{}, fmt.Errorf("tmux send-keys: %w", err)
		}
		for {
			screen, _ = tmux("capture-pane", "-p", "-t", "s").Output()
			if st.done(string(screen)) {
				break
			}
			if time.Now().After(deadline) || e.ctx.Err() != nil {
				return sample{}, fmt.Errorf("%v never showed what it opens:\n%s", st.keys, screen)
			}
			time.Sleep(20 * time.Millisecond) // the poll's period, not a synchronization
		}
	}
	wall := time.Since(start)
	quitAt := time.Time{}
	for deadline = time.Now().Add(time.Minute); ; {
		if time.Since(quitAt) > 2*time.Second {
			// q again while it runs (a step's view takes the first); the
			// session may be gone by then, so a failed send is no error.
			err := tmux("send-keys", "-t", "s", "q").Run()
			if err != nil && quitAt.IsZero() {
				return sample{}, fmt.Errorf("tmux send-keys: %w", err)
			}
			quitAt = time.Now()
		}
		data, err := os.ReadFile(out)
		if err == nil {
			var s sample
			if err := json.Unmarshal(data, &s); err != nil {
				return sample{}, fmt.Errorf("%s: %w", out, err)
			}
			s.Wall = wall.Seconds()
			return s, nil
		}
		if time.Now().After(deadline) {
			screen, _ = tmux("capture-pane", "-p", "-t", "s").Output()
			return sample{}, fmt.Errorf("mcptui did not quit on q:\n%s", screen)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func quote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

func quoteAll(words []string) string {
	q := make([]string, len(words))
	for i, w := range words {
		q[i] = quote(w)
	}
	return strings.Join(q, " ")
}
