package cli

// Usage is the help text for mcptui's command line.
const Usage = `mcptui — a live terminal inspector for MCP servers that speak stdio

Usage:
  mcptui [flags] -- command [args...]   inspect the server that command starts
  mcptui --demo [flags]                 inspect the built-in demo server
  mcptui demo-server                    run the demo server alone on stdio

The server command after -- is run directly, without a shell.

Server process:
  -e, --env KEY=VALUE          set a variable for the server (repeatable)
      --unset KEY              remove an inherited variable (repeatable)
      --cwd DIR                the server's working directory

Protocol:
      --protocol V             allow only these versions (repeatable): 2026-07-28,
                               2025-11-25, 2025-06-18; default: all, negotiated
      --root URI               a root the client offers (repeatable)
      --timeout D              per-request timeout (default 30s; 0 = none)
      --reset-timeout-on-progress
                               progress restarts a request's timer (default true)
      --max-total-timeout D    cap on a timer pushed by progress (default 10m)
      --max-line-bytes N       largest line accepted from the server (default 16MiB)
      --max-server-requests N  server requests answered at once (default 16)

Screen:
      --theme T                auto, dark, light or high-contrast (default auto)
      --history-bytes N        traffic kept in memory (default 64MiB)
      --no-bell                no terminal bell when the server asks something

      --version                print the version
  -h, --help                   print this help
`
