package keymap

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// FileName is the key file's name under the user's config directory
// ($XDG_CONFIG_HOME/mcptui/keys.json, else ~/.config/mcptui/keys.json).
const FileName = "keys.json"

// DefaultPath is where the user's key file is looked for.
func DefaultPath() (string, error) {
	dir, err := os.UserConfigDir()
	if err != nil {
		return "", fmt.Errorf("keymap: no config directory: %w", err)
	}
	return filepath.Join(dir, "mcptui", FileName), nil
}

// User is the key map of the user's key file (DefaultPath): the default
// one when there is no file or no config directory, an error naming the
// file when it is bad. Every program of mcptui starts from it.
func User() (KeyMap, error) {
	path, err := DefaultPath()
	if err != nil {
		return Default(), nil
	}
	return Load(path)
}

// Load is the default key map with the rebindings of the JSON file at
// path applied: an object from binding names (see Named) to key lists,
// such as {"global.compose": ["N"], "inflight.cancel": ["C", "delete"]}.
// A missing file is the default map; a file that does not parse, or names
// an unknown binding, is an error that says which file.
func Load(path string) (KeyMap, error) {
	m := Default()
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return m, nil
	}
	if err != nil {
		return m, fmt.Errorf("keymap: reading %s: %w", path, err)
	}
	var keys map[string][]string
	if err := json.Unmarshal(b, &keys); err != nil {
		return m, fmt.Errorf("keymap: %s: %w", path, err)
	}
	if err := m.Rebind(keys); err != nil {
		return Default(), fmt.Errorf("%w (in %s)", err, path)
	}
	return m, nil
}
