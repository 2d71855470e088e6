// Package argstore remembers the last arguments a person sent to each tool
// (and prompt, and resource template) of each server, across runs, in a
// small JSON file under the XDG state directory
// ($XDG_STATE_HOME/mcptui/arguments.json, ~/.local/state/mcptui/... by
// default), so nobody re-types arguments after a reconnect.
package argstore

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"sync"
	"time"

	"github.com/mcptui/mcptui/internal/userdir"
)

// Limits keep the file small.
const (
	MaxServers = 100
	MaxEntries = 500
	// MaxBytes is the largest set of arguments remembered.
	MaxBytes = 64 << 10
)

// Kinds of entry.
const (
	Tool     = "tool"
	Prompt   = "prompt"
	Template = "template"
)

// entry is one remembered set of arguments.
type entry struct {
	Arguments json.RawMessage `json:"arguments"`
	At        time.Time       `json:"at"`
}

// file is the file's content.
type file struct {
	Version int                          `json:"version"`
	Servers map[string]map[string]*entry `json:"servers"`
}

// Store is the remembered arguments. Safe for concurrent use.
type Store struct {
	path string
	now  func() time.Time
	mu   sync.Mutex
	data file
	// deferred is a store of Deferred not read yet; off is one whose
	// file could not be read when it was: it remembers nothing.
	deferred, off bool
}

// DefaultPath is $XDG_STATE_HOME/mcptui/arguments.json, or
// ~/.local/state/mcptui/arguments.json.
func DefaultPath() (string, error) {
	dir := os.Getenv("XDG_STATE_HOME")
	if dir == "" || !filepath.IsAbs(dir) {
		home, err := os.UserHomeDir()
		if err != nil {
			return "", fmt.Errorf("no state directory: %w", err)
		}
		dir = filepath.Join(home, ".local", "state")
	}
	return filepath.Join(dir, "mcptui", "arguments.json"), nil
}

// Open loads the store at path; a missing file is an empty store, and a
// broken one is set aside (renamed with .broken) and started afresh. A
// file someone else could have written or read, or one in a directory
// someone else can write (arguments may hold secrets, and a planted file
// would fill the forms), is refused with the reason (see userdir).
func Open(path string) (*Store, error) {
	s := &Store{path: path, now: time.Now, data: emptyFile()}
	if err := s.load(); err != nil {
		var refused *refusedError
		if errors.As(err, &refused) {
			return nil, err
		}
		return s, err
	}
	return s, nil
}

// Deferred is the store of path, read at its first Get or Put, not now:
// a session that never opens a form does not read, parse and keep the
// arguments of every server. A file that Open would refuse or fail to
// read makes the store off then: it remembers nothing, as a nil Store.
func Deferred(path string) *Store {
	return &Store{path: path, now: time.Now, data: emptyFile(), deferred: true}
}

func emptyFile() file {
	return file{Version: 1, Servers: map[string]map[string]*entry{}}
}

// refusedError is a file or directory open to others: Open returns no
// store for it.
type refusedError struct{ err error }

func (e *refusedError) Error() string { return e.err.Error() }
func (e *refusedError) Unwrap() error { return e.err }

// load reads the file into s.data; a file that is not JSON is moved
// aside (.broken) and the store starts empty.
func (s *Store) load() error {
	if err := userdir.CheckNotShared(filepath.Dir(s.path)); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return &refusedError{fmt.Errorf("argstore: refusing %s: %w", s.path, err)}
	}
	if err := userdir.CheckFile(s.path); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return &refusedError{fmt.Errorf("argstore: refusing %s: %w", s.path, err)}
	}
	b, err := os.ReadFile(s.path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil
	case err != nil:
		return err
	}
	var f file
	if err := json.Unmarshal(b, &f); err != nil || f.Servers == nil {
		_ = os.Rename(s.path, s.path+".broken")
		return nil
	}
	s.data = f
	return nil
}

// ready reads a Deferred store's file at its first use; it says whether
// the store remembers (false: off). s.mu is held.
func (s *Store) ready() bool {
	if s.deferred {
		s.deferred = false
		if err := s.load(); err != nil {
			s.off, s.data = true, emptyFile()
		}
	}
	return !s.off
}

// SetClock sets the clock (tests).
func (s *Store) SetClock(now func() time.Time) { s.now = now }

func key(kind, name string) string { return kind + "/" + name }

// Get returns the last arguments of a tool (prompt, template) of server.
func (s *Store) Get(server, kind, name string) (json.RawMessage, bool) {
	if s == nil {
		return nil, false
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.ready() {
		return nil, false
	}
	e := s.data.Servers[server][key(kind, name)]
	if e == nil {
		return nil, false
	}
	var b bytes.Buffer
	if err := json.Compact(&b, e.Arguments); err != nil {
		return nil, false
	}
	return b.Bytes(), true
}

// Put remembers arguments and writes the file (atomically: a temporary
// file renamed over it).
func (s *Store) Put(server, kind, name string, args json.RawMessage) error {
	if s == nil {
		return nil
	}
	if len(args) > MaxBytes {
		return fmt.Errorf("not remembering %d bytes of arguments (at most %d)", len(args), MaxBytes)
	}
	if !json.Valid(args) {
		return errors.New("not remembering arguments that are not JSON")
	}
	s.mu.Lock()
	if !s.ready() {
		s.mu.Unlock()
		return nil
	}
	m := s.data.Servers[server]
	if m == nil {
		m = map[string]*entry{}
		s.data.Servers[server] = m
	}
	m[key(kind, name)] = &entry{Arguments: append(json.RawMessage(nil), args...), At: s.now().UTC()}
	s.trim()
	b, err := json.MarshalIndent(s.data, "", "  ")
	s.mu.Unlock()
	if err != nil {
		return err
	}
	return writeAtomic(s.path, b)
}

// trim forgets the oldest entries and servers over the limits.
func (s *Store) trim() {
	for _, m := range s.data.Servers {
		for len(m) > MaxEntries {
			delete(m, oldest(m))
		}
	}
	for len(s.data.Servers) > MaxServers {
		type srv struct {
			name string
			at   time.Time
		}
		var list []srv
		for name, m := range s.data.Servers {
			var last time.Time
			for _, e := range m {
				if e.At.After(last) {
					last = e.At
				}
			}
			list = append(list, srv{name, last})
		}
		sort.Slice(list, func(i, j int) bool { return list[i].at.Before(list[j].at) })
		delete(s.data.Servers, list[0].name)
	}
}

func oldest(m map[string]*entry) string {
	var k string
	var at time.Time
	for name, e := range m {
		if k == "" || e.At.Before(at) || (e.At.Equal(at) && name < k) {
			k, at = name, e.At
		}
	}
	return k
}

func writeAtomic(path string, b []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return err
	}
	if err := userdir.CheckNotShared(filepath.Dir(path)); err != nil {
		return fmt.Errorf("argstore: refusing to write %s: %w", path, err)
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".arguments-*.json")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(append(b, '\n')); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Chmod(0o600); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}
