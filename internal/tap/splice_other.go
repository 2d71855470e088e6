//go:build !linux

package tap

import (
	"errors"
	"io"
	"os"
)

// canSplice says the pump always copies here.
const canSplice = false

// growPipe leaves the pipe as the system made it.
func growPipe(*os.File) {}

// pollable is nil: the host's streams are used as they are.
func pollable(*os.File, bool) *os.File { return nil }

// restoreBlocking has nothing to restore here.
func restoreBlocking(*os.File) {}

// splicer is Linux's in-kernel relay; elsewhere the pump copies.
type splicer struct{}

// newSplicer is nil: the pump copies.
func newSplicer(io.Reader, io.Writer) *splicer { return nil }

func (*splicer) ready() (int, error) { return 0, nil }

var errNoSplice = errors.New("tap: splice not supported here")

func (*splicer) gather(int) error { return errNoSplice }

func (*splicer) add([]byte) error { return errNoSplice }

func (*splicer) flush() error { return errNoSplice }

func (*splicer) close() {}
