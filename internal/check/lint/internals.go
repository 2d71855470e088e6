package lint

import (
	"encoding/json"
	"regexp"
	"sync"
)

// internalsScan bounds how much of an error is searched for internals.
const internalsScan = 8 << 10

// leaks are traces of the server's insides in an error: stack frames of
// the common runtimes, and private (RFC 1918) IPv4 addresses. The error is
// searched as JSON text, so a frame's newline is the two characters \n.
type leak struct {
	what string
	re   *regexp.Regexp
}

var leaks = sync.OnceValue(func() []leak {
	return []leak{
		{"a JavaScript stack frame", regexp.MustCompile(`\bat [^\s()"]+ \((?:file://)?/[^()"]*:\d+:\d+\)|\bat (?:file://)?/[^\s()"]+:\d+:\d+`)},
		{"a Python traceback", regexp.MustCompile(`Traceback \(most recent call last\)|File \\"[^"\\]+\.py\\", line \d+`)},
		{"a Go stack trace", regexp.MustCompile(`goroutine \d+ \[[a-z ]+\]|\.go:\d+ \+0x[0-9a-f]+`)},
		{"a Java stack frame", regexp.MustCompile(`at [\w$]+(?:\.[\w$<>]+)+\([\w$]+\.java:\d+\)`)},
		{"a .NET stack frame", regexp.MustCompile(`\.cs:line \d+`)},
		{"a Rust panic", regexp.MustCompile(`panicked at '|thread '[^']*' panicked at`)},
		{"a private IP address", regexp.MustCompile(`(?:^|[^\d.])(?:10\.\d{1,3}|172\.(?:1[6-9]|2\d|3[01])|192\.168)\.\d{1,3}\.\d{1,3}(?:$|[^\d.])`)},
	}
})

// internals judges one error response for errors.no-internals.
func (j *judge) internals(raw json.RawMessage, v string) {
	if len(raw) > internalsScan {
		raw = raw[:internalsScan]
	}
	for _, l := range leaks() {
		if m := l.re.Find(raw); m != nil {
			j.fail("errors.no-internals", v, "an error carries %s: %s", l.what, clip(m))
			return
		}
	}
}
