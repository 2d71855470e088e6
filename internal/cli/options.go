package cli

import (
	"github.com/mcptui/mcptui/conn"
	"github.com/mcptui/mcptui/httpconn"
	"github.com/mcptui/mcptui/mcp"
)

// MCPOptions are the protocol options the command line asks for: the
// server's environment, directory and limits, the versions and the request
// timeout. It is the one place flags become mcp.Options; the inspector and
// the headless commands add their answerers to it.
func (c *Config) MCPOptions() mcp.Options {
	timeout := c.Timeout
	if timeout == 0 {
		timeout = mcp.NoTimeout // the command line's 0 is "none"; mcp's is "default"
	}
	return mcp.Options{
		Conn: conn.Options{
			Env:               c.ConnEnv(),
			Dir:               c.Dir,
			MaxLineBytes:      c.MaxLineBytes,
			MaxServerRequests: c.MaxServerRequests,
			// An answer discarded (too long, too deep) whose id can be read
			// fails its call at once instead of waiting out the timeout.
			FailLostAnswers: true,
		},
		HTTP:           httpconn.Options{Header: c.HTTPHeader(), Mode: c.Transport, Insecure: c.Insecure},
		Versions:       c.Protocols,
		ProbeTimeout:   c.ProbeTimeout,
		ShutdownGrace:  c.ShutdownGrace,
		RequestTimeout: timeout,
	}
}

// ConnEnv is the command line's environment changes for conn.
func (c *Config) ConnEnv() []conn.EnvVar {
	out := make([]conn.EnvVar, len(c.Env))
	for i, e := range c.Env {
		out[i] = conn.EnvVar{Name: e.Name, Value: e.Value}
	}
	return out
}
