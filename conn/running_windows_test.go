package conn_test

import (
	"errors"

	"golang.org/x/sys/windows"
)

// running is nil when process pid still runs, else why not.
func running(pid int) error {
	h, err := windows.OpenProcess(windows.PROCESS_QUERY_LIMITED_INFORMATION, false, uint32(pid))
	if err != nil {
		return err
	}
	defer windows.CloseHandle(h)
	var code uint32
	if err := windows.GetExitCodeProcess(h, &code); err != nil {
		return err
	}
	if code != 259 { // STILL_ACTIVE
		return errors.New("exited")
	}
	return nil
}
