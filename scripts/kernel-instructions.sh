#!/bin/sh
# kernel-instructions.sh [BOARD...]: instructions per position of the
# position kernels (games/all's BenchmarkPositionKernel, BenchmarkVisit
# and BenchmarkVisitPlain, which do the same work), counted by valgrind's
# callgrind, so that the machine's load does not change them. Each count
# is the difference of two runs of the benchmark (10000 and 30000
# positions), which takes the sample's setup out, divided by 20000.
# BOARD is a sub-benchmark name (default: clobber-4x5 clobber-4x4
# domineering-5x6 amazons-4x4). Needs valgrind (apt-get install valgrind).
set -eu
boards=${*:-clobber-4x5 clobber-4x4 domineering-5x6 amazons-4x4}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$(dirname "$0")/.."
go test -c -o "$tmp/all.test" ./games/all/
# Callgrind does not follow Go's preemption signals; no collection runs
# between the two counts.
export GODEBUG=asyncpreemptoff=1 GOMAXPROCS=1 GOGC=off
count() { # bench board positions -> instructions
	valgrind --tool=callgrind --callgrind-out-file="$tmp/cg.out" "$tmp/all.test" -test.run '^$' \
		-test.bench "^Benchmark$1\$/$2\$" -test.benchtime="$3x" >/dev/null 2>&1
	awk '/^summary:/ { print $2 }' "$tmp/cg.out"
}
printf '| board | PositionKernel | VisitPlain | Visit | PositionKernel/Visit |\n|---|---:|---:|---:|---:|\n'
for b in $boards; do
	line="| $b"
	for bench in PositionKernel VisitPlain Visit; do
		lo=$(count "$bench" "$b" 10000)
		hi=$(count "$bench" "$b" 30000)
		n=$(((hi - lo) / 20000))
		line="$line | $n"
		eval "n_$bench=$n"
	done
	echo "$line | $(awk -v a="$n_PositionKernel" -v b="$n_Visit" 'BEGIN { printf "%.2f", a / b }') |"
done
