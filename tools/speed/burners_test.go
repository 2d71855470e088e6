//go:build linux

package main

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestMain doubles as the helper of TestBurnersGoneWhenKilled: with
// SPEED_BURNER_HELPER set, the test binary starts burners as run does
// (under signalContext, stopped by a deferred stop), prints their pids and
// waits for a signal.
func TestMain(m *testing.M) {
	if n := os.Getenv("SPEED_BURNER_HELPER"); n != "" {
		os.Exit(burnerHelper(n))
	}
	os.Exit(m.Run())
}

func burnerHelper(n string) int {
	count, _ := strconv.Atoi(n)
	ctx, stop := signalContext()
	defer stop()
	bs, err := startBurners(count)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer bs.stop()
	fmt.Println(strings.Trim(fmt.Sprint(bs.pids()), "[]"))
	<-ctx.Done()
	return 0
}

// proc is a process as /proc tells it: its state and start time.
type proc struct {
	state byte
	start string
}

// readProc reads /proc/PID/stat (ok false: no such process).
func readProc(t *testing.T, pid int) (proc, bool) {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if errors.Is(err, os.ErrNotExist) {
		return proc{}, false
	}
	if err != nil {
		t.Fatal(err)
	}
	// pid (comm) state … with starttime the 22nd field; comm may hold
	// spaces, so count from its closing parenthesis.
	f := strings.Fields(string(data[strings.LastIndexByte(string(data), ')')+1:]))
	return proc{state: f[0][0], start: f[19]}, true
}

// running says whether the process that was p still runs (not gone, not
// a zombie, not another process with its pid).
func running(t *testing.T, pid int, p proc) bool {
	now, ok := readProc(t, pid)
	return ok && now.start == p.start && now.state != 'Z' && now.state != 'X'
}

func needProc(t *testing.T) {
	if _, err := os.Stat("/proc/self/stat"); err != nil {
		t.Skip("no /proc")
	}
}

// TestBurnersStartAndStop: the burners run, each a process of its own,
// and stop leaves none of them.
func TestBurnersStartAndStop(t *testing.T) {
	needProc(t)
	bs, err := startBurners(2)
	if err != nil {
		t.Fatal(err)
	}
	defer bs.stop()
	pids := bs.pids()
	if len(pids) != 2 || pids[0] == pids[1] {
		t.Fatalf("pids %v; want two", pids)
	}
	procs := map[int]proc{}
	for _, pid := range pids {
		p, ok := readProc(t, pid)
		if !ok || p.state == 'Z' {
			t.Fatalf("burner %d is not running", pid)
		}
		procs[pid] = p
	}
	bs.stop()
	bs.stop() // a second stop (a deferred one after an explicit one) does nothing
	for pid, p := range procs {
		if running(t, pid, p) {
			t.Errorf("burner %d still runs after stop", pid)
		}
		if _, ok := readProc(t, pid); ok {
			t.Errorf("burner %d was not reaped", pid)
		}
	}
}

// TestBurnersGoneWhenKilled: however the program ends — an interrupt,
// SIGTERM, SIGHUP, or SIGKILL (the burners' parent-death signal) — no
// burner outlives it.
func TestBurnersGoneWhenKilled(t *testing.T) {
	needProc(t)
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP, syscall.SIGKILL} {
		t.Run(sig.String(), func(t *testing.T) {
			cmd := exec.Command(self)
			cmd.Env = append(os.Environ(), "SPEED_BURNER_HELPER=2")
			cmd.Stderr = os.Stderr
			out, err := cmd.StdoutPipe()
			if err != nil {
				t.Fatal(err)
			}
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			defer func() { _ = cmd.Process.Kill(); _ = cmd.Wait() }()
			line, err := bufio.NewReader(out).ReadString('\n')
			if err != nil {
				t.Fatalf("the helper's pids: %v", err)
			}
			procs := map[int]proc{}
			for _, f := range strings.Fields(line) {
				pid, err := strconv.Atoi(f)
				if err != nil {
					t.Fatalf("the helper's pids %q: %v", line, err)
				}
				p, ok := readProc(t, pid)
				if !ok || p.state == 'Z' {
					t.Fatalf("burner %d is not running", pid)
				}
				procs[pid] = p
			}
			if len(procs) != 2 {
				t.Fatalf("the helper started %q; want two burners", line)
			}
			if err := cmd.Process.Signal(sig); err != nil {
				t.Fatal(err)
			}
			err = cmd.Wait()
			if sig != syscall.SIGKILL {
				// It stopped them itself, and reaped them, before it exited.
				if err != nil {
					t.Errorf("the helper after %v: %v; want a clean exit", sig, err)
				}
				for pid, p := range procs {
					if running(t, pid, p) {
						t.Errorf("burner %d still runs after the helper's %v", pid, sig)
					}
				}
				return
			}
			// SIGKILL: the kernel sends each burner its parent-death
			// signal; wait for it to land.
			deadline := time.Now().Add(60 * time.Second)
			for pid, p := range procs {
				for running(t, pid, p) {
					if time.Now().After(deadline) {
						for pid := range procs {
							_ = syscall.Kill(pid, syscall.SIGKILL) // not to leave them spinning
						}
						t.Fatalf("burner %d outlived its killed parent", pid)
					}
					time.Sleep(10 * time.Millisecond)
				}
			}
		})
	}
}
