package load

import (
	"io"
	"sync"
)

// maxNoteLines bounds how many distinct note lines a run writes.
const maxNoteLines = 50

// onceLines writes each distinct line it is given once: under load the
// same note (a question no --answer rule answers) would come once a
// request. It is safe for concurrent use.
type onceLines struct {
	mu   sync.Mutex
	w    io.Writer
	seen map[string]bool
	// before runs before a line is written (the live view clears its
	// line); it may be nil.
	before func()
}

func (o *onceLines) Write(p []byte) (int, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.seen == nil {
		o.seen = map[string]bool{}
	}
	line := string(p)
	if o.seen[line] || len(o.seen) >= maxNoteLines {
		return len(p), nil
	}
	o.seen[line] = true
	if o.before != nil {
		o.before()
	}
	return o.w.Write(p)
}
