#!/bin/sh
# probe-bench.sh RUN [BINARY]: the speed of a solved run's tablebase
# (RUN is OUT/GAME-BOARD, solved by census solve), as docs/performance.md
# reports it:
#   - census probe --file over 200,000 random positions of the run, with
#     --brief and with the whole answers, as positions a second of wall time;
#   - the Go benchmarks of package probe (answers in process, on every core;
#     opening the tablebase and its resident memory) and of package serve
#     (one position with all its moves over loopback HTTP: median and 99th
#     percentile);
#   - the tablebase's bytes a stored position.
# BINARY is a census binary (default: built from this tree).
set -eu
run=$(cd "$1" && pwd)
here=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
bin=${2:-}
if [ -z "$bin" ]; then
	bin=$tmp/census
	(cd "$here" && go build -o "$bin" ./cmd/census)
fi
cd "$here"
CENSUS_PROBE_RUN=$run CENSUS_PROBE_SAMPLE=$tmp/sample go test -count=1 -run TestWriteSample ./probe/ >/dev/null
n=$(wc -l <"$tmp/sample")
for mode in --brief ""; do
	began=$(date +%s.%N)
	# shellcheck disable=SC2086
	"$bin" probe "$run" --file "$tmp/sample" --json $mode >/dev/null
	ended=$(date +%s.%N)
	echo "census probe --file ${mode:-(whole answers)}: $n positions in $(echo "$ended - $began" | bc) s: $(echo "$n / ($ended - $began)" | bc) positions/s"
done
CENSUS_PROBE_RUN=$run go test -count=1 -run '^$' -bench 'ProbeBrief|Probe$|Open' -benchtime 3s ./probe/ | grep '^Benchmark'
CENSUS_PROBE_RUN=$run go test -count=1 -run '^$' -bench HTTP -benchtime 20000x ./serve/ | grep '^Benchmark'
python3 - "$run" <<'PY'
import json, sys, os
s = json.load(open(os.path.join(sys.argv[1], "summary.json")))
tb = s["tablebase"]
print("tablebase: %d files, %d bytes for %d stored positions: %.3f bytes each" % (tb["files"], tb["bytes"], tb["stored"], tb["bytes_per_stored"]))
PY
