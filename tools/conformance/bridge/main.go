// Command bridge is a test tool for mcptui's conformance run: a stdio MCP
// server that relays every message to a Streamable HTTP MCP server and
// back, so that a stdio-only client can be driven by the official MCP
// conformance suite, whose mock servers speak only HTTP.
//
// Usage:
//
//	bridge [-q] [-trace FILE] URL
//
// The client starts it as its server (mcptui tools -- bridge URL). Lines
// on stdin are JSON-RPC messages from the client; what the HTTP server
// answers is written to stdout, one message per line; diagnostics go to
// stderr; -trace appends every message both ways to FILE. At EOF on stdin the bridge ends the HTTP session (DELETE) and
// exits 0. It is not part of the mcptui binary.
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log"
	"net/url"
	"os"
	"os/signal"
	"syscall"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// run is the bridge with its arguments and streams; it returns the exit
// status.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("bridge", flag.ContinueOnError)
	fs.SetOutput(stderr)
	quiet := fs.Bool("q", false, "no diagnostics on stderr")
	tracePath := fs.String("trace", "", "append every message both ways to `FILE`")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: bridge [-q] [-trace FILE] URL\n\nA stdio MCP server that relays to the Streamable HTTP MCP server at URL.")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() != 1 {
		fs.Usage()
		return 2
	}
	u, err := url.Parse(fs.Arg(0))
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		fmt.Fprintf(stderr, "bridge: %q is not an http(s) URL\n", fs.Arg(0))
		return 2
	}
	logger := log.New(stderr, "bridge: ", 0)
	if *quiet {
		logger = nil
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	b := &Bridge{URL: u.String(), Stdin: stdin, Stdout: stdout, Log: logger}
	if *tracePath != "" {
		f, err := os.OpenFile(*tracePath, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o600)
		if err != nil {
			fmt.Fprintf(stderr, "bridge: %v\n", err)
			return 1
		}
		defer f.Close()
		b.Trace = f
	}
	if err := b.Run(ctx); err != nil {
		fmt.Fprintf(stderr, "%v\n", err)
		return 1
	}
	return 0
}
