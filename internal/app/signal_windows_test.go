package app

import (
	"errors"
	"syscall"
)

// signalPID cannot: Windows has no signals.
func signalPID(int, syscall.Signal) error { return errors.New("no signals on Windows") }
