// Package userdir keeps secrets at rest where only the user can reach
// them: a directory created 0700 and checked to be the user's own, a file
// checked to be the user's own and unreadable by others. What is not is
// refused, never repaired: a directory someone else could write to may
// already hold what they put there.
package userdir

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// Ensure creates dir (and its missing parents) with mode 0700 and checks it
// as Check does.
func Ensure(dir string) error {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("creating %s: %w", dir, err)
	}
	return Check(dir)
}

// Check reports why dir cannot hold secrets, or nil: it must be a
// directory (not a link to one), owned by this user, with no permission
// for anyone else; and each directory above it must be owned by this user
// or root and writable by no one else, unless sticky (as /tmp is), so
// that no one else can rename dir away and put theirs in its place.
func Check(dir string) error {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return fmt.Errorf("%s: %w", dir, err)
	}
	fi, err := os.Lstat(abs)
	if err != nil {
		return err
	}
	if !fi.IsDir() {
		return fmt.Errorf("%s is not a directory (%s)", abs, typeOf(fi))
	}
	if err := owned(abs, fi); err != nil {
		return err
	}
	if perm := fi.Mode().Perm(); perm&0o077 != 0 {
		return fmt.Errorf("%s is open to others (%04o; want 0700)", abs, perm)
	}
	return checkAbove(filepath.Dir(abs), abs)
}

// CheckPath is Check when dir exists; when it does not, it checks what
// Ensure would create it in: the nearest directory above it that exists,
// and those above that, as Check checks the directories above dir.
func CheckPath(dir string) error {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return fmt.Errorf("%s: %w", dir, err)
	}
	p := abs
	for {
		_, err := os.Lstat(p)
		if err == nil {
			break
		}
		if !errors.Is(err, fs.ErrNotExist) || filepath.Dir(p) == p {
			return err
		}
		p = filepath.Dir(p)
	}
	if p == abs {
		return Check(abs)
	}
	return checkAbove(p, abs)
}

// CheckNotShared reports why dir cannot hold a file of secrets, or nil:
// dir and every directory above it must be owned by this user or root and
// writable by no one else, unless sticky, so that no one else can put or
// swap a file in it. (Check is stricter: dir itself open to no one.)
func CheckNotShared(dir string) error {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return fmt.Errorf("%s: %w", dir, err)
	}
	fi, err := os.Lstat(abs)
	if err != nil {
		return err
	}
	if !fi.IsDir() {
		return fmt.Errorf("%s is not a directory (%s)", abs, typeOf(fi))
	}
	return checkAbove(abs, abs)
}

// checkAbove checks p and every directory above it, which hold abs.
func checkAbove(p, abs string) error {
	for ; ; p = filepath.Dir(p) {
		fi, err := os.Stat(p)
		if err != nil {
			return fmt.Errorf("checking the directories above %s: %w", abs, err)
		}
		if uid, ok := ownerOf(fi); ok && uid != os.Getuid() && uid != 0 {
			return fmt.Errorf("%s, above %s, belongs to uid %d, not to this user (%d) or root", p, abs, uid, os.Getuid())
		}
		if fi.Mode().Perm()&0o022 != 0 && fi.Mode()&fs.ModeSticky == 0 {
			return fmt.Errorf("%s, above %s, can be written by others (%04o): they could replace %s", p, abs, fi.Mode().Perm(), abs)
		}
		if filepath.Dir(p) == p {
			return nil
		}
	}
}

// CheckFile reports why the file at path cannot be trusted to hold a
// secret, or nil: it must be a regular file (not a link), owned by this
// user, readable and writable by no one else. A missing file is
// fs.ErrNotExist.
func CheckFile(path string) error {
	fi, err := os.Lstat(path)
	if err != nil {
		return err
	}
	if !fi.Mode().IsRegular() {
		return fmt.Errorf("%s is not a regular file (%s)", path, typeOf(fi))
	}
	if err := owned(path, fi); err != nil {
		return err
	}
	if perm := fi.Mode().Perm(); perm&0o077 != 0 {
		return fmt.Errorf("%s is open to others (%04o; want 0600)", path, perm)
	}
	return nil
}

func owned(path string, fi fs.FileInfo) error {
	if uid, ok := ownerOf(fi); ok && uid != os.Getuid() {
		return fmt.Errorf("%s belongs to uid %d, not to this user (%d)", path, uid, os.Getuid())
	}
	return nil
}

func typeOf(fi fs.FileInfo) string {
	if fi.Mode()&fs.ModeSymlink != 0 {
		return "a symbolic link"
	}
	return fi.Mode().Type().String()
}
