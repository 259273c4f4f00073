#!/usr/bin/env bash
# same-outputs.sh BASE NEW [GAME BOARD]...: runs `census run` by two census
# binaries on each board, with the positions table and the kept positions
# (--positions --keep-positions), and checks that every output file is
# byte-identical but for the timings: summary.json with its "stages" left
# out, and every other file of OUT/GAME-BOARD/ (run.json aside, which names
# the version) compared with cmp. Default boards: the benchmark boards of
# scripts/bench.sh with --large. Exits 1 when any file differs.
#
#   scripts/same-outputs.sh /tmp/census-6dd6581 /tmp/census-new
#   scripts/same-outputs.sh OLD NEW clobber 4x4 amazons 3x4
set -euo pipefail
[ $# -ge 2 ] || { sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//'; exit 2; }
base=$1 new=$2
shift 2
if [ $# -eq 0 ]; then
	set -- clobber 4x4 clobber 3x5 clobber 2x6 domineering 4x4 domineering 5x6 amazons 3x4 amazons 4x4 clobber 4x5
fi
[ $(($# % 2)) -eq 0 ] || { echo "same-outputs.sh: boards come as GAME BOARD pairs" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
bad=0
while [ $# -gt 0 ]; do
	game=$1 board=$2
	shift 2
	for v in base new; do
		bin=$base
		[ $v = new ] && bin=$new
		"$bin" run "$game" "$board" --out "$tmp/$v" --positions --keep-positions --quiet --metrics-addr '' >/dev/null
	done
	a=$tmp/base/$game-$board b=$tmp/new/$game-$board
	files=$( (cd "$a" && find . -type f; cd "$b" && find . -type f) | sort -u)
	n=0
	for f in $files; do
		case $f in
		./run.json) continue ;;
		./summary.json)
			python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); d.pop("stages",None); print(json.dumps(d,sort_keys=True))' "$a/$f" >"$tmp/a.json"
			python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); d.pop("stages",None); print(json.dumps(d,sort_keys=True))' "$b/$f" >"$tmp/b.json"
			cmp -s "$tmp/a.json" "$tmp/b.json" || { echo "DIFF $game $board $f"; bad=1; }
			;;
		*) cmp -s "$a/$f" "$b/$f" || { echo "DIFF $game $board $f"; bad=1; } ;;
		esac
		n=$((n + 1))
	done
	echo "$game $board: $n files compared"
	rm -rf "$tmp/base" "$tmp/new"
done
exit $bad
