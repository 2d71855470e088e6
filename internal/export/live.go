package export

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/mcptui/mcptui/internal/record"
	"github.com/mcptui/mcptui/model"
)

// FromModel is the recording of the generation (process) of the
// inspector's session sess that call c belongs to, as far as sess still
// holds it: the lines both ways (those the history kept), the server's
// stderr lines and the ready state. The live inspector, replay and attach
// keep their session so; the post-mortem of a call selected in pane 1 is
// written from it (WritePostMortemFile). Lines are redacted on output,
// as a recording's are.
func FromModel(sess *model.Session, c *model.Call, mcptui, mode string) *record.Recording {
	cs := sess.Conn()
	gen := c.Gen
	rec := &record.Recording{Header: record.Entry{Type: record.TypeHeader, Mcptui: mcptui, Mode: mode, Time: c.Start}}
	if len(cs.Command) > 0 {
		rec.Header.Command, rec.Header.Args = cs.Command[0], cs.Command[1:]
	}
	if cs.Gen == gen {
		if !cs.Started.IsZero() {
			rec.Header.Time = cs.Started
		}
		if cs.Protocol != "" {
			rec.Entries = append(rec.Entries, record.Entry{Type: record.TypeReady, Time: cs.Started, Protocol: cs.Protocol,
				PID: cs.PID, Server: &record.Server{Name: cs.ServerName, Version: cs.ServerVersion}})
		}
	}
	h := sess.History()
	for i := 0; i < h.Len(); i++ {
		e := h.At(i)
		if e.Gen != gen || e.Raw == nil || e.Kind == model.KindDiscarded {
			continue
		}
		typ := record.TypeSent
		if e.Dir == model.In {
			typ = record.TypeReceived
		}
		if e.Time.Before(rec.Header.Time) {
			rec.Header.Time = e.Time
		}
		rec.Entries = append(rec.Entries, record.Entry{Type: typ, Time: e.Time, Size: e.Size, Msg: bytes.Clone(e.Raw)})
	}
	lines := sess.StderrLog()
	for i := 0; i < lines.Len(); i++ {
		l := lines.At(i)
		if l.Gen != gen {
			continue
		}
		text := l.Text
		rec.Entries = append(rec.Entries, record.Entry{Type: record.TypeStderr, Time: l.Time, Text: &text})
	}
	sortEntries(rec.Entries)
	return rec
}

// sortEntries orders entries by time, stably: the history and the stderr
// log are two lists.
func sortEntries(es []record.Entry) {
	for i := 1; i < len(es); i++ {
		for j := i; j > 0 && es[j].Time.Before(es[j-1].Time); j-- {
			es[j], es[j-1] = es[j-1], es[j]
		}
	}
}

// FindCall is the exchange of s that is call c: the same direction and
// id, the last of them (ids may be re-used).
func (s *Session) FindCall(c *model.Call) *Exchange {
	var found *Exchange
	for _, x := range s.Exchanges {
		if x.FromServer == (c.Dir == model.In) && x.Request.Msg.ID == string(c.ID) {
			found = x
		}
	}
	return found
}

// WritePostMortemFile writes the redacted Markdown post-mortem of call c
// of the inspector's session sess to a new file in dir (os.TempDir() when
// ""), readable by its owner only, and returns its path.
func WritePostMortemFile(dir string, sess *model.Session, c *model.Call, mcptui, mode string) (string, error) {
	s := Build(FromModel(sess, c, mcptui, mode))
	x := s.FindCall(c)
	if x == nil {
		return "", fmt.Errorf("request %s: its line is no longer in the history", string(c.ID))
	}
	var b bytes.Buffer
	if err := WritePostMortem(&b, s, x, InspectorSource); err != nil {
		return "", fmt.Errorf("post-mortem of request %s: %w", string(c.ID), err)
	}
	if dir == "" {
		dir = os.TempDir()
	}
	f, err := os.CreateTemp(dir, "mcptui-post-mortem-"+fileWord(x.Request.Msg.SpanName())+"-*.md")
	if err != nil {
		return "", fmt.Errorf("post-mortem file: %w", err)
	}
	if _, err := f.Write(b.Bytes()); err != nil {
		f.Close()
		return "", fmt.Errorf("post-mortem file %s: %w", f.Name(), err)
	}
	if err := f.Close(); err != nil {
		return "", fmt.Errorf("post-mortem file %s: %w", f.Name(), err)
	}
	return filepath.Clean(f.Name()), nil
}

// fileWord is s with only letters, digits, '-' and '_' kept (others
// become '_'), at most 40 bytes: a file name's part.
func fileWord(s string) string {
	var b strings.Builder
	for _, r := range s {
		if b.Len() >= 40 {
			break
		}
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '-', r == '_':
			b.WriteRune(r)
		default:
			b.WriteByte('_')
		}
	}
	return b.String()
}
