#!/usr/bin/env bash
# bench-workers.sh times one census on a census server, a coordinator and
# one worker process, then on two, alternately, and prints the wall times
# and their ratio.
#
# usage: scripts/bench-workers.sh [-n N] [GAME BOARD]
#
#   GAME BOARD  the census (default clobber 4x5)
#   -n N        run each way N times (default 3), alternating 1, 2, 1, 2, ...
#
# Each worker runs one job at a time (--jobs 1); the coordinator runs with
# --jobs 2 either way, so both ways have the same shards. census is built
# from this checkout into a temporary directory, which also holds the
# server's store, the fragments and the outputs, and is removed at the end.
set -euo pipefail

runs=3
game=clobber
board=4x5
while [ $# -gt 0 ]; do
	case "$1" in
	-n)
		[ $# -ge 2 ] && [[ $2 =~ ^[1-9][0-9]*$ ]] || { echo "bench-workers.sh: -n wants a positive whole number" >&2; exit 2; }
		runs=$2
		shift 2
		;;
	-h | --help) sed -n '2,14p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	-*) echo "bench-workers.sh: unknown flag $1" >&2; exit 2 ;;
	*)
		[ $# -ge 2 ] || { echo "bench-workers.sh: want GAME BOARD, e.g. clobber 4x5" >&2; exit 2; }
		game=$1
		board=$2
		shift 2
		;;
	esac
done

root=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/census-workers.XXXXXX")
pids=()
cleanup() {
	if [ ${#pids[@]} -gt 0 ]; then
		kill "${pids[@]}" 2>/dev/null || true
		wait 2>/dev/null || true
	fi
	rm -rf "$tmp"
}
trap cleanup EXIT
echo "building census ..." >&2
(cd "$root" && go build -o "$tmp/census" ./cmd/census)

# once N: the census on N worker processes; prints its wall seconds.
once() {
	local n=$1 d="$tmp/run" port=$((24300 + RANDOM % 1000)) i start end
	rm -rf "$d"
	mkdir -p "$d"
	pids=()
	"$tmp/census" server --listen "127.0.0.1:$port" --store-dir "$d/nats" >"$d/server.log" 2>&1 &
	pids+=($!)
	# Wait for the server to listen.
	for ((i = 0; i < 100; i++)); do
		if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then break; fi
		sleep 0.1
	done
	for ((i = 1; i <= n; i++)); do
		"$tmp/census" worker --nats "nats://127.0.0.1:$port" --jobs 1 --quiet --metrics-addr '' >"$d/worker$i.log" 2>&1 &
		pids+=($!)
	done
	start=$(date +%s.%N)
	if ! "$tmp/census" coordinator --nats "nats://127.0.0.1:$port" --store "$d/store" --jobs 2 --quiet --metrics-addr '' \
		"$game" "$board" --out "$d/out" >"$d/coordinator.log" 2>&1; then
		echo "bench-workers.sh: the coordinator failed:" >&2
		sed 's/^/  /' "$d/coordinator.log" "$d/server.log" >&2
		exit 1
	fi
	end=$(date +%s.%N)
	kill "${pids[@]}" 2>/dev/null || true
	wait 2>/dev/null || true
	pids=()
	awk -v a="$start" -v b="$end" 'BEGIN { printf "%.2f\n", b - a }'
}

one=()
two=()
for ((r = 1; r <= runs; r++)); do
	echo "$game $board, run $r of $runs: 1 worker ..." >&2
	one+=("$(once 1)")
	echo "$game $board, run $r of $runs: 2 workers ..." >&2
	two+=("$(once 2)")
done

echo "| run | 1 worker s | 2 workers s | ratio |"
echo "|---:|---:|---:|---:|"
for ((r = 0; r < runs; r++)); do
	awk -v r=$((r + 1)) -v a="${one[r]}" -v b="${two[r]}" 'BEGIN { printf "| %d | %.2f | %.2f | %.2f |\n", r, a, b, a / b }'
done
