package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"syscall"
	"time"
)

// workerEnv names the environment variable that turns the bench binary (or
// the test binary) into a worker: its value is a JSON job.
const workerEnv = "MCPBENCH_JOB"

// job is what the parent asks one worker process to do: one client, one
// workload, one repetition.
type job struct {
	Transport string `json:"transport"`
	Client    string `json:"client"`
	Workload  string `json:"workload"`
	Quick     bool   `json:"quick"`
	// Server is the stdio server's path or the HTTP server's URL.
	Server string `json:"server"`
	Calls  int    `json:"calls"`
	Warmup int    `json:"warmup"`
}

// workerReport is the one JSON line a worker prints on stdout.
type workerReport struct {
	Measurement *measurement `json:"measurement,omitempty"`
	Err         string       `json:"err,omitempty"`
}

// maybeWorker runs the worker and exits when this process was started as
// one; otherwise it returns.
func maybeWorker() {
	spec := os.Getenv(workerEnv)
	if spec == "" {
		return
	}
	var j job
	if err := json.Unmarshal([]byte(spec), &j); err != nil {
		fmt.Fprintln(os.Stderr, "worker: bad job:", err)
		os.Exit(2)
	}
	rep := runJob(j)
	out, _ := json.Marshal(rep)
	os.Stdout.Write(append(out, '\n'))
	os.Exit(0)
}

// runJob dials the client (its handshake is not timed), runs the workload
// and closes the client.
func runJob(j job) workerReport {
	ci, err := findClient(j.Transport, j.Client)
	if err != nil {
		return workerReport{Err: err.Error()}
	}
	w, err := findWorkload(j.Workload, j.Quick)
	if err != nil {
		return workerReport{Err: err.Error()}
	}
	ctx := context.Background()
	dctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	c, err := ci.dial(dctx, j.Server)
	cancel()
	if err != nil {
		return workerReport{Err: "dial: " + err.Error()}
	}
	m, err := runWorkload(ctx, c, w, j.Calls, j.Warmup)
	m.SelfMaxRSSKiB = selfMaxRSS()
	closeWithin(c, 5*time.Second)
	if err != nil {
		return workerReport{Err: err.Error()}
	}
	return workerReport{Measurement: &m}
}

// closeWithin closes c, giving up after d (a dead session may hang).
func closeWithin(c client, d time.Duration) {
	done := make(chan struct{})
	go func() {
		c.Close()
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(d):
	}
}

// selfMaxRSS returns this process's peak RSS in KiB.
func selfMaxRSS() int64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return int64(ru.Maxrss)
}
