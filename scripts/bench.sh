#!/usr/bin/env bash
# bench.sh times whole censuses and the reference enumerator on a list of
# boards and prints a markdown table.
#
# usage: scripts/bench.sh [-n N] [--ref-runs N] [--large] [--no-ref]
#                         [--baseline REV] [BOARD...]
#
#   BOARD     a game and a board, as "GAME BOARD", GAME:BOARD or two
#             arguments GAME BOARD (e.g. clobber 4x4 domineering:5x6);
#             default: clobber 4x4, clobber 3x5, clobber 2x6,
#             domineering 4x4, domineering 5x6, amazons 3x4, amazons 4x4
#   -n N      run every command N times (default 3): the table shows the
#             median wall time and the largest peak RSS
#   --ref-runs N  run the reference N times (default: as -n); it takes
#             minutes on amazons 4x4
#   --large   add clobber 4x5 to the default list
#   --no-ref  skip the reference enumerator
#   --baseline REV  compare census at REV (a commit, tag or branch) with
#             census built from this checkout instead: both run on every
#             board, alternately (REV, this, REV, this, ...), N times each,
#             and the table gives per board the median wall time, the
#             median user+sys CPU time, the largest peak RSS and the
#             largest peak working data (the data directory, the NATS
#             store and the fragments, sampled twice a second) of each,
#             and their ratios. REV is checked out with `git worktree add`
#             into the temporary directory and removed afterwards. The
#             reference enumerator does not run.
#
# Both commands are built from this checkout into a temporary directory.
# census runs as `census run GAME BOARD --out TMP --quiet --metrics-addr ''
# --json`, the reference (internal/refcensus/refrun, boards of at most 16
# squares only) as `refrun GAME BOARD`, each under GNU time (/usr/bin/time;
# Debian and Ubuntu: apt-get install time). The script exits non-zero when a
# build or a run fails, or when runs disagree on the counts.
set -euo pipefail

usage() { sed -n '2,34p' "$0" | sed 's/^# \{0,1\}//'; }

runs=3
refruns=""
large=0
ref=1
baseline=""
boards=()
games_re='^(clobber|domineering|amazons)$'
board_re='^[0-9]+x[0-9]+$'
while [ $# -gt 0 ]; do
	case "$1" in
	-n)
		[ $# -ge 2 ] || { echo "bench.sh: -n needs a number" >&2; exit 2; }
		runs=$2
		shift 2
		;;
	-n*) runs=${1#-n}; shift ;;
	--ref-runs)
		[ $# -ge 2 ] || { echo "bench.sh: --ref-runs needs a number" >&2; exit 2; }
		refruns=$2
		shift 2
		;;
	--large) large=1; shift ;;
	--no-ref) ref=0; shift ;;
	--baseline)
		[ $# -ge 2 ] && [ -n "$2" ] || { echo "bench.sh: --baseline needs a revision" >&2; exit 2; }
		baseline=$2
		shift 2
		;;
	-h | --help) usage; exit 0 ;;
	-*) echo "bench.sh: unknown flag $1" >&2; usage >&2; exit 2 ;;
	*)
		read -r g b rest <<<"${1/:/ }"
		if [[ -n $b && -z $rest && $g =~ $games_re && $b =~ $board_re ]]; then
			boards+=("$g $b")
			shift
		elif [[ $1 =~ $games_re && $# -ge 2 && $2 =~ $board_re ]]; then
			boards+=("$1 $2")
			shift 2
		else
			echo "bench.sh: bad board $1: want GAME BOARD, e.g. clobber 4x4" >&2
			exit 2
		fi
		;;
	esac
done
refruns=${refruns:-$runs}
for v in "$runs" "$refruns"; do
	if ! [[ $v =~ ^[1-9][0-9]*$ ]]; then
		echo "bench.sh: -n and --ref-runs want a positive whole number, not $v" >&2
		exit 2
	fi
done
if [ ${#boards[@]} -eq 0 ]; then
	boards=("clobber 4x4" "clobber 3x5" "clobber 2x6" "domineering 4x4" "domineering 5x6" "amazons 3x4" "amazons 4x4")
	if [ $large = 1 ]; then
		boards+=("clobber 4x5")
	fi
fi

TIME=/usr/bin/time
if ! [ -x $TIME ] || ! $TIME -f '%e' true >/dev/null 2>&1; then
	echo "bench.sh: needs GNU time at $TIME (Debian/Ubuntu: apt-get install time; Alpine: apk add time; Fedora: dnf install time)" >&2
	exit 2
fi
if command -v python3 >/dev/null 2>&1; then
	json_counts() { python3 -c 'import json,sys; d=json.load(sys.stdin); print(d["positions"], d["moves"])' <"$1"; }
else
	json_counts() {
		local p m
		p=$(tr -d ' \n' <"$1" | grep -o '"positions":[0-9]*' | head -n1 | cut -d: -f2)
		m=$(tr -d ' \n' <"$1" | grep -o '"moves":[0-9]*' | head -n1 | cut -d: -f2)
		[ -n "$p" ] && [ -n "$m" ] && echo "$p $m"
	}
fi

root=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/census-bench.XXXXXX")
cleanup() {
	if [ -d "$tmp/base-src" ]; then
		git -C "$root" worktree remove --force "$tmp/base-src" >/dev/null 2>&1 || true
	fi
	rm -rf "$tmp"
	git -C "$root" worktree prune >/dev/null 2>&1 || true
}
trap cleanup EXIT

# baseline_main builds census at $baseline and from this checkout, runs
# both on every board alternately and prints the table of ratios.
baseline_main() {
	local base_rev base_short head_desc
	if ! base_rev=$(git -C "$root" rev-parse --verify --quiet "$baseline^{commit}"); then
		echo "bench.sh: --baseline $baseline: not a revision of this repository" >&2
		exit 2
	fi
	base_short=$(git -C "$root" rev-parse --short "$base_rev")
	head_desc=$(git -C "$root" rev-parse --short HEAD)
	if [ -n "$(git -C "$root" status --porcelain --untracked-files=no 2>/dev/null)" ]; then
		head_desc="$head_desc (with uncommitted changes)"
	fi
	echo "building census at $base_short and from this checkout ..." >&2
	git -C "$root" worktree add --quiet --detach "$tmp/base-src" "$base_rev"
	(cd "$tmp/base-src" && go build -o "$tmp/census-base" ./cmd/census)
	git -C "$root" worktree remove --force "$tmp/base-src"
	go build -o "$tmp/census-head" ./cmd/census

	local model mem
	model=$(grep -m1 '^model name' /proc/cpuinfo 2>/dev/null | cut -d: -f2- | sed 's/^ *//')
	mem=$(awk '/^MemTotal/ { printf "%.1f GiB", $2 / 1048576 }' /proc/meminfo 2>/dev/null)
	echo "# census against a baseline"
	echo
	echo "- baseline: $base_short; this: $head_desc"
	echo "- machine: $(nproc) CPUs, ${model:-unknown model}, ${mem:-unknown memory}; load average at the start: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null)"
	echo "- $(go version)"
	echo "- runs: $runs of each, alternating; median wall and user+sys CPU time, largest peak RSS and working data"
	echo

	local failed=0 rows=() gb game board i v counts c
	for gb in "${boards[@]}"; do
		read -r game board <<<"$gb"
		: >"$tmp/times-base"
		: >"$tmp/times-head"
		counts=""
		for ((i = 1; i <= runs; i++)); do
			for v in base head; do
				echo "census ($v) $game $board, run $i of $runs ..." >&2
				rm -rf "$tmp/out"
				$TIME -f '%e %U %S %M' -o "$tmp/time" "$tmp/census-$v" run "$game" "$board" --out "$tmp/out" --quiet --metrics-addr '' --json >"$tmp/stdout" 2>"$tmp/stderr" &
				local pid=$! peak=0 now
				# The working data: the data directory (the NATS store and
				# the fragments), sampled twice a second while census runs.
				while kill -0 "$pid" 2>/dev/null; do
					now=$(du -sb "$tmp/out/.census-data" 2>/dev/null | cut -f1) || true
					if [ -n "$now" ] && [ "$now" -gt "$peak" ]; then peak=$now; fi
					sleep 0.5
				done
				if ! wait "$pid"; then
					echo "bench.sh: census ($v) $game $board failed:" >&2
					sed 's/^/  /' "$tmp/stderr" "$tmp/time" >&2
					failed=1
					rows+=("| $game | $board | census ($v) failed | | | | | | | | | | | | |")
					continue 3
				fi
				echo "$(tail -n1 "$tmp/time") $peak" >>"$tmp/times-$v"
				if ! c=$(json_counts "$tmp/stdout"); then
					echo "bench.sh: census ($v) $game $board: no positions and moves in its JSON" >&2
					failed=1
					rows+=("| $game | $board | no counts in the JSON | | | | | | | | | | | | |")
					continue 3
				fi
				if [ -n "$counts" ] && [ "$c" != "$counts" ]; then
					echo "bench.sh: $game $board: runs disagree: $counts, then $c ($v)" >&2
					failed=1
				fi
				counts=$c
			done
		done
		rm -rf "$tmp/out"
		local positions moves bw bc br bd hw hc hr hd
		read -r positions moves <<<"$counts"
		read -r bw bc br bd <<<"$(summarise_cpu "$tmp/times-base")"
		read -r hw hc hr hd <<<"$(summarise_cpu "$tmp/times-head")"
		rows+=("| $game | $board | $positions | $bw | $hw | $(ratio "$bw" "$hw") | $bc | $hc | $(ratio "$bc" "$hc") | $(ratio "$hc" "$hw") | $br | $hr | $(ratio "$hr" "$br") | $bd | $hd | $(ratio "$hd" "$bd") |")
	done

	echo "| game | board | positions | wall s $base_short | wall s this | wall speed-up | CPU s $base_short | CPU s this | CPU ratio | this CPU/wall | RSS MiB $base_short | RSS MiB this | RSS this/$base_short | data MiB $base_short | data MiB this | data this/$base_short |"
	echo "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
	local r
	for r in ${rows[@]+"${rows[@]}"}; do
		echo "$r"
	done
	if [ $failed != 0 ]; then
		echo >&2
		echo "bench.sh: some runs failed or disagreed (see above)" >&2
		return 1
	fi
}

# summarise_cpu FILE: the median wall, the median user+sys CPU, the
# largest peak RSS and the largest peak working data of the "WALL USER SYS
# RSS_KB DATA_BYTES" lines of FILE, as "WALL CPU RSS_MIB DATA_MIB".
summarise_cpu() {
	awk '{ print $1, $2 + $3, $4, $5 }' "$1" | awk '
		{ w[NR] = $1; c[NR] = $2; if ($3 > rss) rss = $3; if ($4 > data) data = $4 }
		function median(a, n,    i, j, t) {
			for (i = 2; i <= n; i++)
				for (j = i; j > 1 && a[j - 1] > a[j]; j--) { t = a[j]; a[j] = a[j - 1]; a[j - 1] = t }
			return (n % 2) ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
		}
		END { printf "%.2f %.2f %.0f %.1f\n", median(w, NR), median(c, NR), rss / 1024, data / 1048576 }'
}

# ratio A B: A/B to two decimals, or "-" when B is 0.
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b <= 0) print "-"; else printf "%.2f", a / b }'; }

cd "$root"
if [ -n "$baseline" ]; then
	baseline_main
	exit $?
fi
echo "building census and refrun ..." >&2
go build -o "$tmp/census" ./cmd/census
go build -o "$tmp/refrun" ./internal/refcensus/refrun

# timed CMD... runs CMD under GNU time with stdout to $tmp/stdout and
# appends "WALL RSS_KB" to $tmp/times; it fails when CMD does.
timed() {
	if ! $TIME -f '%e %M' -o "$tmp/time" "$@" >"$tmp/stdout" 2>"$tmp/stderr"; then
		echo "bench.sh: failed:$(printf ' %q' "$@")" >&2
		sed 's/^/  /' "$tmp/stderr" "$tmp/time" >&2
		return 1
	fi
	tail -n1 "$tmp/time" >>"$tmp/times"
}

# median of the walls and max of the RSS in $tmp/times: "WALL RSS_MIB".
summarise() {
	sort -n "$tmp/times" | awk '
		{ w[NR] = $1; if ($2 > rss) rss = $2 }
		END {
			m = (NR % 2) ? w[(NR + 1) / 2] : (w[NR / 2] + w[NR / 2 + 1]) / 2
			printf "%.2f %.0f\n", m, rss / 1024
		}'
}

commit=$(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo unknown)
if [ -n "$(git -C "$root" status --porcelain --untracked-files=no 2>/dev/null)" ]; then
	commit="$commit (with uncommitted changes)"
fi
model=$(grep -m1 '^model name' /proc/cpuinfo 2>/dev/null | cut -d: -f2- | sed 's/^ *//')
mem=$(awk '/^MemTotal/ { printf "%.1f GiB", $2 / 1048576 }' /proc/meminfo 2>/dev/null)
echo "# census benchmark"
echo
echo "- commit: $commit"
echo "- machine: $(nproc) CPUs, ${model:-unknown model}, ${mem:-unknown memory}"
echo "- $(go version)"
echo "- runs: census $runs, reference $refruns (median wall time, largest peak RSS of census)"
echo

failed=0
rows=()
for gb in "${boards[@]}"; do
	read -r game board <<<"$gb"
	rc=${board%x*}
	cc=${board#*x}
	squares=$((rc * cc))

	: >"$tmp/times"
	counts=""
	for ((i = 1; i <= runs; i++)); do
		echo "census $game $board, run $i of $runs ..." >&2
		rm -rf "$tmp/out"
		if ! timed "$tmp/census" run "$game" "$board" --out "$tmp/out" --quiet --metrics-addr '' --json; then
			failed=1
			rows+=("| $game | $board | census failed | | | | | | | |")
			continue 2
		fi
		if ! c=$(json_counts "$tmp/stdout"); then
			echo "bench.sh: census $game $board: no positions and moves in its JSON" >&2
			failed=1
			rows+=("| $game | $board | no counts in the JSON | | | | | | | |")
			continue 2
		fi
		if [ -n "$counts" ] && [ "$c" != "$counts" ]; then
			echo "bench.sh: census $game $board: runs disagree: $counts, then $c" >&2
			failed=1
		fi
		counts=$c
	done
	read -r positions moves <<<"$counts"
	read -r wall rss <<<"$(summarise)"

	refwall="-"
	ratio="-"
	if [ $ref = 1 ] && [ $squares -le 16 ]; then
		: >"$tmp/times"
		refok=1
		for ((i = 1; i <= refruns; i++)); do
			echo "reference $game $board, run $i of $refruns ..." >&2
			if ! timed "$tmp/refrun" "$game" "$board"; then
				failed=1
				refok=0
				refwall="failed"
				break
			fi
			want="positions $positions moves $moves"
			if [ "$(cat "$tmp/stdout")" != "$want" ]; then
				echo "bench.sh: $game $board: the reference says '$(cat "$tmp/stdout")', census '$want'" >&2
				failed=1
			fi
		done
		if [ $refok = 1 ]; then
			read -r refwall _ <<<"$(summarise)"
			ratio=$(awk -v r="$refwall" -v c="$wall" 'BEGIN { if (c <= 0) print "-"; else if (r / c < 1) printf "%.2f", r / c; else printf "%.1f", r / c }')
		fi
	fi
	rate() { awk -v n="$1" -v t="$2" 'BEGIN { if (t > 0) printf "%.0f", n / t; else print "-" }'; }
	rows+=("| $game | $board | $positions | $moves | $wall | $(rate "$positions" "$wall") | $(rate "$moves" "$wall") | $rss | $refwall | $ratio |")
done

echo "| game | board | positions | moves | census wall s | positions/s | moves/s | peak RSS MiB | reference wall s | ratio (reference/census) |"
echo "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|"
for r in ${rows[@]+"${rows[@]}"}; do
	echo "$r"
done
if [ $failed != 0 ]; then
	echo >&2
	echo "bench.sh: some runs failed or disagreed (see above)" >&2
	exit 1
fi
