// Command bench compares MCP clients side by side. Over stdio (the
// default) against one minimal hand-written server: mcptui's conn, the
// official go-sdk, mcp-go, and a minimal hand-written client that stands for
// the practical ceiling. Over Streamable HTTP (-transport http) against one
// go-sdk StreamableHTTPHandler: mcptui (mcp.Client over httpconn, as the
// inspector uses it), go-sdk's and mcp-go's HTTP clients.
//
// Usage, from the bench directory:
//
//	go run . [-transport http] [-quick] [-runs 5] [-clients conn,gosdk,mcpgo,ceiling] [-workloads seq,par8,...]
//
// Every client × workload × run is a separate worker process (this binary
// re-executed with a job in its environment), so one client's heap never
// pollutes another's; the worker's peak RSS comes from the kernel's wait4
// accounting. The medians are printed as markdown tables, with ratios to the
// ceiling, and written to results/latest.md.
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
)

func main() {
	maybeWorker()
	cfg, out, err := parseFlags(os.Args[1:], os.Stderr)
	if err != nil {
		if err == flag.ErrHelp {
			os.Exit(0)
		}
		fmt.Fprintln(os.Stderr, "bench:", err)
		os.Exit(2)
	}
	if err := run(context.Background(), cfg, out, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "bench:", err)
		os.Exit(1)
	}
}

// run runs the benchmark and writes the report to stdout and to out.
func run(ctx context.Context, cfg config, out string, stdout io.Writer) error {
	res, err := runAll(ctx, cfg)
	if err != nil {
		return err
	}
	md := res.markdown()
	fmt.Fprint(stdout, md)
	if out == "" {
		return nil
	}
	if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
		return err
	}
	if err := os.WriteFile(out, []byte(md), 0o644); err != nil {
		return err
	}
	fmt.Fprintf(cfg.Log, "wrote %s\n", out)
	return nil
}

// parseFlags turns the command line into a config and the report's path.
func parseFlags(args []string, log io.Writer) (config, string, error) {
	fs := flag.NewFlagSet("bench", flag.ContinueOnError)
	fs.SetOutput(log)
	transport := fs.String("transport", transportStdio, "the transport: stdio (conn, go-sdk, mcp-go, the ceiling; hand-written server) or http (mcptui, go-sdk, mcp-go over Streamable HTTP; go-sdk's handler)")
	quick := fs.Bool("quick", false, "a fast smoke run: one run, few calls, small payloads")
	runs := fs.Int("runs", 5, "repetitions of every client × workload (medians are reported)")
	clientList := fs.String("clients", "", "clients to run, comma-separated (default all of the transport's: "+
		defaultClients(transportStdio)+" over stdio, "+defaultClients(transportHTTP)+" over http)")
	workloadList := fs.String("workloads", "", "workloads to run, comma-separated (default all): seq,par8,par64,blob1,blob10,blob15,flood over stdio; seq,par64,blob15 over http")
	seqCalls := fs.Int("seq-calls", 20000, "timed calls of the sequential workload (5000 over http)")
	parCalls := fs.Int("par-calls", 100000, "timed calls of each in-flight workload (20000 over http)")
	warmup := fs.Int("warmup", 1000, "untimed calls before each call workload (500 over http)")
	server := fs.String("server", "", "a prebuilt bench server binary (default: go build ./server, or ./httpserver over http), or over http a running server's URL")
	out := fs.String("out", "", "where to write the markdown report (default results/latest.md, or results/http.md over http, in the bench module)")
	if err := fs.Parse(args); err != nil {
		return config{}, "", err
	}
	if fs.NArg() > 0 {
		return config{}, "", fmt.Errorf("unexpected arguments %q", fs.Args())
	}
	if *transport != transportStdio && *transport != transportHTTP {
		return config{}, "", fmt.Errorf("-transport %q: want stdio or http", *transport)
	}
	if *clientList == "" {
		*clientList = defaultClients(*transport)
	}
	self, err := os.Executable()
	if err != nil {
		return config{}, "", err
	}
	cfg := config{
		Transport: *transport, Quick: *quick, Runs: *runs, Clients: splitList(*clientList), Workloads: splitList(*workloadList),
		SeqCalls: *seqCalls, ParCalls: *parCalls, Warmup: *warmup, Server: *server, Self: self, Log: log,
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	if *transport == transportHTTP && !*quick {
		// An HTTP call costs about 20 stdio calls (the server's HTTP
		// and SSE work on the same two cores): fewer calls keep a full
		// run near 10 minutes.
		if !set["seq-calls"] {
			cfg.SeqCalls = 5000
		}
		if !set["par-calls"] {
			cfg.ParCalls = 20000
		}
		if !set["warmup"] {
			cfg.Warmup = 500
		}
	}
	if *quick {
		if !set["runs"] {
			cfg.Runs = 1
		}
		if !set["seq-calls"] {
			cfg.SeqCalls = 300
		}
		if !set["par-calls"] {
			cfg.ParCalls = 2000
		}
		if !set["warmup"] {
			cfg.Warmup = 50
		}
	}
	if cfg.Runs < 1 || cfg.SeqCalls < 1 || cfg.ParCalls < 1 || cfg.Warmup < 0 {
		return config{}, "", fmt.Errorf("-runs, -seq-calls and -par-calls must be positive, -warmup not negative")
	}
	if *out == "" {
		dir, err := moduleDir()
		if err != nil {
			return config{}, "", err
		}
		name := "latest.md"
		if *transport == transportHTTP {
			name = "http.md"
		}
		*out = filepath.Join(dir, "results", name)
	}
	return cfg, *out, nil
}

// splitList splits a comma-separated list, dropping empty items.
func splitList(s string) []string {
	var out []string
	for _, item := range strings.Split(s, ",") {
		if item = strings.TrimSpace(item); item != "" {
			out = append(out, item)
		}
	}
	return out
}
