package tap

import (
	"errors"
	"os"
)

// haveSocketPairs is false: a Windows host's stdio is pipes.
const haveSocketPairs = false

// blockingPipe is a pipe; a Windows pipe's ends block.
func blockingPipe() (r, w *os.File, err error) { return os.Pipe() }

var errNoSocketPair = errors.New("no socket pairs on Windows")

func socketPair() (r, w *os.File, err error) { return nil, nil, errNoSocketPair }

func nonblockingSocketPair() (r, w *os.File, err error) { return nil, nil, errNoSocketPair }
