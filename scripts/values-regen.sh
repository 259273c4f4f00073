#!/bin/sh
# values-regen.sh [-w] CENSUS OUT [NAME...]: runs the command of every file of
# results/values (or of results/values/NAME.json for each NAME given) with the
# census binary CENSUS into OUT, and checks that the run's counts
# (pieces_translated, pieces_symmetric, self_negative_symmetric,
# outcomes_translated, outcomes_symmetric, distinct_values, values_capped)
# are the file's. Prints one line a board with its wall time and peak RSS
# from /usr/bin/time -v; exits 1 on a difference. With -w, a file whose
# counts are unchanged gets the run's levels, wall time and peak RSS; then
# `go test ./results -update` regenerates results/README.md's tables and charts.
# Run it under nice on a shared machine: the census inherits it.
set -eu
write=false
if [ "${1:-}" = -w ]; then
	write=true
	shift
fi
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
	# A partial run values the pieces up to the size it names.
	maxsize=$(jq -r '.values_max_size // 0' "$f")
	# A board whose value jobs hold more than the default budget names its own.
	budget=$(jq -r .command "$f" | sed -n 's/.*--mem-budget \([^ ]*\).*/\1/p')
	rm -rf "$out/$game-$board"
	/usr/bin/time -v -o "$out/$game-$board.time" "$census" run "$game" "$board" --start "$start" --values --max-size "$maxsize" ${budget:+--mem-budget "$budget"} \
		--quiet --metrics-addr '' --out "$out" >/dev/null
	summary=$out/$game-$board/summary.json
	keys='{pieces_translated, pieces_symmetric, self_negative_symmetric, outcomes_translated, outcomes_symmetric, distinct_values, values_capped, values_max_size, pieces_not_valued}'
	got=$(jq -cS "$keys" "$summary")
	want=$(jq -cS "$keys" "$f")
	wall=$(sed -n 's/.*Elapsed (wall clock) time (h:mm:ss or m:ss): //p' "$out/$game-$board.time")
	rss=$(sed -n 's/.*Maximum resident set size (kbytes): //p' "$out/$game-$board.time")
	if [ "$got" != "$want" ]; then
		echo "$game $board: counts differ: got $got, published $want"
		fail=1
		continue
	fi
	echo "$game $board: counts unchanged, wall $wall, peak RSS $rss KiB"
	if $write; then
		seconds=$(echo "$wall" | awk -F: '{ s = 0; for (i = 1; i <= NF; i++) s = 60 * s + $i; printf "%.1f", s }')
		jq --slurpfile s "$summary" --argjson wall "$seconds" --argjson rss "$rss" \
			'{game, board, start, command, pieces_translated, pieces_symmetric, self_negative_symmetric,
			outcomes_translated, outcomes_symmetric, distinct_values, values_capped,
			levels: $s[0].levels, wall_seconds: $wall, peak_rss_kib: $rss}
			+ if .values_max_size then {values_max_size, pieces_not_valued} else {} end' "$f" >"$f.tmp"
		mv "$f.tmp" "$f"
	fi
done
exit $fail
