package model

import "time"

// StderrLine is one line of the server's stderr, or a restart boundary.
type StderrLine struct {
	Seq  uint64
	Time time.Time
	Gen  int
	// Text is raw from the server: escape it before drawing.
	Text string
	// Truncated is set when the line was longer than the per-line cap.
	Truncated bool
	// Boundary marks a restart instead of a line.
	Boundary bool
}

// StderrLog is the bounded stderr history, oldest lines evicted first.
type StderrLog struct {
	maxLines, maxLineBytes int
	lines                  []StderrLine // lines[head:] are live
	head                   int
	evicted                int
	nextSeq                uint64
}

func newStderrLog(maxLines, maxLineBytes int) *StderrLog {
	return &StderrLog{maxLines: maxLines, maxLineBytes: maxLineBytes, nextSeq: 1}
}

// Len is the number of lines kept.
func (l *StderrLog) Len() int { return len(l.lines) - l.head }

// At returns the i-th kept line, oldest first.
func (l *StderrLog) At(i int) *StderrLine { return &l.lines[l.head+i] }

// Evicted is how many lines were dropped to stay under the cap.
func (l *StderrLog) Evicted() int { return l.evicted }

// Tail returns up to n of the newest lines of generation gen that are not
// boundaries, oldest first.
func (l *StderrLog) Tail(n, gen int) []string {
	var out []string
	for i := l.Len() - 1; i >= 0 && len(out) < n; i-- {
		ln := l.At(i)
		if ln.Gen != gen {
			continue
		}
		if !ln.Boundary {
			out = append(out, ln.Text)
		}
	}
	for i, j := 0, len(out)-1; i < j; i, j = i+1, j-1 {
		out[i], out[j] = out[j], out[i]
	}
	return out
}

func (l *StderrLog) add(ln StderrLine) {
	if len(ln.Text) > l.maxLineBytes {
		ln.Text, ln.Truncated = ln.Text[:l.maxLineBytes], true
	}
	ln.Seq = l.nextSeq
	l.nextSeq++
	l.lines = append(l.lines, ln)
	for l.Len() > l.maxLines {
		l.lines[l.head] = StderrLine{}
		l.head++
		l.evicted++
	}
	if l.head > 1024 && l.head > len(l.lines)/2 {
		l.lines = append([]StderrLine(nil), l.lines[l.head:]...)
		l.head = 0
	}
}
