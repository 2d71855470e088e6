package tap

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcptui/mcptui/internal/record"
)

// deadline bounds every wait: generous for a loaded machine, never a
// measure of speed.
const deadline = 2 * time.Minute

// host is a scripted host driving a tap run in-process: it writes the
// tap's stdin and reads its stdout and stderr through real pipes.
type host struct {
	t       *testing.T
	in      *os.File // the host's end of the tap's stdin
	out     *os.File // the host's end of the tap's stdout
	stderr  syncBuffer
	done    chan Exit
	name    string
	socket  string
	dir     string
	publish chan struct{}
}

type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// startTap runs a tap of the scripted server role, publishing in a private
// directory (unless o.NoPublish); o's streams are filled in.
func startTap(t *testing.T, role string, o Options) *host {
	t.Helper()
	return startTapWith(t, role, o, !o.NoPublish)
}

// startTapWith is startTap, waiting for the tap to publish or not.
func startTapWith(t *testing.T, role string, o Options, waitPublish bool) *host {
	t.Helper()
	return startTapPiped(t, role, o, waitPublish, os.Pipe)
}

// startTapPiped is startTapWith, the host's pipes made by pipe.
func startTapPiped(t *testing.T, role string, o Options, waitPublish bool, pipe func() (r, w *os.File, err error)) *host {
	t.Helper()
	inR, inW, err := pipe()
	if err != nil {
		t.Fatal(err)
	}
	outR, outW, err := pipe()
	if err != nil {
		t.Fatal(err)
	}
	h := &host{t: t, in: inW, out: outR, done: make(chan Exit, 1), publish: make(chan struct{})}
	o.Command, o.Args = server(t, role)
	if o.Dir == "" {
		o.Dir = testDir(t)
	}
	h.dir = o.Dir
	o.Stdin, o.Stdout, o.Stderr = inR, outW, &h.stderr
	o.OnPublish = func(name, socket string) { h.name, h.socket = name, socket; close(h.publish) }
	go func() {
		exit, err := Run(context.Background(), o)
		if err != nil {
			t.Errorf("Run: %v", err)
		}
		inR.Close()
		h.done <- exit
	}()
	t.Cleanup(func() {
		inW.Close()
		outR.Close()
		select {
		case <-h.done:
		case <-time.After(deadline):
			t.Errorf("the tap did not end")
		}
	})
	if waitPublish {
		select {
		case <-h.publish:
		case <-time.After(deadline):
			t.Fatalf("the tap did not publish; stderr: %s", h.stderr.String())
		}
	}
	return h
}

// wait waits for the tap to end.
func (h *host) wait() Exit {
	h.t.Helper()
	select {
	case e := <-h.done:
		h.done <- e
		return e
	case <-time.After(deadline):
		h.t.Fatalf("the tap did not end; stderr: %s", h.stderr.String())
	}
	return Exit{}
}

// watch attaches a viewer.
func (h *host) watch() *Viewer {
	h.t.Helper()
	v, err := Watch(h.socket)
	if err != nil {
		h.t.Fatal(err)
	}
	h.t.Cleanup(func() { v.Close() })
	return v
}

// feedEntry is one line of a feed: a recording entry, or a Message.
type feedEntry struct {
	record.Entry
	msg Message
}

// next reads the next feed entry, within the deadline.
func next(t *testing.T, v *Viewer) (feedEntry, error) {
	t.Helper()
	_ = v.c.SetReadDeadline(time.Now().Add(deadline))
	line, err := v.Next()
	if err != nil {
		return feedEntry{}, err
	}
	var e feedEntry
	if err := json.Unmarshal(line, &e.Entry); err != nil {
		t.Fatalf("feed line %q: %v", clip(line), err)
	}
	switch e.Type {
	case TypeArmed, TypeHold, TypeResolved, TypeRefused:
		if err := json.Unmarshal(line, &e.msg); err != nil {
			t.Fatalf("feed message %q: %v", clip(line), err)
		}
	}
	return e, nil
}

// until reads the feed until an entry satisfies ok.
func until(t *testing.T, v *Viewer, what string, ok func(feedEntry) bool) feedEntry {
	t.Helper()
	for {
		e, err := next(t, v)
		if err != nil {
			t.Fatalf("waiting for %s: %v", what, err)
		}
		if ok(e) {
			return e
		}
	}
}

func clip(b []byte) string {
	if len(b) > 200 {
		return string(b[:200]) + "…"
	}
	return string(b)
}

// readAll reads r to EOF in the background.
func readAll(r io.Reader) <-chan []byte {
	ch := make(chan []byte, 1)
	go func() {
		b, _ := io.ReadAll(r)
		ch <- b
	}()
	return ch
}

func receive(t *testing.T, ch <-chan []byte) []byte {
	t.Helper()
	select {
	case b := <-ch:
		return b
	case <-time.After(deadline):
		t.Fatal("the host's stdout did not end")
	}
	return nil
}

// recordingOf reads a recording file.
func recordingOf(t *testing.T, path string) *record.Recording {
	t.Helper()
	rec, err := record.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	return rec
}

func tempFile(t *testing.T, name string) string { return filepath.Join(t.TempDir(), name) }

func hasPrefix(s, p string) bool { return strings.HasPrefix(s, p) }
