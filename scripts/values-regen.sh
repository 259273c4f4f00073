#!/bin/sh
# values-regen.sh CENSUS OUT [NAME...]: runs the command of every file of
# results/values (or of results/values/NAME.json for each NAME given) with the census binary CENSUS into OUT, and checks that
# the run's value counts (outcomes_translated, outcomes_symmetric,
# distinct_values, values_capped) are the file's. Prints one line a board
# with its wall time and peak RSS from /usr/bin/time -v; exits 1 on a
# difference.
set -eu
census=$1
out=$2
shift 2
root=$(git rev-parse --show-toplevel)
fail=0
files=$(for n in "$@"; do echo "$root/results/values/$n.json"; done)
for f in ${files:-"$root"/results/values/*.json}; do
	game=$(jq -r .game "$f")
	board=$(jq -r .board "$f")
	start=$(jq -r .start "$f")
	rm -rf "$out/$game-$board"
	/usr/bin/time -v -o "$out/$game-$board.time" "$census" run "$game" "$board" --start "$start" --values --quiet --out "$out" >/dev/null
	keys='{outcomes_translated, outcomes_symmetric, distinct_values, values_capped}'
	got=$(jq -cS "$keys" "$out/$game-$board/summary.json")
	want=$(jq -cS "$keys" "$f")
	wall=$(sed -n 's/.*Elapsed (wall clock) time (h:mm:ss or m:ss): //p' "$out/$game-$board.time")
	rss=$(sed -n 's/.*Maximum resident set size (kbytes): //p' "$out/$game-$board.time")
	if [ "$got" = "$want" ]; then
		echo "$game $board: counts unchanged, wall $wall, peak RSS $rss KiB"
	else
		echo "$game $board: counts differ: got $got, published $want"
		fail=1
	fi
done
exit $fail
