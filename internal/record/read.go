package record

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/mcptui/mcptui/model"
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

	// http and http-end.
	HTTPFields

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

// Open reads the recording at path, with conn's default line limit.
func Open(path string) (*Recording, error) { return OpenLimited(path, 0) }

// OpenLimited reads the recording at path; maxLine is the wire line limit
// it was recorded with (0: the default), see ReadLimited.
func OpenLimited(path string, maxLine int) (*Recording, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("record: %w", err)
	}
	defer f.Close()
	rec, err := ReadLimited(f, maxLine)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return rec, nil
}

// ErrNotRecording is returned when the first line is not a recording header.
var ErrNotRecording = errors.New("not an mcptui recording")

// Read reads a recording with conn's default line limit.
func Read(r io.Reader) (*Recording, error) { return ReadLimited(r, 0) }

// ReadLimited reads a recording in memory bounded by the lines it keeps: a
// line of the file longer than MaxEntryBytes(maxLine) is never held, but
// skipped and kept as a "discarded" entry without content whose Reason says
// so (at the time of the entry before it). A first line that long is no
// recording header, and reading stops there.
func ReadLimited(r io.Reader, maxLine int) (*Recording, error) {
	limit := MaxEntryBytes(maxLine)
	lr := NewLineReader(r, limit)
	lr.StopOverLong = true
	rec := &Recording{}
	var last Entry
	for n := 1; ; n++ {
		line, size, err := lr.Next()
		if err == io.EOF {
			break
		}
		if err == ErrLineTooLong {
			if n == 1 {
				return nil, fmt.Errorf("record: %w (its first line is over %s)", ErrNotRecording, model.FormatSize(limit))
			}
			e := Entry{Type: TypeDiscarded, Time: last.Time, Ms: last.Ms, Size: size, LineNo: n,
				Reason: fmt.Sprintf("line %d of the recording, %s, is over the %s limit (raise --max-line-bytes): skipped", n, model.FormatSize(size), model.FormatSize(limit))}
			rec.Entries = append(rec.Entries, e)
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("record: line %d: %w", n, err)
		}
		lr.StopOverLong = false
		line = bytes.TrimSpace(line)
		if len(line) == 0 {
			continue
		}
		var e Entry
		if uerr := json.Unmarshal(line, &e); uerr != nil {
			if n > 1 && atEOF(lr) {
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
		last = e
	}
	if rec.Header.Type != TypeHeader {
		return nil, fmt.Errorf("record: %w (empty)", ErrNotRecording)
	}
	return rec, nil
}

// atEOF reports whether nothing follows the line just read.
func atEOF(lr *LineReader) bool { return lr.AtEOF() }
