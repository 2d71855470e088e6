// Package otlptest is an OTLP/HTTP traces receiver for tests: an httptest
// server that decodes each protobuf ExportTraceServiceRequest posted to it
// and keeps its spans.
package otlptest

import (
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"time"

	collectortrace "go.opentelemetry.io/proto/otlp/collector/trace/v1"
	tracepb "go.opentelemetry.io/proto/otlp/trace/v1"
	"google.golang.org/protobuf/proto"
)

// Receiver is a running receiver; URL is its base (spans go to
// URL/v1/traces, or any path).
type Receiver struct {
	URL string
	srv *httptest.Server

	mu       sync.Mutex
	spans    []*tracepb.Span
	services []string
	paths    []string
	errs     []error
	changed  chan struct{}
}

// Start starts a receiver; Close stops it.
func Start() *Receiver {
	r := &Receiver{changed: make(chan struct{})}
	r.srv = httptest.NewServer(http.HandlerFunc(r.serve))
	r.URL = r.srv.URL
	return r
}

// Close stops the receiver.
func (r *Receiver) Close() { r.srv.Close() }

func (r *Receiver) serve(w http.ResponseWriter, req *http.Request) {
	body, err := io.ReadAll(req.Body)
	if err == nil && req.Header.Get("Content-Encoding") == "gzip" {
		var zr *gzip.Reader
		if zr, err = gzip.NewReader(bytes.NewReader(body)); err == nil {
			body, err = io.ReadAll(zr)
		}
	}
	var msg collectortrace.ExportTraceServiceRequest
	if err == nil {
		if ct := req.Header.Get("Content-Type"); ct != "application/x-protobuf" {
			err = fmt.Errorf("content type %q", ct)
		} else {
			err = proto.Unmarshal(body, &msg)
		}
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if err != nil {
		r.errs = append(r.errs, fmt.Errorf("%s: %w", req.URL.Path, err))
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	r.paths = append(r.paths, req.URL.Path)
	for _, rs := range msg.ResourceSpans {
		for _, a := range rs.GetResource().GetAttributes() {
			if a.Key == "service.name" {
				r.services = append(r.services, a.GetValue().GetStringValue())
			}
		}
		for _, ss := range rs.ScopeSpans {
			r.spans = append(r.spans, ss.Spans...)
		}
	}
	close(r.changed)
	r.changed = make(chan struct{})
	w.Header().Set("Content-Type", "application/x-protobuf")
	b, _ := proto.Marshal(&collectortrace.ExportTraceServiceResponse{})
	_, _ = w.Write(b)
}

// Spans are the spans received so far.
func (r *Receiver) Spans() []*tracepb.Span {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]*tracepb.Span(nil), r.spans...)
}

// Named are the spans received so far with that name.
func (r *Receiver) Named(name string) []*tracepb.Span {
	var out []*tracepb.Span
	for _, s := range r.Spans() {
		if s.Name == name {
			out = append(out, s)
		}
	}
	return out
}

// Services are the service.name of each resource received.
func (r *Receiver) Services() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.services...)
}

// Paths are the URL paths posted to.
func (r *Receiver) Paths() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.paths...)
}

// Errors are the requests that could not be read.
func (r *Receiver) Errors() []error {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]error(nil), r.errs...)
}

// WaitFor waits until ok holds for the spans received, or the deadline
// passes; it reports whether it held.
func (r *Receiver) WaitFor(ctx context.Context, deadline time.Duration, ok func([]*tracepb.Span) bool) bool {
	ctx, cancel := context.WithTimeout(ctx, deadline)
	defer cancel()
	for {
		r.mu.Lock()
		spans, ch := append([]*tracepb.Span(nil), r.spans...), r.changed
		r.mu.Unlock()
		if ok(spans) {
			return true
		}
		select {
		case <-ch:
		case <-ctx.Done():
			return false
		}
	}
}

// Attr is the string value of a span's attribute, "" when absent.
func Attr(s *tracepb.Span, key string) string {
	for _, a := range s.Attributes {
		if a.Key == key {
			return a.GetValue().GetStringValue()
		}
	}
	return ""
}
