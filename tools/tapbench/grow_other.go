//go:build !linux

package main

import (
	"errors"
	"os"
	"os/exec"
)

// growStdio leaves the pipes as they are (F_SETPIPE_SZ is Linux's).
func growStdio() {}

// socketStdio is Linux's here.
func socketStdio(*exec.Cmd) (*os.File, *os.File, func(), error) {
	return nil, nil, nil, errors.New("-socketpair: Linux only")
}
