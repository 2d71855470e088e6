package export

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/mcptui/mcptui/internal/protocol"
	"github.com/mcptui/mcptui/internal/record"
	"github.com/mcptui/mcptui/internal/wiremsg"
	"github.com/mcptui/mcptui/model"
)

// FromModel is the recording of the generation (process) of the
// inspector's session sess that call c belongs to, as far as sess still
// holds it: the lines both ways (those the history kept, discarded ones
// included), the server's stderr lines and the ready state; c's
// cancellation carries why mcptui gave up on it (c.GaveUp). The live
// inspector, replay and attach keep their session so; the post-mortem of a
// call selected in pane 1 is written from it (WritePostMortemFile). Lines
// are redacted on output, as a recording's are.
func FromModel(sess *model.Session, c *model.Call, mcptui, mode string) *record.Recording {
	rec, _ := fromModel(sess, c, mcptui, mode)
	return rec
}

// fromModel is FromModel, and for each entry the Seq of the traffic
// entry it is (0 for one that is not a line).
func fromModel(sess *model.Session, c *model.Call, mcptui, mode string) (*record.Recording, []uint64) {
	cs := sess.Conn()
	gen := c.Gen
	rec := &record.Recording{Header: record.Entry{Type: record.TypeHeader, Mcptui: mcptui, Mode: mode, Time: c.Start}}
	if len(cs.Command) > 0 {
		rec.Header.Command, rec.Header.Args = cs.Command[0], cs.Command[1:]
	}
	var seqs []uint64
	if cs.Gen == gen {
		if !cs.Started.IsZero() {
			rec.Header.Time = cs.Started
		}
		if cs.Protocol != "" {
			rec.Entries = append(rec.Entries, record.Entry{Type: record.TypeReady, Time: cs.Started, Protocol: cs.Protocol,
				PID: cs.PID, Server: &record.Server{Name: cs.ServerName, Version: cs.ServerVersion}})
			seqs = append(seqs, 0)
		}
	}
	h := sess.History()
	for i := 0; i < h.Len(); i++ {
		e := h.At(i)
		if e.Gen != gen || e.Raw == nil {
			continue
		}
		typ := record.TypeSent
		if e.Dir == model.In {
			typ = record.TypeReceived
		}
		if e.Time.Before(rec.Header.Time) {
			rec.Header.Time = e.Time
		}
		re := record.Entry{Type: typ, Time: e.Time, Size: e.Size, Msg: bytes.Clone(e.Raw)}
		if e.Kind == model.KindDiscarded {
			text := string(e.Raw)
			re = record.Entry{Type: record.TypeDiscarded, Time: e.Time, Size: e.Size, Text: &text, Reason: e.Reason}
		}
		if c.GaveUp != nil && e.Dir == model.Out && e.Method == protocol.NotificationCancelled && cancels(e.Raw, c.ID) {
			re.GaveUp = record.GaveUpOf(c.GaveUp)
		}
		rec.Entries = append(rec.Entries, re)
		seqs = append(seqs, e.Seq)
	}
	lines := sess.StderrLog()
	for i := 0; i < lines.Len(); i++ {
		l := lines.At(i)
		if l.Gen != gen {
			continue
		}
		text := l.Text
		rec.Entries = append(rec.Entries, record.Entry{Type: record.TypeStderr, Time: l.Time, Text: &text})
		seqs = append(seqs, 0)
	}
	if c.Outcome.Kind == model.ConnectionDied {
		// Its process ended (or was restarted: the status is then the
		// new one's business, and not said).
		status := ""
		if cs.Gen == gen {
			status = cs.ExitStatus
		}
		rec.Entries = append(rec.Entries, record.Entry{Type: record.TypeExit, Time: c.Outcome.Time, Status: &status})
		seqs = append(seqs, 0)
	}
	sortEntries(rec.Entries, seqs)
	return rec, seqs
}

// cancels reports whether the notifications/cancelled line raw names
// request id.
func cancels(raw []byte, id []byte) bool {
	m, ok := wiremsg.Parse(raw)
	return ok && m.CancelledID == strings.TrimSpace(string(id))
}

// sortEntries orders entries (and seqs with them) by time, stably: the
// history and the stderr log are two lists.
func sortEntries(es []record.Entry, seqs []uint64) {
	for i := 1; i < len(es); i++ {
		for j := i; j > 0 && es[j].Time.Before(es[j-1].Time); j-- {
			es[j], es[j-1] = es[j-1], es[j]
			seqs[j], seqs[j-1] = seqs[j-1], seqs[j]
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
	rec, seqs := fromModel(sess, c, mcptui, mode)
	s := Build(rec)
	// The live lint's findings, as the inspector marked them.
	index := make(map[uint64]int, len(seqs))
	for i, seq := range seqs {
		if seq != 0 {
			index[seq] = i
		}
	}
	for _, f := range sess.Findings() {
		if i, ok := index[f.Seq]; ok {
			s.addFinding(i, rec.Entries[i].Time, f)
		}
	}
	s.Linted = true
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
