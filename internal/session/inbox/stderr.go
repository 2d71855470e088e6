package inbox

import (
	"bytes"
	"sync"
	"time"

	"github.com/mcptui/mcptui/model"
)

// maxPartial bounds a stderr line still waiting for its newline.
const maxPartial = 64 << 10

// StderrWriter is an io.Writer for conn.Options.Stderr: it splits what the
// server writes into lines and pushes each as a model.Stderr stamped with
// now(). A line longer than 64 KiB is pushed in pieces. Call Flush when the
// process has exited to push a last line without a newline.
type StderrWriter struct {
	in      *Inbox
	now     func() time.Time
	gen     int
	mu      sync.Mutex
	partial []byte
}

// Stderr returns a writer feeding the inbox; now is the clock (time.Now).
func (in *Inbox) Stderr(now func() time.Time) *StderrWriter {
	return &StderrWriter{in: in, now: now}
}

// Write splits p into lines; it never fails and never blocks.
func (w *StderrWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	n := len(p)
	for len(p) > 0 {
		i := bytes.IndexByte(p, '\n')
		if i < 0 {
			w.partial = append(w.partial, p...)
			for len(w.partial) >= maxPartial {
				w.push(w.partial[:maxPartial])
				w.partial = append(w.partial[:0], w.partial[maxPartial:]...)
			}
			break
		}
		line := p[:i]
		if len(w.partial) > 0 {
			line = append(w.partial, line...)
			w.partial = w.partial[:0]
		}
		w.push(bytes.TrimSuffix(line, []byte("\r")))
		p = p[i+1:]
	}
	return n, nil
}

// Flush pushes a pending partial line.
func (w *StderrWriter) Flush() {
	w.mu.Lock()
	defer w.mu.Unlock()
	if len(w.partial) > 0 {
		w.push(w.partial)
		w.partial = w.partial[:0]
	}
}

func (w *StderrWriter) push(line []byte) {
	w.in.Push(model.Stderr{Stamp: model.Stamp{Time: w.now(), Gen: w.gen}, Line: string(line)})
}
