#!/bin/sh
# run.sh runs the test suite on a busy machine: two CPU burners (shell
# loops) spin beside `go test -race` for as long as it runs, and are killed
# when it ends, however it ends. CI shares its machines; a test that only
# passes on an idle one is a test that fails there.
#
#   tools/busy/run.sh                       # go test -race ./...
#   tools/busy/run.sh ./conn/ -run Timeout  # other go test arguments
#   BUSY_BURNERS=4 GOFLAGS=-count=1 tools/busy/run.sh
set -eu
cd "$(dirname "$0")/../.."
burners=""
stop() {
	for pid in $burners; do
		kill "$pid" 2>/dev/null || true
	done
}
trap stop EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
i=0
while [ "$i" -lt "${BUSY_BURNERS:-2}" ]; do
	sh -c 'while :; do :; done' &
	burners="$burners $!"
	i=$((i + 1))
done
if [ $# -eq 0 ]; then
	set -- ./...
fi
echo "busy: $(echo $burners | wc -w) burners (pids$burners) beside go test -race $*" >&2
go test -race "$@"
