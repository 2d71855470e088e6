// Package jaeger builds and starts Jaeger (all-in-one, the OpenTelemetry
// Collector based jaeger binary, memory storage) for the end-to-end tests
// of mcptui's OpenTelemetry export, and reads traces back through its
// query API.
//
// Jaeger is built from the Go module proxy, pinned at Version, in a module
// of its own under the user's cache (not as a tool of mcptui's go.mod):
// its module graph is some 300 modules (collector, storage backends,
// Kubernetes clients), which would more than double go.mod and go.sum
// and, by minimal version selection, pull mcptui's own OpenTelemetry and
// gRPC dependencies to the versions Jaeger needs, or Jaeger's to ours.
// The binary is built once and kept.
package jaeger

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mcptui/mcptui/internal/testkit/e2e"
	"github.com/mcptui/mcptui/internal/testkit/npmcache"
)

// Module and Version are what is built.
const (
	Module  = "github.com/jaegertracing/jaeger/cmd/jaeger"
	Version = "v1.75.0"
)

// buildTimeout bounds the build: Jaeger is large and a shared machine is
// slow.
const buildTimeout = 40 * time.Minute

// Binary returns the jaeger executable, building it into the cache the
// first time. The test is skipped (saying why) when the end-to-end tests
// are off, when there is no go command, or when the module proxy cannot
// give the module; a build that fails once the sources are there fails
// the test.
func Binary(t testing.TB) string {
	t.Helper()
	e2e.Require(t)
	dir := npmcache.Dir("jaeger-" + Version)
	bin := filepath.Join(dir, "jaeger")
	if _, err := os.Stat(bin); err == nil {
		return bin
	}
	gobin, err := exec.LookPath("go")
	if err != nil {
		t.Skipf("SKIP: Jaeger %s is not built in %s and there is no go command to build it: %v", Version, dir, err)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatalf("cannot create %s: %v", dir, err)
	}
	lock, err := os.OpenFile(filepath.Join(dir, ".build.lock"), os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		t.Fatalf("cannot lock %s: %v", dir, err)
	}
	defer lock.Close()
	if err := npmcache.LockFile(lock); err != nil {
		t.Fatalf("cannot lock %s: %v", dir, err)
	}
	defer func() { _ = npmcache.UnlockFile(lock) }()
	if _, err := os.Stat(bin); err == nil {
		return bin // another test built it meanwhile
	}
	mod := filepath.Join(dir, "module")
	if err := os.MkdirAll(mod, 0o755); err != nil {
		t.Fatalf("cannot create %s: %v", mod, err)
	}
	if err := os.WriteFile(filepath.Join(mod, "go.mod"), []byte("module mcptuijaegerbuild\n\ngo 1.24\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), buildTimeout)
	defer cancel()
	run := func(args ...string) ([]byte, error) {
		cmd := exec.CommandContext(ctx, gobin, args...)
		cmd.Dir = mod
		cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOWORK=off")
		return cmd.CombinedOutput()
	}
	if out, err := run("get", Module+"@"+Version); err != nil {
		t.Skipf("SKIP: go get %s@%s failed (the module proxy cannot give it here): %v\n%s", Module, Version, err, tail(out))
	}
	tmp := bin + ".tmp"
	if out, err := run("build", "-o", tmp, Module); err != nil {
		t.Fatalf("go build %s@%s failed: %v\n%s", Module, Version, err, tail(out))
	}
	if err := os.Rename(tmp, bin); err != nil {
		t.Fatal(err)
	}
	return bin
}

func tail(b []byte) string {
	const max = 4000
	if len(b) > max {
		b = b[len(b)-max:]
	}
	return string(b)
}

// Jaeger is a running Jaeger.
type Jaeger struct {
	// OTLP is the OTLP/HTTP endpoint's base URL (mcptui's
	// --otlp-endpoint), Query the query service's.
	OTLP, Query string
	cmd         *exec.Cmd
	done        chan error
	log         *os.File
}

// Start starts Jaeger on free ports of 127.0.0.1 and waits until its
// health check says it is ready; it is stopped at the end of the test.
func Start(t testing.TB) *Jaeger {
	t.Helper()
	bin := Binary(t)
	ports := freePorts(t, 4)
	otlp, query, grpc, health := ports[0], ports[1], ports[2], ports[3]
	cfg := fmt.Sprintf(config, health, query, grpc, otlp)
	dir := t.TempDir()
	cfgPath := filepath.Join(dir, "jaeger.yaml")
	if err := os.WriteFile(cfgPath, []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	log, err := os.Create(filepath.Join(dir, "jaeger.log"))
	if err != nil {
		t.Fatal(err)
	}
	j := &Jaeger{OTLP: "http://" + otlp, Query: "http://" + query, done: make(chan error, 1), log: log}
	j.cmd = exec.Command(bin, "--config", cfgPath)
	j.cmd.Stdout, j.cmd.Stderr = log, log
	if err := j.cmd.Start(); err != nil {
		t.Fatalf("starting jaeger: %v", err)
	}
	go func() { j.done <- j.cmd.Wait() }()
	t.Cleanup(func() {
		_ = j.cmd.Process.Kill()
		<-j.done
		log.Close()
	})
	deadline := time.Now().Add(2 * time.Minute)
	for {
		select {
		case err := <-j.done:
			j.done <- err
			t.Fatalf("jaeger exited before it was ready: %v\n%s", err, j.Log())
		default:
		}
		if resp, err := http.Get("http://" + health + "/status"); err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				break
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("jaeger was not ready in 2 minutes:\n%s", j.Log())
		}
		time.Sleep(100 * time.Millisecond) // polling a server's readiness
	}
	return j
}

// Log is what Jaeger wrote so far.
func (j *Jaeger) Log() string {
	b, _ := os.ReadFile(j.log.Name())
	return tail(b)
}

// config is Jaeger's all-in-one configuration on the ports given
// (health, query HTTP, query gRPC, OTLP/HTTP), with no metrics endpoint.
const config = `service:
  extensions: [jaeger_storage, jaeger_query, healthcheckv2]
  pipelines:
    traces:
      receivers: [otlp]
      processors: [batch]
      exporters: [jaeger_storage_exporter]
  telemetry:
    metrics:
      level: none
    logs:
      level: info
extensions:
  healthcheckv2:
    use_v2: true
    http:
      endpoint: %s
  jaeger_query:
    storage:
      traces: memstore
    http:
      endpoint: %s
    grpc:
      endpoint: %s
  jaeger_storage:
    backends:
      memstore:
        memory:
          max_traces: 10000
receivers:
  otlp:
    protocols:
      http:
        endpoint: %s
processors:
  batch:
    timeout: 100ms
exporters:
  jaeger_storage_exporter:
    trace_storage: memstore
`

// freePorts are n addresses of 127.0.0.1 that were free a moment ago.
func freePorts(t testing.TB, n int) []string {
	t.Helper()
	var ls []net.Listener
	var out []string
	for range n {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		ls = append(ls, l)
		out = append(out, l.Addr().String())
	}
	for _, l := range ls {
		l.Close()
	}
	return out
}

// Trace is a trace as the query API (/api/traces/ID) gives it.
type Trace struct {
	TraceID   string             `json:"traceID"`
	Spans     []Span             `json:"spans"`
	Processes map[string]Process `json:"processes"`
}

// Span is one span of a Trace.
type Span struct {
	TraceID       string      `json:"traceID"`
	SpanID        string      `json:"spanID"`
	OperationName string      `json:"operationName"`
	References    []Reference `json:"references"`
	StartTime     int64       `json:"startTime"`
	Duration      int64       `json:"duration"`
	Tags          []KeyValue  `json:"tags"`
	Logs          []Log       `json:"logs"`
	ProcessID     string      `json:"processID"`
}

// Reference is a span's link to another (CHILD_OF: its parent).
type Reference struct {
	RefType string `json:"refType"`
	TraceID string `json:"traceID"`
	SpanID  string `json:"spanID"`
}

// KeyValue is a tag or a log field.
type KeyValue struct {
	Key   string `json:"key"`
	Type  string `json:"type"`
	Value any    `json:"value"`
}

// Log is a span event: its name is the "event" field.
type Log struct {
	Timestamp int64      `json:"timestamp"`
	Fields    []KeyValue `json:"fields"`
}

// Process is the service that sent spans.
type Process struct {
	ServiceName string     `json:"serviceName"`
	Tags        []KeyValue `json:"tags"`
}

// Tag is the value of s's tag key as text ("" when it has none).
func (s Span) Tag(key string) string { return value(s.Tags, key) }

// Parent is the span id s is the child of ("" for a root).
func (s Span) Parent() string {
	for _, r := range s.References {
		if r.RefType == "CHILD_OF" {
			return r.SpanID
		}
	}
	return ""
}

// Events are the names of s's events (logs), in order.
func (s Span) Events() []string {
	var out []string
	for _, l := range s.Logs {
		out = append(out, value(l.Fields, "event"))
	}
	return out
}

// Field is the value of field key of the event named name, the first
// such event ("" when none).
func (s Span) Field(name, key string) string {
	for _, l := range s.Logs {
		if value(l.Fields, "event") == name {
			return value(l.Fields, key)
		}
	}
	return ""
}

func value(kvs []KeyValue, key string) string {
	for _, kv := range kvs {
		if kv.Key == key {
			if s, ok := kv.Value.(string); ok {
				return s
			}
			return fmt.Sprint(kv.Value)
		}
	}
	return ""
}

// Trace reads trace id (32 hex digits) back, waiting until it holds at
// least spans spans (the collector batches): the deadline is generous.
func (j *Jaeger) Trace(t testing.TB, id string, spans int) Trace {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	var last string
	for {
		tr, err := j.get(id)
		if err == nil && len(tr.Spans) >= spans {
			return tr
		}
		if err != nil {
			last = err.Error()
		} else {
			last = fmt.Sprintf("%d spans", len(tr.Spans))
		}
		if time.Now().After(deadline) {
			t.Fatalf("trace %s from jaeger's query API: %s\n%s", id, last, j.Log())
		}
		time.Sleep(100 * time.Millisecond) // polling the store
	}
}

func (j *Jaeger) get(id string) (Trace, error) {
	resp, err := http.Get(j.Query + "/api/traces/" + id)
	if err != nil {
		return Trace{}, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		return Trace{}, err
	}
	if resp.StatusCode != http.StatusOK {
		return Trace{}, fmt.Errorf("GET /api/traces/%s: %s %s", id, resp.Status, strings.TrimSpace(string(b)))
	}
	var r struct {
		Data []Trace `json:"data"`
	}
	if err := json.Unmarshal(b, &r); err != nil {
		return Trace{}, fmt.Errorf("GET /api/traces/%s: %w", id, err)
	}
	if len(r.Data) == 0 {
		return Trace{}, fmt.Errorf("GET /api/traces/%s: no trace", id)
	}
	return r.Data[0], nil
}
