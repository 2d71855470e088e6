package record

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/mcptui/mcptui/internal/lines"
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

	// GaveUp, on a "sent" notifications/cancelled, says why mcptui gave
	// up on the request it names (nil when the recording does not say).
	GaveUp *GaveUp `json:"gaveUp"`

	// exit, failed, lost. Stopped, on a failed entry: the server still
	// ran and mcptui stopped it (a request of the negotiation failed).
	Status  *string `json:"status"`
	Error   string  `json:"error"`
	Stopped bool    `json:"stopped"`
	Count   int     `json:"count"`

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
	rec := &Recording{}
	err := Scan(r, maxLine, func(e *Entry, _ int64) error {
		if e.Type == TypeHeader && e.LineNo == 1 {
			rec.Header = *e
			return nil
		}
		if e.Type == TypeEnd {
			rec.Complete = true
		}
		rec.Entries = append(rec.Entries, *e)
		return nil
	}, &rec.Truncated)
	if err != nil {
		return nil, err
	}
	return rec, nil
}

// Scan reads a recording as a stream, as ReadLimited does, and hands fn
// each entry in file order, the header first, with the offset of its line
// in the input (-1 for the "discarded" entry that stands for a line over
// the limit: it has no line to read again). The entry is fn's. truncated,
// when not nil, is set when the last line was cut short and left out. An
// error of fn ends the scan with it.
func Scan(r io.Reader, maxLine int, fn func(e *Entry, off int64) error, truncated *bool) error {
	return ScanSkipping(r, maxLine, nil, fn, truncated)
}

// ScanSkipping is Scan that neither decodes nor hands over the lines
// after the header that skip (when not nil) reports true for: a caller
// that wants a few kinds of entries tells the rest by their first bytes.
func ScanSkipping(r io.Reader, maxLine int, skip func(line []byte) bool, fn func(e *Entry, off int64) error, truncated *bool) error {
	limit := MaxEntryBytes(maxLine)
	lr := lines.NewReader(r, limit)
	lr.StopOverLong = true
	var last Entry
	var off int64
	header := false
	for n := 1; ; n++ {
		at := off
		line, size, err := lr.Next()
		if err == io.EOF {
			break
		}
		off += int64(size) + 1
		if err == lines.ErrTooLong {
			if n == 1 {
				return fmt.Errorf("record: %w (its first line is over %s)", ErrNotRecording, model.FormatSize(limit))
			}
			e := Entry{Type: TypeDiscarded, Time: last.Time, Ms: last.Ms, Size: size, LineNo: n,
				Reason: fmt.Sprintf("line %d of the recording, %s, is over the %s limit (raise --max-line-bytes): skipped", n, model.FormatSize(size), model.FormatSize(limit))}
			if err := fn(&e, -1); err != nil {
				return err
			}
			continue
		}
		if err != nil {
			return fmt.Errorf("record: line %d: %w", n, err)
		}
		lr.StopOverLong = false
		line = bytes.TrimSpace(line)
		if len(line) == 0 || n > 1 && skip != nil && skip(line) {
			continue
		}
		var e Entry
		if uerr := unmarshalEntry(line, &e); uerr != nil {
			if n > 1 && atEOF(lr) {
				if truncated != nil {
					*truncated = true
				}
				break
			}
			if n == 1 {
				return fmt.Errorf("record: %w (line 1: %v)", ErrNotRecording, uerr)
			}
			return fmt.Errorf("record: line %d: %w", n, uerr)
		}
		e.LineNo = n
		if n == 1 {
			if e.Type != TypeHeader || e.Format != Format {
				return fmt.Errorf("record: %w (line 1 is not its header)", ErrNotRecording)
			}
			if e.Version > Version {
				return fmt.Errorf("record: format version %d is newer than this mcptui reads (%d)", e.Version, Version)
			}
			header = true
			if err := fn(&e, at); err != nil {
				return err
			}
			continue
		}
		last = e
		if err := fn(&e, at); err != nil {
			return err
		}
	}
	if !header {
		return fmt.Errorf("record: %w (empty)", ErrNotRecording)
	}
	return nil
}

// DecodeEntry decodes one line of a recording (not its header).
func DecodeEntry(line []byte) (Entry, error) {
	var e Entry
	if err := unmarshalEntry(line, &e); err != nil {
		return Entry{}, fmt.Errorf("record: %w", err)
	}
	return e, nil
}

// atEOF reports whether nothing follows the line just read.
func atEOF(lr *lines.Reader) bool { return lr.AtEOF() }
