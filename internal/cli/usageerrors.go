package cli

import (
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
)

// checkRoot is a usage error unless r is an absolute URI (a scheme and
// something after it), which is what the roots a server receives must be.
func checkRoot(r string) error {
	if r == "" {
		return usageError("--root must not be empty: give a URI such as file:///path/to/project")
	}
	u, err := url.Parse(r)
	if err != nil || u.Scheme == "" || (u.Opaque == "" && u.Host == "" && u.Path == "") {
		return usageError("--root %q is not a URI: give one such as file:///path/to/project", r)
	}
	return nil
}

// checkWritable reports why a file could not be written at path, without
// changing an existing file: it opens one for writing without truncating
// it, or creates a new one and removes it again.
func checkWritable(path string) error {
	f, err := os.OpenFile(path, os.O_WRONLY, 0)
	if err == nil {
		return f.Close()
	}
	if !errors.Is(err, fs.ErrNotExist) {
		return unwrapPath(err)
	}
	f, err = os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("directory %s does not exist", filepath.Dir(path))
		}
		return unwrapPath(err)
	}
	f.Close()
	return os.Remove(path)
}

// unwrapPath drops the path from an *fs.PathError (the caller names it).
func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// checkDir is a usage error unless the server's working directory (--cwd,
// or a host config's cwd) is a directory: said before
// any process starts, rather than as the server command failing to run
// (Go reports a failed chdir as the exec's error).
func (cfg *Config) checkDir() error {
	if cfg.Dir == "" {
		return nil
	}
	from := "--cwd"
	if cfg.Server != nil && cfg.Server.Dir == cfg.Dir {
		from = fmt.Sprintf("the cwd of %s in %s", cfg.Server.Label(), cfg.Server.File)
	}
	fi, err := os.Stat(cfg.Dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return usageError("%s: directory %s does not exist", from, cfg.Dir)
	case err != nil:
		return usageError("%s: %v", from, unwrapPath(err))
	case !fi.IsDir():
		return usageError("%s: %s is not a directory", from, cfg.Dir)
	}
	return nil
}
