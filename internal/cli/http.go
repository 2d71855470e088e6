package cli

import (
	"net/http"
	"strings"
)

// checkURL rejects what an HTTP server cannot take: arguments after the
// URL, a process's environment or directory, and headers for a stdio
// server.
func (cfg *Config) checkURL() error {
	if cfg.Command == "" {
		return nil
	}
	if !cfg.IsURL() {
		if len(cfg.Headers) > 0 {
			return usageError("--header is for HTTP servers; %s is a command", cfg.Command)
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
