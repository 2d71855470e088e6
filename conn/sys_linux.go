package conn

import (
	"bytes"
	"os"
	"strconv"
	"syscall"

	"golang.org/x/sys/unix"
)

// processAttr starts the server as the leader of its own process group, so
// that signals reach every process of a launcher's tree (npx, uvx, sh -c)
// and none of them shares mcptui's terminal job control; and it asks the
// kernel to SIGKILL the child should mcptui die without shutting it down
// (the rest of the tree then sees stdin's EOF).
func processAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}

// groupID is the group the child leads: its pid.
func groupID(pid int) int { return pid }

// procEntry is what /proc/<pid>/stat says of one process.
type procEntry struct {
	pid   int
	comm  string
	state byte
	pgrp  int
}

// eachProcess calls fn for every process /proc lists, except this one.
func eachProcess(fn func(procEntry)) {
	dir, err := os.Open("/proc")
	if err != nil {
		return
	}
	defer dir.Close()
	names, _ := dir.Readdirnames(-1)
	self := os.Getpid()
	for _, name := range names {
		pid, err := strconv.Atoi(name)
		if err != nil || pid == self {
			continue
		}
		if e, ok := readStat(pid); ok {
			fn(e)
		}
	}
}

// readStat parses /proc/<pid>/stat: "pid (comm) state ppid pgrp ...".
func readStat(pid int) (procEntry, bool) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return procEntry{}, false
	}
	open, close := bytes.IndexByte(b, '('), bytes.LastIndexByte(b, ')')
	if open < 0 || close < open {
		return procEntry{}, false
	}
	fields := bytes.Fields(b[close+1:])
	if len(fields) < 3 {
		return procEntry{}, false
	}
	pgrp, _ := strconv.Atoi(string(fields[2]))
	return procEntry{pid: pid, comm: string(b[open+1 : close]), state: fields[0][0], pgrp: pgrp}, true
}

// running is false for a process that has ended but not been reaped.
func (e procEntry) running() bool { return e.state != 'Z' && e.state != 'X' }

// groupAlive reports whether a process of the group still runs (zombies
// waiting for a parent that does not reap them do not count).
func groupAlive(pgid int) bool {
	if err := syscall.Kill(-pgid, 0); err == syscall.ESRCH {
		return false // no process at all, not even a zombie: no need to look
	}
	alive := false
	eachProcess(func(e procEntry) {
		if e.pgrp == pgid && e.running() {
			alive = true
		}
	})
	return alive
}

// markedProcesses lists the running processes outside group pgid whose
// environment carries this connection's marker.
func markedProcesses(marker string, pgid int) []Stray {
	want := []byte(MarkerEnv + "=" + marker)
	var out []Stray
	eachProcess(func(e procEntry) {
		if !e.running() || (pgid > 0 && e.pgrp == pgid) {
			return
		}
		env, err := os.ReadFile("/proc/" + strconv.Itoa(e.pid) + "/environ")
		if err != nil {
			return
		}
		for kv := range bytes.SplitSeq(env, []byte{0}) {
			if bytes.Equal(kv, want) {
				out = append(out, Stray{PID: e.pid, Command: e.comm})
				return
			}
		}
	})
	return out
}

// pipeBacklog is how many bytes the pipe f reads from holds, unread (0 when
// that cannot be told). It asks through the file's raw connection, never
// f.Fd, which would turn the pipe blocking under the reader.
func pipeBacklog(f *os.File) int64 {
	rc, err := f.SyscallConn()
	if err != nil {
		return 0
	}
	var n int
	if cerr := rc.Control(func(fd uintptr) {
		n, err = unix.IoctlGetInt(int(fd), unix.TIOCINQ)
	}); cerr != nil || err != nil {
		return 0
	}
	return int64(n)
}
