package record

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"time"
)

// Entry is one line of a recording as read: the fields of every type, set
// when the entry has them.
type Entry struct {
	Type string    `json:"type"`
	Time time.Time `json:"t"`
	Ms   float64   `json:"ms"`

	// Header.
	Format   string     `json:"format"`
	Version  int        `json:"version"`
	Mcptui   string     `json:"mcptui"`
	Mode     string     `json:"mode"`
	Command  string     `json:"command"`
	Args     []string   `json:"args"`
	Dir      string     `json:"dir"`
	Env      []EnvEntry `json:"env"`
	Secrets  bool       `json:"secrets"`
	Settings Settings   `json:"settings"`

	// Lines and stderr: the content is Msg, Text or B64 (see Content).
	Size   int             `json:"size"`
	Msg    json.RawMessage `json:"msg"`
	Text   *string         `json:"text"`
	B64    []byte          `json:"b64"`
	Reason string          `json:"reason"`
	// Mark says what a tap's breakpoint did to the line; Withheld that the
	// line did not go on (dropped, or replaced by an edit or an answer).
	Mark     string `json:"mark"`
	Withheld bool   `json:"withheld"`

	// exit, failed, lost.
	Status *string `json:"status"`
	Error  string  `json:"error"`
	Count  int     `json:"count"`

	// ready and negotiation.
	Protocol     string          `json:"protocol"`
	PID          int             `json:"pid"`
	Server       *Server         `json:"server"`
	Instructions string          `json:"instructions"`
	Capabilities json.RawMessage `json:"capabilities"`
	Negotiation  *Negotiation    `json:"negotiation"`

	// LineNo is the entry's line in the file, from 1.
	LineNo int `json:"-"`
}

// Content is the bytes of a line or a stderr line, exactly as they were:
// Msg, Text or B64, whichever the entry has; nil when it has none (a line
// over the limit).
func (e *Entry) Content() []byte {
	switch {
	case e.Msg != nil:
		return e.Msg
	case e.Text != nil:
		return []byte(*e.Text)
	case e.B64 != nil:
		return e.B64
	}
	return nil
}

// IsLine reports whether the entry is a line of the wire (sent, received
// or discarded).
func (e *Entry) IsLine() bool {
	return e.Type == TypeSent || e.Type == TypeReceived || e.Type == TypeDiscarded
}

// Recording is a whole recording.
type Recording struct {
	// Header is the first entry.
	Header Entry
	// Entries are the entries after the header, in file order.
	Entries []Entry
	// Complete is set when the recording ends with an "end" entry (it was
	// closed normally).
	Complete bool
	// Truncated is set when the last line was cut short (mcptui was killed
	// while writing) and was left out.
	Truncated bool
}

// Open reads the recording at path.
func Open(path string) (*Recording, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("record: %w", err)
	}
	defer f.Close()
	rec, err := Read(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return rec, nil
}

// ErrNotRecording is returned when the first line is not a recording header.
var ErrNotRecording = errors.New("not an mcptui recording")

// Read reads a recording.
func Read(r io.Reader) (*Recording, error) {
	br := bufio.NewReaderSize(r, 64<<10)
	rec := &Recording{}
	for n := 1; ; n++ {
		line, err := br.ReadBytes('\n')
		if len(line) == 0 && err == io.EOF {
			break
		}
		if err != nil && err != io.EOF {
			return nil, fmt.Errorf("record: line %d: %w", n, err)
		}
		last := err == io.EOF
		line = bytes.TrimSpace(line)
		if len(line) == 0 {
			continue
		}
		var e Entry
		if uerr := json.Unmarshal(line, &e); uerr != nil {
			if last && n > 1 {
				rec.Truncated = true
				break
			}
			if n == 1 {
				return nil, fmt.Errorf("record: %w (line 1: %v)", ErrNotRecording, uerr)
			}
			return nil, fmt.Errorf("record: line %d: %w", n, uerr)
		}
		e.LineNo = n
		if n == 1 {
			if e.Type != TypeHeader || e.Format != Format {
				return nil, fmt.Errorf("record: %w (line 1 is not its header)", ErrNotRecording)
			}
			if e.Version > Version {
				return nil, fmt.Errorf("record: format version %d is newer than this mcptui reads (%d)", e.Version, Version)
			}
			rec.Header = e
			continue
		}
		if e.Type == TypeEnd {
			rec.Complete = true
		}
		rec.Entries = append(rec.Entries, e)
		if last {
			break
		}
	}
	if rec.Header.Type != TypeHeader {
		return nil, fmt.Errorf("record: %w (empty)", ErrNotRecording)
	}
	return rec, nil
}
