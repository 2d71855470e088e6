package cli

// HelpHint follows a usage error: where every command and flag is listed.
const HelpHint = "Run mcptui --help for every command and flag."

// Usage is the help text for mcptui's command line.
const Usage = `mcptui — a live terminal inspector for MCP servers, stdio and Streamable HTTP

Usage:
  mcptui [flags] -- command [args...]   inspect the server that command starts
  mcptui [flags] [--] https://host/mcp   inspect a Streamable HTTP server (a URL where
                                        the command would be, in every command)
  mcptui --demo [flags]                 inspect the built-in demo server
  mcptui [--baseline FILE] [--host NAME] [--model NAME] [flags] -- command...
                                        the catalog marks what changed since the
                                        snapshot, and the tools a host or model refuses
  mcptui demo-server                    run the demo server alone on stdio
  mcptui demo-server --extensions       a demo server of Skills and an MCP App, on stdio
  mcptui                                pick one of the servers your hosts are set up with
  mcptui [flags] --server NAME          inspect that server of your host configs (Claude
                                        Desktop, Claude Code, VS Code, Cursor)
  mcptui [flags] --config FILE [NAME]   inspect a server of that config file
  mcptui servers [--config FILE]        list the servers of your host configs

Headless (print, then exit; same flags, same -- form):
  mcptui tools|resources|templates|prompts [flags] -- command [args...]
  mcptui call NAME [--args JSON | --arg KEY=VALUE | --arg KEY:=JSON ...] [flags] -- command...
  mcptui read URI [flags] -- command...
  mcptui get PROMPT [--args JSON | --arg KEY=VALUE ...] [flags] -- command...
  mcptui complete prompt:NAME|resource:URI-TEMPLATE ARG[=VALUE] [--arg KEY=VALUE ...] -- command...
  mcptui request METHOD [--params JSON] [flags] -- command...
  mcptui skills [--require-digests] [flags] -- command...
                                        the server's skills (Skills extension): files,
                                        sizes, each file's SHA-256 digest checked ✓/✗
  mcptui skill NAME [FILE] [--require-digests] [flags] -- command...
                                        one skill's files, or one file, verified
  mcptui app TOOL [--args JSON | --arg KEY=VALUE ...] [--no-open] [flags] -- command...
                                        call a tool that has an MCP App and open the App
                                        in your browser (served on 127.0.0.1, sandboxed);
                                        its calls are relayed and printed here
  mcptui run SCRIPT [--junit FILE] [flags] -- command...
  mcptui doctor [flags] -- command...   why won't it start? a diagnosis with fixes
  mcptui check [--era all|V] [--level should] [--call-tools] [--rule ID|GROUP]
               [--format text|json|junit|sarif] [--junit FILE] [--sarif FILE] [flags] -- command...
                                        is the server correct? every MUST and SHOULD of the
                                        era, with the spec section and the fix
  mcptui load call NAME [--args JSON] | request METHOD [--params JSON] | --script FILE
              --rate R | --concurrency C  --duration D [--warmup D] [--sessions N]
              [--max-p50 D] [--max-p99 D] [--max-error-rate F] [flags] -- command...
                                        how much can it take? throughput, latency
                                        percentiles, errors by kind, server RSS/CPU
  mcptui snapshot [--era all|V] [flags] -- command...
                                        the server's surface (tools, schemas, resources,
                                        templates, prompts, capabilities) as stable JSON
  mcptui diff [--fail-on breaking|risky|any|none] [--format text|json|markdown] A B
                                        every change from A to B, classified breaking,
                                        risky or additive; A and B are snapshot files,
                                        recordings, a URL, or B is -- command...;
                                        --eras A,B -- command...: one server, two revisions
  mcptui check --baseline FILE [flags] -- command...
                                        check, plus the drift group: the server against
                                        a snapshot of its last release
  mcptui replay --verify [--ignore PATH] [--fail-on ...] FILE -- command...
                                        send a recording's client side to a new build and
                                        compare every answer with the recorded one
  mcptui logout URL|all          forget the tokens --keep-token kept
  mcptui replay [--max-line-bytes N] FILE          the inspector, read-only, on a recording
  mcptui replay --serve [--max-line-bytes N] FILE  act as the recorded server on stdio
  mcptui export --format otlp|har|json|markdown [--call ID] [-o FILE] FILE
                                        a recording as OpenTelemetry spans (sent to
                                        --otlp-endpoint), an HTTP Archive, one JSON
                                        document, or a Markdown post-mortem of one call
  mcptui explain ID [-o FILE] FILE
                                        the Markdown post-mortem of request ID of a
                                        recording (export --format markdown --call ID)

Watching a real host (Claude Desktop, Claude Code, VS Code, Cursor...):
  mcptui tap [--name N] [--record FILE] -- command...
                                        in the host's config in place of the
                                        server: relays it byte for byte and
                                        publishes the session live
  mcptui tap --print-config N -- command...
                                        print the config entry for each host
  mcptui attach [N] [--break FILTER] [--hold-timeout D]
                                        the inspector, live and read-only, on
                                        a running tap; no N: list the taps

The server command after -- is run directly, without a shell.

Server process:
  -e, --env KEY=VALUE          set a variable for the server (repeatable)
      --unset KEY              remove an inherited variable (repeatable)
      --cwd DIR                the server's working directory
      --config FILE            take the server from a host's config file (mcpServers,
                               or VS Code's servers); -e, --unset and --cwd still apply
      --server NAME            the server of --config FILE, or of your host configs
                               (HOST:NAME where two hosts' files share the name:
                               claude-code, claude-desktop, vscode, cursor); every
                               command takes it, or NAME after the command's words
      --shutdown-grace D       how long the server gets to exit after stdin's EOF,
                               and again after SIGTERM, before SIGKILL (default 500ms)

HTTP server:
  -H, --header 'Name: value'   send this header on every request (repeatable); values
                               are never recorded or shown
  OAuth 2.1 starts when the server answers 401: mcptui prints the URL to authorize at
  and waits for the browser's redirect on 127.0.0.1.
  --browser                    open that URL in the browser too
  --client-id ID               a client registered beforehand (default: a Client ID
  --client-secret SECRET       Metadata Document, else dynamic registration); the
                               secret also from $MCPTUI_CLIENT_SECRET
  --client-metadata-url URL    https URL of mcptui's Client ID Metadata Document
  --client-credentials         machine to machine: the client credentials grant with
                               --client-id and the secret, no browser
  --scope S                    scopes to ask for besides the server's (repeatable)
  --redirect-port N            the redirect listener's port (default: any free one)
  --login-timeout D            how long to wait for the browser (default 5m)
  --keep-token                 keep tokens across runs: 0600 files under
                               $XDG_STATE_HOME/mcptui/tokens (default: memory only)
  --bearer TOKEN               send this access token, no flow; --no-oauth: no flow
      --transport T            auto (default: Streamable HTTP, falling back to the
                               2024-11-05 HTTP+SSE transport when initialize is
                               refused with 400, 404 or 405), http or sse (the URL
                               is the old transport's SSE stream)
      --insecure               do not verify the server's TLS certificate (loudly)

Protocol:
      --protocol V             allow only these versions (repeatable): 2026-07-28,
                               2025-11-25, 2025-06-18, 2025-03-26, 2024-11-05
                               (2024-10-07 is taken for 2024-11-05); one pins it,
                               several restrict; default: all, negotiated
      --probe-timeout D        how long the first answer may take before the
                               server is started again (default 10s; 60s for a
                               launcher: npx, uvx, bunx, docker, ...)
      --root URI               a root the client offers (repeatable)
      --timeout D              per-request timeout (default 30s; 0 = none)
      --reset-timeout-on-progress
                               progress restarts a request's timer (default true)
      --max-total-timeout D    cap on a timer pushed by progress (default 10m)
      --max-line-bytes N       largest line accepted from the server (default 16MiB,
                               at least 1KiB)
      --max-server-requests N  server requests answered at once (default 16)

Recording:
      --record FILE            write the session to FILE as JSON Lines: every line
                               both ways, discarded lines, stderr, negotiation,
                               timings, the command and its environment
      --record-secrets         keep environment values and secret-looking
                               arguments in the recording (default: redacted)

Tracing (every command that starts a server, tap, and export --format otlp):
      --otlp-endpoint URL      send OpenTelemetry spans over OTLP/HTTP to URL
                               (/v1/traces appended); OTEL_EXPORTER_OTLP_ENDPOINT
                               and the other OTEL_EXPORTER_OTLP_* variables work too
      --traceparent TP         continue the caller's trace (W3C traceparent); each
                               request carries its span in params._meta.traceparent

Screen:
      --theme T                auto, dark, light or high-contrast (default auto)
      --history-bytes N        traffic kept in memory (default 64MiB)
      --no-bell                no terminal bell when the server asks something

Catalog marks (the inspector):
      --baseline FILE          mark what changed since that snapshot (or recording):
                               B breaking, R risky, A additive, as diff classifies
      --host NAME[,NAME...]    mark (H) the tools that break these hosts' known
                               limits, as check --host judges them; with --model
                               too, the server view gives the list's context cost
      --model NAME[,NAME...]   and these model APIs' limits
      --server-name NAME, --profiles FILE    as for check

Headless commands:
      --format F               json (default; run and doctor: text) or text
      --args JSON              tool or prompt arguments: a JSON object, or @FILE
      --arg KEY=VALUE          one argument, a string (repeatable); KEY:=JSON for
                               any JSON value (tool arguments only)
      --params JSON            request's params: a JSON object, or @FILE
      --answer KIND=ACTION     the answer policy of a kind of question (inspector too):
                                 roots=answer|reject|ask|@roots.json (default answer: --root)
                                 sampling=text:REPLY|@reply.json|reject|ask
                                 elicitation=accept-defaults|decline|cancel|@answer.json|reject|ask
                                 METHOD=answer|reject|ask|@FILE
                               headless, a question with no rule gets an error naming
                               the flag that answers it (ask is for the inspector)
      --junit FILE             run, check: also write a JUnit XML report
      --sarif FILE             check: also write a SARIF 2.1.0 report
      --era all|V              check: the negotiated era (default), every era the
                               server accepts, or one
      --level must|should      check: fail on MUST failures only (default) or SHOULDs too
      --call-tools             check: call every tool (valid, boundary and invalid
                               inputs), not only those annotated readOnlyHint: true
      --rule ID|GROUP          check: only this rule or group (repeatable, or a,b);
                               the probes only other rules need are skipped
      --host NAME[,NAME...]    check: judge the tools against hosts' known limits:
                               claude-code, claude-desktop, vscode, cursor,
                               gemini-cli, chatgpt, or all (the host.* rules: no MCP
                               requirement; a finding exits 10)
      --model NAME[,NAME...]   check: and against model APIs' limits: anthropic,
                               openai, openai-strict, gemini, bedrock, or all
      --server-name NAME       check: the server's name in the host's config, which
                               Claude Code puts in every tool name (default: its
                               serverInfo.name)
      --context N              check, tools --cost: the context size (tokens) the
                               tools' cost is a share of (default 200000)
      --budget N               check: fail (host.context-budget) when the tool list
                               costs more than N tokens
      --cost                   tools: what each tool's definition costs in context,
                               in o200k_base tokens, costliest first
      --recording FILE         check: judge a recording's tool lists and results
                               against --host/--model (result caps, names, schemas)
                               instead of starting a server; nothing is called
      --as HOST[:PLATFORM]     doctor: start the server as HOST does on this platform,
                               or on PLATFORM (macos, windows, linux); claude-desktop:
                               its PATH, the variables it passes, no shell, Windows'
                               cmd.exe /C for npx.cmd)
      --profiles FILE          check, doctor: host and model profiles (JSON) that add
                               to or replace the built-in ones, each limit with its source
      --rate R                 load: open loop, R requests a second, each on time
                               whatever the server does; latency from its due time
      --concurrency C          load: closed loop, C requests in flight
      --ramp FROM..TO/HOLD     load: open loop whose rate rises from FROM to TO a second
                               in --ramp-steps N steps (default 5), each held HOLD; the
                               report names the step where the server stopped keeping up
      --duration D             load: the measured time; --warmup D runs before it,
                               left out of every figure
      --sessions N             load: N server processes (stdio) or sessions (HTTP)
      --max-in-flight N        load: the open loop's bound (default 1000); a request
                               waiting for a slot keeps its due time
      --max-requests N         load: send at most N requests in all
      --max-p50 D, --max-p99 D, --max-error-rate F (0.01 or 1%)
                               load: SLOs; exit 11 when one is broken
  -v, --verbose                copy the server's stderr and log messages (escaped)
                               to stderr

  Results go to stdout; progress and notes to stderr (a bar on a terminal).
  A failure is one JSON object on stderr, {"error":{"kind":...,"exitCode":...,
  "message":...,"rpc":{...},"serverStderr":[...]}}, and the exit code says which:
    0 ok  1 internal  2 usage  3 the server did not start (or finish the handshake)
    4 protocol error (an error answer)  5 the tool returned isError
    6 timeout  7 the server exited or hung up  8 a run step failed
    9 the server declares no capability for it (nothing sent)  128+N ended by signal N (130 ctrl+c)
  doctor exits 0 when the server works (warnings allowed), else 3, 4 or 6.
  check exits 0 when every rule at --level passed, 10 when one failed, 3 when the
  server did not start. load exits 0, or 11 when an SLO flag was broken. diff and
  replay --verify exit 0 when no change reaches --fail-on (default risky: breaking
  or risky changes fail), 1 when one does.

Run scripts (one step per line, # comments):
  tools | resources | templates | prompts
  call NAME [{JSON} | KEY=VALUE ... | KEY:=JSON ...]    read URI
  get NAME [{JSON} | KEY=VALUE ...]                      request METHOD [{JSON}]
  complete REF ARG[=VALUE] [KEY=VALUE ...]               listen [{JSON filter}]
  next [METHOD] [within 5s]          the next event of the newest subscription
  expect ok | error [CODE] | isError | PATH OP [VALUE]
    PATH: . .name ."key" [N] .length    OP: == != < <= > >= contains matches exists absent

Replay keys: ctrl+p/ctrl+n one event back/forward, ctrl+b/ctrl+f to the previous/next
line sent, ctrl+home/ctrl+end to the start/end; the inspector's keys otherwise.

      --version                print the version, commit, build date, Go version
                               and the protocol revisions mcptui speaks
  mcptui completion bash|zsh|fish|powershell
                               print a completion script (--server completes the
                               servers of your host configs)
  mcptui man                   print the man page, mcptui(1)
  -h, --help                   print this help
`
