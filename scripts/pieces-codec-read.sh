#!/bin/sh
# pieces-codec-read.sh BINARY OUT [GAME BOARD]: what the pieces table's page
# codec costs its readers. Runs the census BINARY on GAME BOARD (default
# clobber 4x5) once with each codec, into OUT/zstd, OUT/snappy and
# OUT/lz4_raw (a run whose run.json exists is not run again), then times
# DuckDB queries over the three pieces tables with
# interop/duckdb/cmd/readbench, ROUNDS rounds (default 5), and prints its
# tables: each codec's pieces bytes and the median wall and CPU times of
# each query, with their ratios to zstd, and the spread of the times.
# readbench is built from this checkout (cgo; the first build of the DuckDB
# driver takes minutes). On a shared machine, run it under nice:
#   nice -n 19 scripts/pieces-codec-read.sh /tmp/census OUT
set -eu
bin=$1 out=$2 game=${3:-clobber} board=${4:-4x5}
root=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
(cd "$root/interop/duckdb" && CGO_ENABLED=1 go build -o "$tmp/readbench" ./cmd/readbench)
set -- # the run dirs
for codec in zstd snappy lz4_raw; do
	dir=$out/$codec/$game-$board
	if [ ! -e "$dir/run.json" ]; then
		echo "census run $game $board --pieces-codec $codec" >&2
		"$bin" run "$game" "$board" --out "$out/$codec" --metrics-addr '' --quiet --pieces-codec "$codec"
	fi
	set -- "$@" "$dir"
done
"$tmp/readbench" -rounds "${ROUNDS:-5}" "$@"
