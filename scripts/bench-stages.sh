#!/bin/sh
# bench-stages.sh [OLD_COMMIT] [ROUNDS]: BenchmarkTierStages (jobs/
# bench_stages_test.go: a Clobber 4x5 tier job, stage by stage) built from
# this tree and from OLD_COMMIT (default dc85e26), run alternately ROUNDS
# times (default 5), so both see the same load of a shared machine; then a
# table of the median CPU ns a stored position of each stage, each way.
# The old tree gets this tree's benchmark file, which needs the games'
# kernels (games.Kernel): commits before them do not build it.
set -eu
old=${1:-dc85e26}
rounds=${2:-5}
root=$(git rev-parse --show-toplevel)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/old"
git -C "$root" archive "$old" | tar -x -C "$work/old"
cp "$root/jobs/bench_stages_test.go" "$work/old/jobs/"
# Each test binary is built with its tree's profile, if any, as census
# is (cmd/census/default.pgo): go test reads it only when told.
pgo() { if [ -f "$1/cmd/census/default.pgo" ]; then echo "$1/cmd/census/default.pgo"; else echo off; fi; }
(cd "$work/old" && go test -c -pgo="$(pgo "$work/old")" -o "$work/old.test" ./jobs)
(cd "$root" && go test -c -pgo="$(pgo "$root")" -o "$work/new.test" ./jobs)
cd "$root/jobs"
for i in $(seq "$rounds"); do
	for b in old new; do
		nice "$work/$b.test" -test.run '^$' -test.bench BenchmarkTierStages -test.benchtime 3x |
			sed -n "s/^BenchmarkTierStages\/\([a-z-]*\)-[0-9]* .* \([0-9.]*\) cpu-ns\/position.*/$b \1 \2/p"
	done
done >"$work/runs"
echo "| stage | $old | $(git -C "$root" rev-parse --short HEAD) | new / old |"
echo "|---|---:|---:|---:|"
for s in read visit pieces succ job succ-out pieces-out; do
	o=$(awk -v s="$s" '$1=="old" && $2==s {print $3}' "$work/runs" | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}')
	n=$(awk -v s="$s" '$1=="new" && $2==s {print $3}' "$work/runs" | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}')
	echo "| $s | $o | $n | $(echo "$n $o" | awk '{printf "%.2f", $1/$2}') |"
done
echo "($rounds rounds each way, medians of CPU ns a stored position)"
