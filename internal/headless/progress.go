package headless

import (
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/mcptui/mcptui/conn"
	"github.com/mcptui/mcptui/internal/inert"
)

// barWidth is the number of cells of the progress bar.
const barWidth = 24

// progress shows notifications/progress on stderr: a bar redrawn in place on
// a terminal; otherwise a line each time what it says changes (the request,
// the percentage, the message), and at most one a second while only an
// open-ended count grows, so that a flood of notifications stays a few
// lines. It writes under the note writer's lock, so notes and the bar never
// interleave.
type progress struct {
	n     *noteWriter
	tty   bool
	shown bool
	// last and lastAt are the gist of the last line written to a
	// non-terminal and when it was written.
	last   string
	lastAt time.Time
}

// steadyInterval is how often a non-terminal hears of a count that grows
// while nothing else changes.
const steadyInterval = time.Second

func newProgress(w io.Writer, n *noteWriter) *progress {
	p := &progress{n: n, tty: isTerminal(w)}
	n.before = p.clearLocked
	return p
}

// isTerminal reports whether w is a terminal (a character device that is
// not the null device, with TERM not "dumb").
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok || os.Getenv("TERM") == "dumb" {
		return false
	}
	st, err := f.Stat()
	if err != nil || st.Mode()&os.ModeCharDevice == 0 {
		return false
	}
	if null, err := os.Stat(os.DevNull); err == nil && os.SameFile(st, null) {
		return false
	}
	return true
}

// update shows one progress notification of the request label.
func (p *progress) update(label string, pr conn.Progress) {
	if p.n.w == nil {
		return
	}
	p.n.mu.Lock()
	defer p.n.mu.Unlock()
	msg := ""
	if pr.Message != "" {
		msg = " " + inert.Fit(pr.Message, 60)
	}
	count := num(pr.Progress)
	if pr.Total > 0 {
		count += "/" + num(pr.Total)
	}
	if !p.tty {
		pct := ""
		if pr.Total > 0 {
			pct = fmt.Sprintf(" (%d%%)", percent(pr))
		}
		gist, now := label+"\x00"+pct+"\x00"+msg, time.Now()
		if gist == p.last && now.Sub(p.lastAt) < steadyInterval {
			return
		}
		p.last, p.lastAt = gist, now
		fmt.Fprintf(p.n.w, "mcptui: progress %s %s%s%s\n", label, count, pct, msg)
		return
	}
	bar := strings.Repeat("·", barWidth)
	pct := "   "
	if pr.Total > 0 {
		full := percent(pr) * barWidth / 100
		bar = strings.Repeat("█", full) + strings.Repeat("░", barWidth-full)
		pct = fmt.Sprintf("%3d%%", percent(pr))
	}
	fmt.Fprintf(p.n.w, "\r\x1b[2K%s %s %s %s%s", label, bar, pct, count, msg)
	p.shown = true
}

// clearLocked erases the bar; the caller holds the note writer's lock.
func (p *progress) clearLocked() {
	if p.shown {
		fmt.Fprint(p.n.w, "\r\x1b[2K")
		p.shown = false
	}
}

// done erases the bar, if any.
func (p *progress) done() {
	if p.n.w == nil {
		return
	}
	p.n.mu.Lock()
	defer p.n.mu.Unlock()
	p.clearLocked()
}

func percent(pr conn.Progress) int {
	return int(max(0, min(100, pr.Progress*100/pr.Total)))
}

func num(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }
