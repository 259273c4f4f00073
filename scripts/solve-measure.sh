#!/bin/sh
# solve-measure.sh BINARY OUT BOARD...: for each Clobber board, the census
# alone, the census keeping its positions, and census solve on the kept
# run, one after another, each under /usr/bin/time -v; prints one line per
# step with its wall time, peak RSS and the kept bytes per stored position.
set -eu
bin=$1 out=$2
shift 2
mkdir -p "$out"
step() { # name, command...
	name=$1
	shift
	/usr/bin/time -v "$@" >/dev/null 2>"$out/$name.time"
	wall=$(sed -n 's/.*Elapsed (wall clock) time (h:mm:ss or m:ss): //p' "$out/$name.time")
	rss=$(sed -n 's/.*Maximum resident set size (kbytes): //p' "$out/$name.time")
	echo "$name wall $wall peak_rss_kb $rss"
}
for b in "$@"; do
	rm -rf "$out/plain" "$out/kept"
	step "census-$b" "$bin" run clobber "$b" --out "$out/plain" --quiet --metrics-addr=
	step "census-keep-$b" "$bin" run clobber "$b" --keep-positions --out "$out/kept" --quiet --metrics-addr=
	step "solve-$b" "$bin" solve "$out/kept/clobber-$b" --quiet
	python3 - "$out/kept/clobber-$b" <<'PY'
import json, sys, os
d = sys.argv[1]
idx = json.load(open(os.path.join(d, "kept/index.json")))
stored = sum(b["count"] for t in idx["tiers"] for b in t["blobs"])
size = sum(b["size"] for t in idx["tiers"] for b in t["blobs"])
s = json.load(open(os.path.join(d, "summary.json")))
print("kept", size, "bytes for", stored, "stored positions:", round(size / stored, 3), "bytes each; start", s["start_outcome"], s["outcomes"])
PY
	mkdir -p "$out/summaries/clobber-$b"
	cp "$out/kept/clobber-$b/summary.json" "$out/kept/clobber-$b/tiers.parquet" "$out/summaries/clobber-$b/"
done
