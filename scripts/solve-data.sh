#!/bin/sh
# solve-data.sh BINARY WORK BOARD: the peak working data of the census of
# Clobber BOARD alone, and of the census keeping its positions followed by
# census solve: the bytes of the data directory (NATS store and fragments),
# of the kept positions and of the solve's NATS store and outcome tables,
# sampled every 0.2 s.
set -eu
bin=$1 work=$2 b=$3
peak() { # dirs..., while the command in $pid runs; prints the largest sum
	p=0
	# The command is this shell's child, which the subshell running peak
	# cannot reap: once it has exited it stays a zombie until wait.
	while kill -0 "$pid" 2>/dev/null && ! grep -q '^State:.*Z' "/proc/$pid/status" 2>/dev/null; do
		n=$(du -sb "$@" 2>/dev/null | awk '{s += $1} END {print s + 0}')
		[ "$n" -gt "$p" ] && p=$n
		sleep 0.2
	done
	echo "$p"
}
rm -rf "$work"
mkdir -p "$work"
"$bin" run clobber "$b" --out "$work/plain" --data "$work/plain-data" --quiet --metrics-addr= &
pid=$!
alone=$(peak "$work/plain-data")
wait "$pid"
d="$work/kept/clobber-$b"
"$bin" run clobber "$b" --keep-positions --out "$work/kept" --data "$work/kept-data" --quiet --metrics-addr= &
pid=$!
census=$(peak "$work/kept-data" "$d/kept")
wait "$pid"
"$bin" solve "$d" --quiet &
pid=$!
solve=$(peak "$d/kept" "$d/.census-solve" "$d"/solve-*)
wait "$pid"
echo "$alone $census $solve" | awk -v b="$b" '{m = $2 > $3 ? $2 : $3; printf "clobber %s: peak working data, census alone %d bytes; census keeping its positions %d; solve %d; census+solve / census alone %.3f\n", b, $1, $2, $3, m / $1}'
