#!/bin/sh
# Regenerates results/play/: each depth of the minimax player over random
# leaves (0 to 4) against the perfect player and against the random player,
# from the start of each solved board, as census play --json. Exact where
# census play can sum every branch within --max-states, else --games
# sampled games with --seed. The boards run JOBS at a time (default 3); a
# result already present is kept, so delete results/play to regenerate
# everything.
# Then it measures the mobility of each depth's moves against the perfect
# player in 1,000 sampled games (--mobility).
# Usage: scripts/play-results.sh [census binary]
set -eu
census=${1:-census}
out=results/play
mkdir -p "$out"
export census out
printf '%s\n' "clobber 4x4" "domineering 5x5" "clobber 3x5" "clobber 3x4" "domineering 4x4" "amazons 3x4" "mutorere 8" |
	xargs -P "${JOBS:-3}" -L 1 sh -ec '
		for against in perfect random; do
			for d in 0 1 2 3 4; do
				f="$out/$1-$2-minimax-random-$d-vs-$against.json"
				[ -e "$f" ] && continue
				"$census" play "$1" "$2" --player "minimax-random:$d" --against "$against" \
					--games 4000 --seed 1 --max-moves 200 --max-states 1000000 --json >"$f.tmp"
				mv "$f.tmp" "$f"
			done
		done
		for d in 0 1 2 3 4; do
			f="$out/$1-$2-minimax-random-$d-mobility.json"
			[ -e "$f" ] && continue
			"$census" play "$1" "$2" --player "minimax-random:$d" --against perfect \
				--games 1000 --seed 1 --max-moves 200 --mobility --json >"$f.tmp"
			mv "$f.tmp" "$f"
		done' sh
