package telemetry

import (
	"context"
	"fmt"
	"net/url"
	"strings"
	"sync"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracehttp"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
)

// Environment variables of the OTLP exporter that turn tracing on without
// --otlp-endpoint (the SDK reads them, and the others of the family:
// OTEL_EXPORTER_OTLP_HEADERS, _TIMEOUT, _COMPRESSION, _CERTIFICATE, ...).
var endpointVars = []string{"OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", "OTEL_EXPORTER_OTLP_ENDPOINT"}

// Enabled reports whether spans are to be sent: an endpoint was given, or
// the environment names one.
func Enabled(endpoint string, getenv func(string) string) bool {
	if endpoint != "" {
		return true
	}
	for _, v := range endpointVars {
		if getenv(v) != "" {
			return true
		}
	}
	return false
}

// TracesURL is the URL spans are posted to for --otlp-endpoint URL: as
// OTEL_EXPORTER_OTLP_ENDPOINT is read, "/v1/traces" is appended unless the
// path already ends with it.
func TracesURL(endpoint string) (string, error) {
	u, err := url.Parse(endpoint)
	if err != nil {
		return "", fmt.Errorf("--otlp-endpoint %q: %w", endpoint, err)
	}
	if (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return "", fmt.Errorf("--otlp-endpoint %q: an http:// or https:// URL, such as http://localhost:4318", endpoint)
	}
	if !strings.HasSuffix(u.Path, "/v1/traces") {
		u.Path = strings.TrimSuffix(u.Path, "/") + "/v1/traces"
	}
	return u.String(), nil
}

// Provider sends spans over OTLP/HTTP (protobuf). Shutdown sends what is
// left; call it before the program ends.
type Provider struct {
	*sdktrace.TracerProvider
	ids *idGenerator
	exp *keepError
}

// keepError is the exporter behind the batcher: it keeps the first error
// and the count of spans sent, rather than handing the error to the SDK's
// global handler (which logs it on stderr, across the inspector's screen).
type keepError struct {
	sdktrace.SpanExporter
	mu   sync.Mutex
	err  error
	sent int
}

func (k *keepError) ExportSpans(ctx context.Context, spans []sdktrace.ReadOnlySpan) error {
	err := k.SpanExporter.ExportSpans(ctx, spans)
	k.mu.Lock()
	defer k.mu.Unlock()
	if err != nil && k.err == nil {
		k.err = err
	}
	if err == nil {
		k.sent += len(spans)
	}
	return nil
}

// Shutdown sends the spans still queued and stops; it returns the first
// error an export met (the spans of that batch are lost).
func (p *Provider) Shutdown(ctx context.Context) error {
	err := p.TracerProvider.Shutdown(ctx)
	if p.exp != nil {
		p.exp.mu.Lock()
		defer p.exp.mu.Unlock()
		if p.exp.err != nil {
			return fmt.Errorf("otlp: %w", p.exp.err)
		}
	}
	return err
}

// Sent is how many spans reached the endpoint so far.
func (p *Provider) Sent() int {
	if p.exp == nil {
		return 0
	}
	p.exp.mu.Lock()
	defer p.exp.mu.Unlock()
	return p.exp.sent
}

// NewProvider makes a tracer provider that exports to endpoint (see
// TracesURL), or, when endpoint is "", where the OTEL_EXPORTER_OTLP_*
// variables say. The service is "mcptui" unless OTEL_SERVICE_NAME or
// OTEL_RESOURCE_ATTRIBUTES say otherwise. Every span is sampled: spans
// are asked for explicitly.
func NewProvider(ctx context.Context, endpoint string) (*Provider, error) {
	var opts []otlptracehttp.Option
	if endpoint != "" {
		u, err := TracesURL(endpoint)
		if err != nil {
			return nil, err
		}
		opts = append(opts, otlptracehttp.WithEndpointURL(u))
	}
	exp, err := otlptracehttp.New(ctx, opts...)
	if err != nil {
		return nil, fmt.Errorf("otlp exporter: %w", err)
	}
	k := &keepError{SpanExporter: exp}
	p, err := newProvider(ctx, sdktrace.WithBatcher(k))
	if p != nil {
		p.exp = k
	}
	return p, err
}

// NewProviderWith is NewProvider on any span processor (tests: an
// in-memory exporter behind sdktrace.WithSyncer).
func NewProviderWith(ctx context.Context, opt sdktrace.TracerProviderOption) (*Provider, error) {
	return newProvider(ctx, opt)
}

func newProvider(ctx context.Context, opt sdktrace.TracerProviderOption) (*Provider, error) {
	res, err := resource.New(ctx,
		resource.WithAttributes(attribute.String("service.name", "mcptui")),
		resource.WithFromEnv(), // OTEL_SERVICE_NAME, OTEL_RESOURCE_ATTRIBUTES
	)
	if err != nil {
		return nil, fmt.Errorf("otel resource: %w", err)
	}
	ids := newIDGenerator()
	tp := sdktrace.NewTracerProvider(opt, sdktrace.WithResource(res), sdktrace.WithIDGenerator(ids),
		sdktrace.WithSampler(sdktrace.AlwaysSample()))
	return &Provider{TracerProvider: tp, ids: ids}, nil
}
