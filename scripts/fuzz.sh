#!/usr/bin/env bash
# Runs every fuzz target of census for a while each: the board and start
# diagram parsers, game construction, the fragment decoder and job-message
# decoding. A crasher is written by go test under the package's
# testdata/fuzz/FuzzX/ and fails the script; commit it as a regression seed
# once fixed.
#
#   scripts/fuzz.sh            each target for FUZZTIME (default 10s)
#   FUZZTIME=5m scripts/fuzz.sh
set -euo pipefail
cd "$(dirname "$0")/.."
fuzztime=${FUZZTIME:-10s}
targets=(
	"./games FuzzParseBoard"
	"./games FuzzParseDiagram"
	"./games FuzzNew"
	"./jobs FuzzFragmentDecode"
	"./jobs FuzzJobDecode"
	"./cgt FuzzParse"
)
for t in "${targets[@]}"; do
	set -- $t
	echo "fuzz $1 $2 for $fuzztime"
	go test "$1" -run '^$' -fuzz "^$2\$" -fuzztime "$fuzztime"
done
