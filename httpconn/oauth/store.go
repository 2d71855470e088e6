package oauth

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"sync"

	"github.com/mcptui/mcptui/internal/userdir"
)

// Store keeps the tokens of MCP servers, by the server's URL.
type Store interface {
	// Load is the token kept for server, or nil.
	Load(server string) (*Token, error)
	Save(server string, t *Token) error
	// Delete forgets server's token; forgetting none is no error.
	Delete(server string) error
}

// StoreKey is the key a Transport keeps the token of serverURL under.
func StoreKey(serverURL string) string {
	if u, err := url.Parse(serverURL); err == nil {
		return u.String()
	}
	return serverURL
}

// MemoryStore keeps tokens for the process's life.
type MemoryStore struct {
	mu     sync.Mutex
	tokens map[string]*Token
}

// NewMemoryStore is an empty MemoryStore.
func NewMemoryStore() *MemoryStore { return &MemoryStore{tokens: map[string]*Token{}} }

// Load implements Store.
func (s *MemoryStore) Load(server string) (*Token, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.tokens[server], nil
}

// Save implements Store.
func (s *MemoryStore) Save(server string, t *Token) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.tokens[server] = t
	return nil
}

// Delete implements Store.
func (s *MemoryStore) Delete(server string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.tokens, server)
	return nil
}

// FileStore keeps each server's token in a file of its own, mode 0600, in
// a directory of mode 0700.
type FileStore struct {
	Dir string
}

// DefaultTokenDir is where FileStore keeps tokens by default:
// $XDG_STATE_HOME/mcptui/tokens, or ~/.local/state/mcptui/tokens.
func DefaultTokenDir() (string, error) {
	if d := os.Getenv("XDG_STATE_HOME"); filepath.IsAbs(d) {
		return filepath.Join(d, "mcptui", "tokens"), nil
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", fmt.Errorf("oauth: no directory for tokens: %w", err)
	}
	return filepath.Join(home, ".local", "state", "mcptui", "tokens"), nil
}

// stored is a token file's content.
type stored struct {
	Server string `json:"server"`
	Token  *Token `json:"token"`
}

func (s FileStore) path(server string) string {
	sum := sha256.Sum256([]byte(server))
	return filepath.Join(s.Dir, hex.EncodeToString(sum[:12])+".json")
}

// Load implements Store.
// A token file, and its directory, that someone else could have written
// or read is refused (see userdir).
func (s FileStore) Load(server string) (*Token, error) {
	if err := userdir.CheckFile(s.path(server)); errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	} else if err != nil {
		return nil, fmt.Errorf("oauth: refusing the kept token of %s: %w", server, err)
	}
	if err := userdir.Check(s.Dir); err != nil {
		return nil, fmt.Errorf("oauth: refusing the kept token of %s: %w", server, err)
	}
	b, err := os.ReadFile(s.path(server))
	if err != nil {
		return nil, fmt.Errorf("oauth: reading the token of %s: %w", server, err)
	}
	var st stored
	if err := json.Unmarshal(b, &st); err != nil || st.Server != server || st.Token == nil {
		return nil, fmt.Errorf("oauth: the token file %s is not mcptui's for %s", s.path(server), server)
	}
	return st.Token, nil
}

// Save implements Store: the file is written whole (a temporary file
// renamed), never readable by others, in a directory created 0700 and
// refused when it is not the user's own (see userdir).
func (s FileStore) Save(server string, t *Token) error {
	if err := userdir.Ensure(s.Dir); err != nil {
		return fmt.Errorf("oauth: refusing to keep the token: %w", err)
	}
	b, err := json.MarshalIndent(stored{Server: server, Token: t}, "", "  ")
	if err != nil {
		return err
	}
	f, err := os.CreateTemp(s.Dir, ".token-*")
	if err != nil {
		return fmt.Errorf("oauth: keeping the token: %w", err)
	}
	defer os.Remove(f.Name())
	if err := f.Chmod(0o600); err != nil {
		f.Close()
		return fmt.Errorf("oauth: keeping the token: %w", err)
	}
	if _, err := f.Write(b); err != nil {
		f.Close()
		return fmt.Errorf("oauth: keeping the token: %w", err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("oauth: keeping the token: %w", err)
	}
	if err := os.Rename(f.Name(), s.path(server)); err != nil {
		return fmt.Errorf("oauth: keeping the token: %w", err)
	}
	return nil
}

// Delete implements Store.
func (s FileStore) Delete(server string) error {
	err := os.Remove(s.path(server))
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("oauth: forgetting the token of %s: %w", server, err)
	}
	return nil
}

// DeleteAll forgets every token in the directory and returns how many.
func (s FileStore) DeleteAll() (int, error) {
	paths, err := filepath.Glob(filepath.Join(s.Dir, "*.json"))
	if err != nil {
		return 0, err
	}
	n := 0
	for _, p := range paths {
		if err := os.Remove(p); err != nil {
			return n, fmt.Errorf("oauth: forgetting %s: %w", p, err)
		}
		n++
	}
	return n, nil
}
