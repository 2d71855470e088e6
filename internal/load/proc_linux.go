//go:build linux

package load

import (
	"bytes"
	"fmt"
	"os"
	"strconv"
)

// userHZ is the unit of the CPU times in /proc/PID/stat: USER_HZ, which
// the kernel fixes at 100 for user space on every architecture Go runs
// Linux on.
const userHZ = 100

// procMeasured says whether sampleTree can measure on this system.
const procMeasured = true

// sampleTree reads the resident memory and the CPU time used so far of the
// processes rooted at roots (each root and its descendants, found by
// parent pid in /proc): the server, and whatever a launcher such as npx
// started.
func sampleTree(roots []int) (procSample, error) {
	ents, err := os.ReadDir("/proc")
	if err != nil {
		return procSample{}, fmt.Errorf("reading /proc: %w", err)
	}
	type stat struct {
		ppid       int
		rss, ticks int64
	}
	all := map[int]stat{}
	children := map[int][]int{}
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil {
			continue // gone since the listing
		}
		// pid (comm) state ppid ...: comm may hold spaces and parentheses.
		i := bytes.LastIndexByte(b, ')')
		if i < 0 {
			continue
		}
		f := bytes.Fields(b[i+1:])
		if len(f) < 22 {
			continue
		}
		n := func(k int) int64 { v, _ := strconv.ParseInt(string(f[k]), 10, 64); return v }
		s := stat{ppid: int(n(1)), ticks: n(11) + n(12) + n(13) + n(14), rss: n(21) * int64(os.Getpagesize())}
		all[pid] = s
		children[s.ppid] = append(children[s.ppid], pid)
	}
	var out procSample
	seen := map[int]bool{}
	queue := append([]int{}, roots...)
	for len(queue) > 0 {
		pid := queue[0]
		queue = queue[1:]
		s, ok := all[pid]
		if !ok || seen[pid] {
			continue
		}
		seen[pid] = true
		out.procs++
		out.rss += s.rss
		out.cpu += float64(s.ticks) / userHZ
		queue = append(queue, children[pid]...)
	}
	if out.procs == 0 {
		return out, fmt.Errorf("no process of the server is running")
	}
	return out, nil
}
