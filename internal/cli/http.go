package cli

import (
	"fmt"
	"net/http"
	"strings"

	"github.com/mcptui/mcptui/httpconn"
)

// checkURL rejects what an HTTP server cannot take: arguments after the
// URL, a process's environment or directory, and headers for a stdio
// server.
func (cfg *Config) checkURL() error {
	if cfg.Command == "" {
		return nil
	}
	if !cfg.IsURL() {
		switch {
		case len(cfg.Headers) > 0:
			return usageError("--header is for HTTP servers; %s is a command", cfg.Command)
		case cfg.Transport != httpconn.Auto:
			return usageError("--transport is for HTTP servers; %s is a command", cfg.Command)
		case cfg.Insecure:
			return usageError("--insecure is for HTTPS servers; %s is a command", cfg.Command)
		}
		return nil
	}
	switch {
	case len(cfg.Args) > 0:
		return usageError("a URL takes no arguments (got %q)", strings.Join(cfg.Args, " "))
	case cfg.Server == nil && len(cfg.Env) > 0:
		return usageError("-e and --unset set a process's environment; %s is an HTTP server", cfg.Command)
	case cfg.Server == nil && cfg.Dir != "":
		return usageError("--cwd sets a process's directory; %s is an HTTP server", cfg.Command)
	}
	if cfg.Insecure {
		cfg.Warnings = append(cfg.Warnings, InsecureWarning)
	}
	return nil
}

// HTTPHeader is the headers as an http.Header.
func (c *Config) HTTPHeader() http.Header {
	if len(c.Headers) == 0 {
		return nil
	}
	h := http.Header{}
	for _, x := range c.Headers {
		h.Add(x.Name, x.Value)
	}
	return h
}

// transportFlag is --transport auto|http|sse.
type transportFlag struct{ mode *httpconn.Mode }

func (f transportFlag) String() string { return "" }
func (f transportFlag) Set(s string) error {
	switch strings.ToLower(s) {
	case "auto":
		*f.mode = httpconn.Auto
	case "http", "streamable-http":
		*f.mode = httpconn.Streamable
	case "sse":
		*f.mode = httpconn.SSE
	default:
		return fmt.Errorf("want auto, http or sse, got %q", s)
	}
	return nil
}

// InsecureWarning is what mcptui says, on stderr and in the inspector,
// when --insecure is given.
const InsecureWarning = "WARNING: --insecure: the server's TLS certificate is NOT verified; anyone on the network path can read and change this session, credentials included"
