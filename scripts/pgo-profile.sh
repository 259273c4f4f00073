#!/bin/sh
# pgo-profile.sh [OUT_PROFILE]: the profile that `go build ./cmd/census`
# optimises census by (profile-guided optimisation: Go reads
# cmd/census/default.pgo by itself). It builds census without a profile,
# runs whole censuses of the standard boards with --cpuprofile (Clobber
# 4x5 with its solve, Amazons 4x5, Domineering 6x6: some four minutes on
# two cores), and merges their profiles into OUT_PROFILE (default
# cmd/census/default.pgo). Run it on an otherwise idle machine after a
# change to the hot code, then measure the new build against the old with
# scripts/bench.sh.
set -eu
root=$(git rev-parse --show-toplevel)
out=${1:-$root/cmd/census/default.pgo}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
(cd "$root" && go build -pgo=off -o "$work/census" ./cmd/census)
run() {
	name=$1
	shift
	echo "pgo-profile: census run $*" >&2
	"$work/census" run "$@" --out "$work/out" --metrics-addr '' --quiet --cpuprofile "$work/$name.prof"
	rm -rf "$work/out"
}
run clobber clobber 4x5 --solve
run amazons amazons 4x5
run domineering domineering 6x6
(cd "$root" && go tool pprof -proto "$work/clobber.prof" "$work/amazons.prof" "$work/domineering.prof") >"$work/merged.pgo"
mv "$work/merged.pgo" "$out"
echo "pgo-profile: wrote $out" >&2
