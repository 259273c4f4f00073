#!/bin/sh
# bench-values.sh [OLD_COMMIT] [ROUNDS]: BenchmarkValueSample (values/
# scale_bench_test.go) built from this tree and from OLD_COMMIT (default
# a3ca413), run alternately ROUNDS times (default 5), so both see the same
# load of a shared machine. The old tree gets this tree's benchmark and
# samples. The values of the smaller pieces are computed once and shared
# through $VALUES_BENCH_CACHE (default a temporary directory).
set -eu
old=${1:-a3ca413}
rounds=${2:-5}
root=$(git rev-parse --show-toplevel)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export VALUES_BENCH_CACHE=${VALUES_BENCH_CACHE:-$work/cache}
mkdir -p "$VALUES_BENCH_CACHE" "$work/old"
git -C "$root" archive "$old" | tar -x -C "$work/old"
cp "$root/values/scale_bench_test.go" "$work/old/values/"
mkdir -p "$work/old/values/testdata"
cp "$root"/values/testdata/clobber-4x5-size*.keys "$work/old/values/testdata/"
(cd "$work/old" && go test -c -o "$work/old.test" ./values)
(cd "$root" && go test -c -o "$work/new.test" ./values)
cd "$root/values"
for i in $(seq "$rounds"); do
	for b in old new; do
		"$work/$b.test" -test.run '^$' -test.bench BenchmarkValueSample -test.benchtime 3x |
			sed -n "s/^Benchmark/$b $i &/p"
	done
done
