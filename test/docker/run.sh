#!/usr/bin/env bash
# A census on a Docker cluster must equal the same census run embedded.
#
# Builds census on the host (static, CGO_ENABLED=0), builds the scratch test
# image from it (test/docker/Dockerfile.test + the runtime stage of the
# repository's Dockerfile; no base image, no network), starts
# docker-compose.test.yml (three `census server` nodes in one JetStream
# cluster, workers, a coordinator) under a project name of its own, waits
# for the coordinator to exit, copies its outputs out with docker cp, runs
# `census run` of the same board on the host, and compares: summary.json,
# summary.parquet and tiers.parquet byte for byte, the pieces tables row for
# row (test/docker/cmpout). Tears the cluster down (down -v) on any exit.
#
# With --s3 the fragments live in S3 instead (docker-compose.s3.yml): a
# SeaweedFS S3 server in a scratch container of its own on the private
# network (test/docker/seaweedfs-image.sh builds the image around the weed
# binary of scripts/seaweedfs.sh, or $CENSUS_SEAWEEDFS), the coordinator's
# --store s3://census/blobs, a key pair made for the run passed to the S3
# server and to every census process through the environment, and no volume
# shared between the coordinator and the workers, which run.sh checks.
#
# Prints one last line "PASS docker ..." or "FAIL docker ..." (exit 1). With
# no docker, no running engine or no docker-compose it prints "SKIP docker
# ..." and exits 0, unless CI=true: then that is a FAIL. CENSUS_SKIP_DOCKER=1
# skips it in any case.
#
# Environment: CENSUS_GAME, CENSUS_BOARD (default clobber 4x4),
# CENSUS_TEST_WORKERS (default 3), CENSUS_TEST_TIMEOUT (seconds the
# coordinator may take, default 300), CENSUS_TEST_IMAGE (default
# census-test:latest), CENSUS_TEST_KEEP=1 to leave the cluster and the
# temporary directory for inspection. CENSUS_BINARY and CENSUS_CMPOUT, both
# set, name a static census and a test/docker/cmpout already built, which
# are used instead of building them.
set -Eeuo pipefail

s3=""
for arg in "$@"; do
	case $arg in
	--s3) s3=1 ;;
	*)
		echo "run.sh: unknown argument $arg (want --s3 or nothing)" >&2
		exit 2
		;;
	esac
done

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
game=${CENSUS_GAME:-clobber}
board=${CENSUS_BOARD:-4x4}
workers=${CENSUS_TEST_WORKERS:-3}
limit=${CENSUS_TEST_TIMEOUT:-300}
export CENSUS_TEST_IMAGE=${CENSUS_TEST_IMAGE:-census-test:latest}
export CENSUS_GAME=$game CENSUS_BOARD=$board
file=$here/docker-compose.test.yml
mode=""
if [ -n "$s3" ]; then
	file=$here/docker-compose.s3.yml
	mode=" (S3 mode)"
fi
started=$SECONDS

say() { printf '[docker-test %3ds] %s\n' $((SECONDS - started)) "$*"; }

skip() {
	if [ "${CI:-}" = true ]; then
		echo "FAIL docker cluster test$mode: $* (CI=true, so docker is required)"
		exit 1
	fi
	echo "SKIP docker cluster test$mode: $*"
	exit 0
}

if [ "${CENSUS_SKIP_DOCKER:-}" = 1 ]; then
	echo "SKIP docker cluster test: CENSUS_SKIP_DOCKER=1"
	exit 0
fi
command -v docker >/dev/null 2>&1 || skip "no docker command"
docker info >/dev/null 2>&1 || skip "the docker engine is not running (docker info fails)"
if command -v docker-compose >/dev/null 2>&1; then
	compose=(docker-compose)
elif docker compose version >/dev/null 2>&1; then
	compose=(docker compose)
else
	skip "neither docker-compose nor docker compose"
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/census-docker-test.XXXXXX")
project=censustest$$$(printf '%04x' $((RANDOM)))
dc() { "${compose[@]}" -p "$project" -f "$file" "$@"; }
step="setting up"
verdict=""

cleanup() {
	local rc=$?
	trap - EXIT
	if [ "$rc" -ne 0 ] && [ -z "$verdict" ]; then
		verdict="FAIL docker cluster test$mode: $step failed (exit $rc)"
		if [ -n "${cluster_up:-}" ]; then
			echo "--- cluster logs (last 40 lines per container) ---"
			dc logs --no-color --tail 40 2>&1 || true
		fi
	fi
	if [ "${CENSUS_TEST_KEEP:-}" = 1 ]; then
		say "kept project $project and $tmp (docker-compose -p $project -f $file down -v to remove)"
	else
		if [ -n "${cluster_up:-}" ]; then
			dc down -v --remove-orphans >/dev/null 2>&1 || dc down -v >/dev/null 2>&1 || true
		fi
		rm -rf "$tmp"
	fi
	[ "$rc" -eq 0 ] && [ -z "$verdict" ] && verdict="PASS docker cluster test$mode"
	echo "$verdict ($((SECONDS - started))s)"
	exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

fail() {
	verdict="FAIL docker cluster test$mode: $*"
	exit 1
}

step="go build"
command -v go >/dev/null 2>&1 || fail "no go command to build census with"
version=$(git -C "$root" describe --always --dirty 2>/dev/null || echo dev)-dockertest
ctx=$tmp/context
mkdir -p "$ctx/rootfs/tmp" "$ctx/data"
chmod 1777 "$ctx/rootfs/tmp"
if [ -n "${CENSUS_BINARY:-}" ] && [ -n "${CENSUS_CMPOUT:-}" ]; then
	# Built by the caller (go test builds them once, before the tests'
	# time bounds).
	cp "$CENSUS_BINARY" "$ctx/census"
	cp "$CENSUS_CMPOUT" "$tmp/cmpout"
	say "census $("$ctx/census" version) from $CENSUS_BINARY"
else
	(cd "$root" && CGO_ENABLED=0 go build -trimpath -ldflags "-s -w -X main.version=$version" -o "$ctx/census" ./cmd/census)
	(cd "$root" && go build -o "$tmp/cmpout" ./test/docker/cmpout)
	say "built census $version"
fi

step="docker build"
if [ -f /etc/ssl/certs/ca-certificates.crt ]; then
	cp /etc/ssl/certs/ca-certificates.crt "$ctx/ca-certificates.crt"
else
	: >"$ctx/ca-certificates.crt"
fi
# Modes survive into the image; the image's user is not the owner.
chmod 0755 "$ctx/census" "$ctx/data"
chmod 0644 "$ctx/ca-certificates.crt"
runtime=$(sed -n '/^FROM scratch AS runtime/,$p' "$root/Dockerfile")
[ -n "$runtime" ] || fail "$root/Dockerfile has no line 'FROM scratch AS runtime'"
{ cat "$here/Dockerfile.test"; printf '%s\n' "$runtime"; } >"$ctx/Dockerfile"
if ! docker build --label census.test=1 -t "$CENSUS_TEST_IMAGE" "$ctx" >"$tmp/build.log" 2>&1; then
	sed 's/^/  /' "$tmp/build.log"
	fail "docker build of the test image failed"
fi
# The build stage's image and the image the tag named before are left
# dangling; both carry the label.
docker image prune -f --filter label=census.test=1 >/dev/null 2>&1 || true
docker run --rm "$CENSUS_TEST_IMAGE" version
say "built image $CENSUS_TEST_IMAGE"
if [ -n "$s3" ]; then
	step="the S3 server image"
	CENSUS_SEAWEEDFS_IMAGE=$("$here/seaweedfs-image.sh") || fail "no SeaweedFS image (test/docker/seaweedfs-image.sh failed)"
	export CENSUS_SEAWEEDFS_IMAGE
	say "S3 server image $CENSUS_SEAWEEDFS_IMAGE"
	# A key pair of this run's own, given to every container through the
	# environment only.
	CENSUS_S3_ACCESS_KEY=census$(od -An -tx1 -N8 /dev/urandom | tr -d ' \n')
	CENSUS_S3_SECRET_KEY=$(od -An -tx1 -N20 /dev/urandom | tr -d ' \n')
	export CENSUS_S3_ACCESS_KEY CENSUS_S3_SECRET_KEY
fi

step="docker-compose up"
cluster_up=1
# The servers (healthy once they answer JetStream requests), then one
# worker, which creates the job stream and consumer, then the others, then
# the coordinator once every worker is running, so that the jobs find every
# worker ready. One at a time because census processes that create the job
# stream at the same moment on a fresh three-node cluster often get no
# answer from JetStream ("create stream CENSUS_JOBS: context deadline
# exceeded" after 30s for a worker, 5s for the coordinator); a worker whose
# setup fails exits and is started again (restart: on-failure), which is
# reported, not failed.
wait_workers() {
	local want=$1 ready w deadline=$((SECONDS + 120))
	while :; do
		ready=0
		for w in $(dc ps -q worker); do
			docker logs "$w" 2>&1 | grep -q 'msg="worker running"' && ready=$((ready + 1))
		done
		[ "$ready" -ge "$want" ] && return
		[ "$SECONDS" -lt "$deadline" ] || fail "only $ready of $want workers got running within 120s"
		sleep 1
	done
}
if [ -n "$s3" ]; then
	# The S3 server first: its bucket must exist before the coordinator
	# opens the store. weed mini prints this once every service is up
	# and the bucket made.
	s3_ready='All enabled components are running and ready to use'
	dc up -d s3 2>&1 | sed 's/^/  /'
	s3id=$(dc ps -q s3)
	deadline=$((SECONDS + 120))
	until docker logs "$s3id" 2>&1 | grep -q "$s3_ready"; do
		[ "$(docker inspect -f '{{.State.Status}}' "$s3id")" = running ] || { docker logs --tail 30 "$s3id" 2>&1 | sed 's/^/  /'; fail "the S3 server exited"; }
		[ "$SECONDS" -lt "$deadline" ] || { docker logs --tail 30 "$s3id" 2>&1 | sed 's/^/  /'; fail "the S3 server did not create its bucket within 120s"; }
		sleep 1
	done
	say "S3 server up, bucket census created"
fi
dc up -d --scale worker=1 worker 2>&1 | sed 's/^/  /'
say "cluster $project up: n1 n2 n3 healthy"
wait_workers 1
if [ "$workers" -gt 1 ]; then
	dc up -d --scale worker="$workers" worker 2>&1 | sed 's/^/  /'
	wait_workers "$workers"
fi
restarts_before=" "
for w in $(dc ps -q worker); do
	n=$(docker inspect -f '{{.RestartCount}}' "$w")
	restarts_before="$restarts_before$w=$n "
	if [ "$n" != 0 ]; then
		say "WARN worker ${w:0:12} failed to start and was started again $n time(s):"
		docker logs "$w" 2>&1 | grep -v 'msg="worker running"' | tail -n 5 | sed 's/^/    /' || true
	fi
done
say "$workers workers running"
dc up -d --no-deps coordinator 2>&1 | sed 's/^/  /'
say "coordinator running $game $board"

step="waiting for the coordinator"
cid=$(dc ps -q coordinator)
[ -n "$cid" ] || fail "no coordinator container"
# Poll rather than docker wait: the coordinator may be restarted after a
# failure (restart: on-failure:3 in the compose file), and resumes.
deadline=$((SECONDS + limit))
while :; do
	read -r status code restarts < <(docker inspect -f '{{.State.Status}} {{.State.ExitCode}} {{.RestartCount}}' "$cid")
	[ "$status" = exited ] && break
	[ "$SECONDS" -lt "$deadline" ] || fail "the coordinator did not finish within ${limit}s"
	sleep 1
done
if [ "$restarts" != 0 ]; then
	say "WARN the coordinator failed and was started again $restarts time(s); its log:"
	docker logs "$cid" 2>&1 | tail -n 40 | sed 's/^/  /' || true
fi
if [ "$code" != 0 ]; then
	fail "the coordinator exited with code $code after $restarts restart(s)"
fi
say "coordinator done"

step="checking workers"
busy=0
for w in $(dc ps -q worker); do
	read -r state n < <(docker inspect -f '{{.State.Status}} {{.RestartCount}}' "$w")
	njobs=$(docker logs "$w" 2>&1 | grep -c 'msg="job done"' || true)
	say "  worker ${w:0:12}: $state, $njobs jobs done"
	[ "$state" = running ] || fail "worker ${w:0:12} is $state"
	case $restarts_before in *" $w=$n "*) ;; *) fail "worker ${w:0:12} was restarted during the census" ;; esac
	[ "$njobs" -gt 0 ] && busy=$((busy + 1))
done
want_busy=$((workers < 2 ? workers : 2))
if [ "$busy" -lt "$want_busy" ]; then
	for w in $(dc ps -q worker); do
		say "  worker ${w:0:12} log, without the job done lines:"
		docker logs "$w" 2>&1 | grep -v 'msg="job done"' | tail -n 20 | sed 's/^/    /' || true
	done
	fail "only $busy worker(s) ran jobs; the test wants the work spread over at least $want_busy"
fi

if [ -n "$s3" ]; then
	step="checking that no volume is shared"
	cmounts=" $(docker inspect -f '{{range .Mounts}}{{.Name}} {{end}}' "$cid")"
	for w in $(dc ps -q worker); do
		for m in $(docker inspect -f '{{range .Mounts}}{{.Name}} {{end}}' "$w"); do
			case $cmounts in *" $m "*) fail "worker ${w:0:12} shares volume $m with the coordinator" ;; esac
		done
	done
	say "the coordinator and the workers share no volume"
fi

step="copying the outputs out"
docker cp "$cid:/data/out/$game-$board" "$tmp/cluster"
dc logs --no-color coordinator 2>&1 | tail -n 3 | sed 's/^/  /'

step="census run on the host"
"$ctx/census" run "$game" "$board" --out "$tmp/host" --metrics-addr "" --quiet
say "embedded census done"

step="comparing"
if ! "$tmp/cmpout" "$tmp/host/$game-$board" "$tmp/cluster" | sed 's/^/  /'; then
	fail "the cluster's $game $board differs from census run's"
fi
