#!/bin/sh
# solve-ab.sh BASE NEW RUN [N]: census solve by two binaries side by side,
# alternating (BASE, NEW, BASE, NEW, ...), N times each (default 3) after a
# warm-up of each, on two copies of one finished run that kept its
# positions (RUN, OUT/GAME-BOARD of census run --keep-positions); prints
# each run's wall seconds, CPU seconds and peak RSS from /usr/bin/time -v,
# and the medians of NEW/BASE pair by pair. WARMUP=0 leaves the warm-up
# out (for boards whose solve takes an hour, such as Clobber 5x5). The
# tables the solve only reads (pieces/, positions/) are hard-linked into
# the copies, not copied: Clobber 5x5's pieces are 21 GB.
set -eu
base=$1 new=$2 run=$3 n=${4:-3}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
copy() { # run dir -> a copy that the solve may write to
	mkdir "$2"
	for f in "$1"/*; do
		case ${f##*/} in
		pieces | positions) cp -al "$f" "$2/" ;;
		*) cp -r "$f" "$2/" ;;
		esac
	done
}
copy "$run" "$tmp/base"
copy "$run" "$tmp/new"
one() { # binary dir -> "wall cpu rss_kb"
	/usr/bin/time -v "$1" solve "$2" --quiet --metrics-addr= >/dev/null 2>"$tmp/time"
	awk -F': ' '
		/Elapsed \(wall clock\)/ { n = split($2, t, ":"); w = 0; for (i = 1; i <= n; i++) w = w * 60 + t[i] }
		/User time/ { u = $2 } /System time/ { s = $2 } /Maximum resident/ { r = $2 }
		END { printf "%.2f %.2f %d\n", w, u + s, r }' "$tmp/time"
}
if [ "${WARMUP:-1}" != 0 ]; then
	one "$base" "$tmp/base" >/dev/null
	one "$new" "$tmp/new" >/dev/null
fi
: >"$tmp/pairs"
i=0
while [ $i -lt "$n" ]; do
	b=$(one "$base" "$tmp/base")
	w=$(one "$new" "$tmp/new")
	echo "pair $i: base $b; new $w (wall s, cpu s, peak rss KiB)"
	echo "$b $w" >>"$tmp/pairs"
	i=$((i + 1))
done
sort_median() { sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }
echo "median new/base: wall $(awk '{ print $4 / $1 }' "$tmp/pairs" | sort_median)," \
	"cpu $(awk '{ print $5 / $2 }' "$tmp/pairs" | sort_median)," \
	"peak rss $(awk '{ print $6 / $3 }' "$tmp/pairs" | sort_median)"
