#!/usr/bin/env bash
# Faults injected into a census running on a cluster: the census must come
# out the same as an undisturbed one.
#
# Usage: test/chaos/chaos.sh [--short] [--s3] [--help]
#
# Builds census on the host (static, CGO_ENABLED=0) and a scratch image
# around it (as test/docker/run.sh does: no base image, no network), starts
# a cluster on a private Docker network (three `census server` nodes in one
# JetStream cluster and workers, test/chaos/docker-compose.chaos.yml, under
# a project name of its own), runs `census run` of the board once on the
# host as the reference, then runs trials. Each trial starts a coordinator
# with a run ID of its own and, while the run goes on, injects faults at
# random moments, one at a time:
#
#   worker-kill       SIGKILL a worker (docker kill -s KILL), start it again
#   coordinator-kill  SIGKILL the coordinator, start it again: the same
#                     command with the same --run, which must resume the run
#   nats-kill         SIGKILL one NATS node, start it again
#   partition         cut a worker, the coordinator or a NATS node off the
#                     network (docker network disconnect), connect it again
#   leader-kill       SIGKILL the NATS node that leads, at that moment, the
#                     run's bucket, the job stream or the workers' consumer
#                     (asked of the cluster with test/chaos/leader), start
#                     it again: that has no leader, and a write to a stream
#                     answers "no response from stream", until the other
#                     two nodes elect one some seconds later
#   nats-stall        SIGSTOP one NATS node (docker kill -s STOP), SIGCONT
#                     it after the hold: a node that answers nothing, its
#                     connections open, then carries on
#
# With --s3 (Docker only) the fragments live in S3 instead of a volume the
# coordinator and the workers share (docker-compose.chaos-s3.yml): a
# SeaweedFS S3 server in a scratch container of its own on the private
# network (test/docker/seaweedfs-image.sh builds the image around the weed
# binary of scripts/seaweedfs.sh, or $CENSUS_SEAWEEDFS), a key pair made for
# the run given to it and to every census process through the environment,
# the coordinator's store s3://census/RUN, no volume shared between census
# processes; and one more kind of fault:
#
#   s3-restart        SIGKILL the S3 server, start it again (its data kept
#                     on its volume) and wait until it serves again
#
# A fault is held (the process down, the node cut off) for a random time,
# then undone; the next fault comes a random time later. Faults that would
# land after the coordinator has finished are not injected. At the end of a
# trial the coordinator must have exited 0, resumed once per kill, and its
# outputs must equal the reference (test/docker/cmpout: summary.json,
# summary.parquet, tiers.parquet byte for byte, the pieces row for row);
# the nodes and workers must still be running (none died on its own).
# Every trial prints its number, seed, board, faults (kind, target, moment,
# hold), duration and result: match, MISMATCH or ERROR with the reason. The
# end prints a table (trials, faults by kind, mismatches, errors) and a last
# line "PASS chaos ..." or "FAIL chaos ..."; the exit status is 1 on any
# mismatch or error, 2 on bad usage.
#
# Without Docker (no docker command, no running engine, no docker-compose)
# it says so and runs the same faults on processes on 127.0.0.1: three
# `census server` processes in one cluster, the coordinator and the workers,
# killed with SIGKILL and started again; a partition there is SIGSTOP then
# SIGCONT of the process (a process that answers nothing, as a cut-off node
# does), as a nats-stall is. CHAOS_NO_DOCKER=1 forces this mode.
#
# The cluster (nodes and workers) lives across trials; everything is torn
# down on any exit (docker-compose down -v, the image removed, processes
# killed).
#
# Environment:
#   CHAOS_SEED       seed of the fault schedule (default random; printed).
#                    Trial i uses CHAOS_SEED+i-1: CHAOS_SEED=S CHAOS_TRIALS=1
#                    replays the schedule of the trial that printed seed S.
#   CHAOS_TRIALS     trials (default 20; --short: at most one per kind of
#                    fault, 6 or 7 with --s3, ending once every kind was
#                    injected; a later trial injects the kinds still
#                    missing first)
#   CHAOS_GAME, CHAOS_BOARD   the census (default clobber 4x4;
#                    --short: clobber 3x6)
#   CHAOS_KINDS      the kinds of fault, in the order the schedule draws
#                    from (default: all of the above, in that order).
#                    "worker-kill coordinator-kill nats-kill partition"
#                    (and s3-restart with --s3) with CHAOS_FAULTS=4 (5)
#                    replays the schedules of seeds from before leader-kill
#                    and nats-stall
#   CHAOS_FAULTS     faults per trial (default one of each kind in a random
#                    order, 6 or 7 with --s3; more are random kinds)
#   CHAOS_GAP        "MIN MAX" seconds between faults (default "2 6";
#                    --short: "1 2", and none before the first)
#   CHAOS_HOLD       "MIN MAX" seconds a fault is held (default "2 5";
#                    --short: "2 3")
#   CHAOS_WORKERS    workers, 2 job slots each (default 3)
#   CHAOS_ACK_WAIT   how long a job may go without a heartbeat before
#                    another worker gets it (default 10s; census's own
#                    default is 30s)
#   CHAOS_TIMEOUT    seconds a trial may take before it is an ERROR
#                    (default 900)
#   CHAOS_NO_DOCKER=1  processes on loopback instead of containers
#   CHAOS_KEEP=1     leave the cluster and the temporary directory behind
#   CENSUS_BINARY, CENSUS_CMPOUT  both set: a static census and a
#                    test/docker/cmpout already built, used instead of
#                    building them
#   CENSUS_CHAOS_LEADER  a static test/chaos/leader already built, used
#                    instead of building it
#   CI=true          no Docker is an error, unless CHAOS_NO_DOCKER=1
set -Euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
started=$SECONDS

usage() { sed -n '2,/^set -Euo/p' "${BASH_SOURCE[0]}" | sed '$d' | sed 's/^# \{0,1\}//'; }

short="" s3=""
for arg in "$@"; do
	case $arg in
	-h | --help) usage; exit 0 ;;
	--short) short=1 ;;
	--s3) s3=1 ;;
	*)
		echo "chaos.sh: unknown argument $arg (see --help)" >&2
		exit 2
		;;
	esac
done

bad() {
	echo "chaos.sh: $*" >&2
	exit 2
}
isint() { [[ $1 =~ ^[0-9]+$ ]]; }

all_kinds=(worker-kill coordinator-kill nats-kill partition leader-kill nats-stall)
[ -n "$s3" ] && all_kinds+=(s3-restart)
kinds=("${all_kinds[@]}")
if [ -n "${CHAOS_KINDS:-}" ]; then
	read -r -a kinds <<<"$CHAOS_KINDS"
	declare -A seen=()
	for k in "${kinds[@]}"; do
		case " ${all_kinds[*]} " in
		*" $k "*) ;;
		*) bad "CHAOS_KINDS=\"$CHAOS_KINDS\": no kind of fault $k here (${all_kinds[*]})" ;;
		esac
		[ -z "${seen[$k]:-}" ] || bad "CHAOS_KINDS=\"$CHAOS_KINDS\": $k twice"
		seen[$k]=1
	done
fi
[ "${#kinds[@]}" -ge 1 ] || bad "CHAOS_KINDS=\"${CHAOS_KINDS:-}\": want at least one kind of fault"

if [ -n "$short" ]; then
	# Clobber 4x4 takes well under a second on two idle cores. 3x6
	# takes a few seconds on the cluster, which may end a trial after its
	# first fault, which comes as soon as the run is stored (plan): every
	# trial injects the kinds still missing first, so one trial per kind
	# hits every kind even then.
	def_trials=${#kinds[@]} def_game=clobber def_board=3x6 def_gap="1 2" def_hold="2 3"
else
	def_trials=20 def_game=clobber def_board=4x4 def_gap="2 6" def_hold="2 5"
fi
trials=${CHAOS_TRIALS:-$def_trials}
game=${CHAOS_GAME:-$def_game}
board=${CHAOS_BOARD:-$def_board}
nfaults=${CHAOS_FAULTS:-${#kinds[@]}}
workers=${CHAOS_WORKERS:-3}
ack_wait=${CHAOS_ACK_WAIT:-10s}
limit=${CHAOS_TIMEOUT:-900}
read -r gap_min gap_max <<<"${CHAOS_GAP:-$def_gap}"
read -r hold_min hold_max <<<"${CHAOS_HOLD:-$def_hold}"
seed=${CHAOS_SEED:-$(((RANDOM << 15 | RANDOM) % 1000000000))}

{ isint "$trials" && [ "$trials" -ge 1 ]; } || bad "CHAOS_TRIALS=$trials: want a whole number of at least 1"
isint "$nfaults" || bad "CHAOS_FAULTS=$nfaults: want a whole number"
{ isint "$workers" && [ "$workers" -ge 2 ]; } || bad "CHAOS_WORKERS=$workers: want at least 2 (one is killed while another works)"
{ isint "$limit" && [ "$limit" -ge 10 ]; } || bad "CHAOS_TIMEOUT=$limit: want seconds, at least 10"
isint "$seed" || bad "CHAOS_SEED=$seed: want a whole number"
for v in "$gap_min" "$gap_max" "$hold_min" "$hold_max"; do
	isint "$v" || bad "CHAOS_GAP=\"${CHAOS_GAP:-$def_gap}\" CHAOS_HOLD=\"${CHAOS_HOLD:-$def_hold}\": want two whole numbers of seconds each"
done
[ "$gap_min" -le "$gap_max" ] || bad "CHAOS_GAP=\"$gap_min $gap_max\": MIN above MAX"
{ [ "$hold_min" -le "$hold_max" ] && [ "$hold_min" -ge 1 ]; } || bad "CHAOS_HOLD=\"$hold_min $hold_max\": want 1 <= MIN <= MAX"
[[ $ack_wait =~ ^[0-9]+(ms|s|m)$ ]] || bad "CHAOS_ACK_WAIT=$ack_wait: want a duration such as 10s"

say() { printf '[chaos %4ds] %s\n' $((SECONDS - started)) "$*"; }

# ---- the mode ----

mode=docker
why_not=""
if [ "${CHAOS_NO_DOCKER:-}" = 1 ]; then
	mode=loopback why_not="CHAOS_NO_DOCKER=1"
elif ! command -v docker >/dev/null 2>&1; then
	mode=loopback why_not="no docker command"
elif ! timeout 30 docker info >/dev/null 2>&1; then
	mode=loopback why_not="the docker engine is not running (docker info fails)"
elif command -v docker-compose >/dev/null 2>&1; then
	compose=(docker-compose)
elif docker compose version >/dev/null 2>&1; then
	compose=(docker compose)
else
	mode=loopback why_not="neither docker-compose nor docker compose"
fi
if [ "$mode" = loopback ] && [ -n "$s3" ]; then
	echo "FAIL chaos: --s3 needs Docker: $why_not"
	exit 1
fi
if [ "$mode" = loopback ]; then
	if [ "${CI:-}" = true ] && [ "${CHAOS_NO_DOCKER:-}" != 1 ]; then
		echo "FAIL chaos: Docker is needed with CI=true: $why_not"
		exit 1
	fi
	say "no Docker ($why_not): the faults go to processes on 127.0.0.1; a partition is SIGSTOP then SIGCONT of the process"
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/census-chaos.XXXXXX")
project=censuschaos$$$(printf '%04x' $((RANDOM)))
image=census-chaos-$project:latest
verdict=""
cluster_up=""
declare -A pids=() # loopback: role -> pid

# ---- tear down ----

cleanup() {
	local rc=$?
	trap - EXIT INT TERM
	[ -z "$verdict" ] && verdict="FAIL chaos: stopped (exit $rc) while ${step:-setting up}"
	if [ "${CHAOS_KEEP:-}" = 1 ]; then
		say "kept $tmp${cluster_up:+ and project $project (${compose[*]} -p $project -f $file down -v)}"
	else
		if [ "$mode" = docker ] && [ -n "$cluster_up" ]; then
			dc down -v --remove-orphans -t 2 >/dev/null 2>&1 || true
			docker image rm -f "$image" >/dev/null 2>&1 || true
		fi
		local r
		for r in "${!pids[@]}"; do
			kill -CONT "${pids[$r]}" 2>/dev/null
			kill -KILL "${pids[$r]}" 2>/dev/null
		done
		wait 2>/dev/null
		rm -rf "$tmp"
	fi
	echo "$verdict ($((SECONDS - started))s)"
	[ "$rc" -eq 0 ] && [[ $verdict != PASS* ]] && rc=1
	exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

fatal() {
	verdict="FAIL chaos: $*"
	exit 1
}

# ---- build ----

step="building census"
command -v go >/dev/null 2>&1 || fatal "no go command to build census with"
version=$(git -C "$root" describe --always --dirty 2>/dev/null || echo dev)-chaos
ctx=$tmp/context
mkdir -p "$ctx/rootfs/tmp" "$ctx/data" "$tmp/logs"
chmod 1777 "$ctx/rootfs/tmp"
if [ -n "${CENSUS_BINARY:-}" ] && [ -n "${CENSUS_CMPOUT:-}" ]; then
	# Built by the caller (go test builds them once, before the tests'
	# time bounds).
	cp "$CENSUS_BINARY" "$ctx/census" || fatal "copy $CENSUS_BINARY failed"
	cp "$CENSUS_CMPOUT" "$tmp/cmpout" || fatal "copy $CENSUS_CMPOUT failed"
	chmod 0755 "$ctx/census"
	version=$("$ctx/census" version | cut -d' ' -f2)
else
	(cd "$root" && CGO_ENABLED=0 go build -trimpath -ldflags "-s -w -X main.version=$version" -o "$ctx/census" ./cmd/census) ||
		fatal "go build of census failed"
	(cd "$root" && go build -o "$tmp/cmpout" ./test/docker/cmpout) || fatal "go build of test/docker/cmpout failed"
fi
# The leader-kill fault's helper, static: it runs in the scratch containers
# of the nodes too.
leader_bin=$tmp/chaos-leader
if [ -n "${CENSUS_CHAOS_LEADER:-}" ]; then
	cp "$CENSUS_CHAOS_LEADER" "$leader_bin" || fatal "copy $CENSUS_CHAOS_LEADER failed"
	chmod 0755 "$leader_bin"
else
	(cd "$root" && CGO_ENABLED=0 go build -trimpath -ldflags "-s -w" -o "$leader_bin" ./test/chaos/leader) ||
		fatal "go build of test/chaos/leader failed"
fi
census=$ctx/census
say "built census $version"

# ---- the reference ----

step="the reference run"
began=$SECONDS
"$census" run "$game" "$board" --out "$tmp/ref" --metrics-addr "" --quiet 2>"$tmp/logs/ref.log" ||
	fatal "census run $game $board on the host failed: $(tail -n 3 "$tmp/logs/ref.log")"
ref=$tmp/ref/$game-$board
say "reference: census run $game $board on the host took $((SECONDS - began))s"

# ---- the Docker backend ----
#
# Roles: n1 n2 n3, worker1..workerN, coordinator. Every backend gives:
#   up                     start the nodes and workers
#   start_coordinator RUN  start a trial's coordinator
#   coordinator_state      "running", or "exited CODE"
#   kill_role ROLE, start_role ROLE, cut ROLE, heal ROLE
#   stall ROLE, resume ROLE  SIGSTOP and SIGCONT the role's process
#   leader_of STREAM [CONSUMER]  the node (n1, n2 or n3) leading it
#   node_ready ROLE        true once the node answers JetStream requests
#   run_started RUN        true once the run's plan and status are stored
#   role_state ROLE        "running" or "exited CODE"
#   outputs RUN DIR        copy the trial's outputs to DIR
#   logs ROLE N            the last N lines of the role's log
#   count_log ROLE TEXT    lines of the role's log holding TEXT

file=$here/docker-compose.chaos.yml
[ -n "$s3" ] && file=$here/docker-compose.chaos-s3.yml
dc() { "${compose[@]}" -p "$project" -f "$file" "$@"; }
export CHAOS_IMAGE=$image CHAOS_GAME=$game CHAOS_BOARD=$board CHAOS_ACK_WAIT=$ack_wait CHAOS_RUN=chaos

container() {
	case $1 in
	n[123] | s3) echo "${project}_$1_1" ;;
	worker*) echo "${project}_worker_${1#worker}" ;;
	coordinator) echo "${project}_coordinator_1" ;;
	esac
}

docker_build() {
	if [ -f /etc/ssl/certs/ca-certificates.crt ]; then
		cp /etc/ssl/certs/ca-certificates.crt "$ctx/ca-certificates.crt"
	else
		: >"$ctx/ca-certificates.crt"
	fi
	chmod 0755 "$ctx/census" "$ctx/data"
	chmod 0644 "$ctx/ca-certificates.crt"
	local runtime
	runtime=$(sed -n '/^FROM scratch AS runtime/,$p' "$root/Dockerfile")
	[ -n "$runtime" ] || fatal "$root/Dockerfile has no line 'FROM scratch AS runtime'"
	{ cat "$root/test/docker/Dockerfile.test"; printf '%s\n' "$runtime"; } >"$ctx/Dockerfile"
	if ! docker build --label census.test=1 -t "$image" "$ctx" >"$tmp/logs/build.log" 2>&1; then
		sed 's/^/  /' "$tmp/logs/build.log"
		fatal "docker build of the chaos image failed"
	fi
	docker image prune -f --filter label=census.test=1 >/dev/null 2>&1 || true
	if [ -n "$s3" ]; then
		CHAOS_SEAWEEDFS_IMAGE=$("$root/test/docker/seaweedfs-image.sh") || fatal "no SeaweedFS image (test/docker/seaweedfs-image.sh failed)"
		export CHAOS_SEAWEEDFS_IMAGE
		# A key pair of this run's own, given to every container through
		# the environment only.
		CHAOS_S3_ACCESS_KEY=chaos$(od -An -tx1 -N8 /dev/urandom | tr -d ' \n')
		CHAOS_S3_SECRET_KEY=$(od -An -tx1 -N20 /dev/urandom | tr -d ' \n')
		export CHAOS_S3_ACCESS_KEY CHAOS_S3_SECRET_KEY
	fi
}

# s3_ready is what weed mini prints once every service is up and the bucket
# made; s3_up N waits until it has printed it N times (once per start).
s3_ready='All enabled components are running and ready to use'
s3_up() {
	local deadline=$((SECONDS + 180))
	until [ "$(count_log s3 "$s3_ready")" -ge "$1" ]; do
		role_state s3
		[ "$STATE" = running ] || return 1
		[ "$SECONDS" -lt "$deadline" ] || return 1
		sleep 1
	done
}

docker_up() {
	cluster_up=1
	if [ -n "$s3" ]; then
		# The S3 server first: the bucket must exist before a coordinator
		# opens the store.
		dc up -d s3 >"$tmp/logs/up.log" 2>&1 || { cat "$tmp/logs/up.log"; fatal "docker-compose up s3 failed"; }
		s3_up 1 || fatal "the S3 server did not get ready: $(logs s3 10)"
		s3_starts=1
	fi
	# One worker first, which creates the job stream and consumer, then
	# the others: processes creating the stream at the same moment on a
	# fresh cluster can time out (see test/docker/run.sh).
	dc up -d --scale worker=1 worker >>"$tmp/logs/up.log" 2>&1 || { cat "$tmp/logs/up.log"; fatal "docker-compose up failed"; }
	wait_log worker1 'msg="worker running"' 180 || fatal "worker1 did not get running: $(logs worker1 10)"
	dc up -d --scale worker="$workers" worker >>"$tmp/logs/up.log" 2>&1 || { cat "$tmp/logs/up.log"; fatal "docker-compose up failed"; }
	local w n
	for w in $(seq 2 "$workers"); do
		wait_log "worker$w" 'msg="worker running"' 180 || fatal "worker$w did not get running: $(logs "worker$w" 10)"
	done
	# The nodes' containers keep it across restarts.
	for n in n1 n2 n3; do
		docker cp "$leader_bin" "$(container "$n"):/chaos-leader" >/dev/null 2>&1 ||
			fatal "could not copy test/chaos/leader into the container of $n"
	done
}

docker_start_coordinator() {
	CHAOS_RUN=$1 dc up -d --no-deps --force-recreate coordinator >>"$tmp/logs/up.log" 2>&1 || return 1
	[ -z "$s3" ] && return 0
	# No volume of the coordinator's may be a worker's.
	local cm w m
	cm=" $(docker inspect -f '{{range .Mounts}}{{.Name}} {{end}}' "$(container coordinator)")"
	for w in $(seq 1 "$workers"); do
		for m in $(docker inspect -f '{{range .Mounts}}{{.Name}} {{end}}' "$(container "worker$w")"); do
			case $cm in *" $m "*) fatal "worker$w shares volume $m with the coordinator" ;; esac
		done
	done
}

docker_state() {
	local s c
	read -r s c < <(docker inspect -f '{{.State.Status}} {{.State.ExitCode}}' "$(container "$1")" 2>/dev/null) || { STATE=missing; return; }
	case $s in
	running | restarting | paused) STATE=running ;;
	*) STATE="exited $c" ;;
	esac
}
docker_kill() { docker kill -s KILL "$(container "$1")" >/dev/null 2>&1; }
docker_start() { docker start "$(container "$1")" >/dev/null 2>&1; }
docker_cut() { docker network disconnect "${project}_census" "$(container "$1")" >/dev/null 2>&1; }
docker_heal() {
	local alias=$1
	case $1 in worker*) alias=worker ;; esac
	docker network connect --alias "$alias" "${project}_census" "$(container "$1")" >/dev/null 2>&1
}
docker_stall() { docker kill -s STOP "$(container "$1")" >/dev/null 2>&1; }
docker_resume() { docker kill -s CONT "$(container "$1")" >/dev/null 2>&1; }
# docker_leader_of asks the first node that answers, from inside its
# container (the network is internal).
docker_leader_of() {
	local n
	for n in n1 n2 n3; do
		timeout 20 docker exec "$(container "$n")" /chaos-leader --nats nats://127.0.0.1:4222 "$@" 2>/dev/null && return 0
	done
	return 1
}
docker_run_started() {
	timeout 30 docker exec "$(container n1)" /census status --nats nats://127.0.0.1:4222 "$1" --json 2>/dev/null |
		grep -Eq '"state": "(running|done)"'
}
docker_node_ready() { timeout 20 docker exec "$(container "$1")" /census status --nats nats://127.0.0.1:4222 >/dev/null 2>&1; }
docker_outputs() { docker cp "$(container coordinator):/data/out/$1/$game-$board" "$2" >/dev/null 2>&1; }
docker_logs() { docker logs --tail "$2" "$(container "$1")" 2>&1; }
docker_count_log() { docker logs "$(container "$1")" 2>&1 | grep -c -- "$2"; }

# ---- the loopback backend ----

free_port() {
	local p
	while :; do
		p=$((20000 + (RANDOM << 8 | RANDOM) % 40000))
		(exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null || { echo "$p"; return; }
	done
}

declare -A args=() # loopback: role -> command line, one argument a line
loop_urls=""

loop_init() {
	local i j routes client=() route=()
	for i in 1 2 3; do
		client[i]=$(free_port)
		route[i]=$(free_port)
	done
	for i in 1 2 3; do
		routes=""
		for j in 1 2 3; do
			[ "$i" = "$j" ] || routes="${routes:+$routes,}nats://127.0.0.1:${route[j]}"
		done
		args[n$i]=$(printf '%s\n' server --name "n$i" --listen "127.0.0.1:${client[i]}" --cluster "127.0.0.1:${route[i]}" \
			--routes "$routes" --store-dir "$tmp/nats/n$i")
		loop_urls="${loop_urls:+$loop_urls,}nats://127.0.0.1:${client[i]}"
	done
	for i in $(seq 1 "$workers"); do
		args[worker$i]=$(printf '%s\n' worker --nats "$loop_urls" --jobs 2 --metrics-addr=)
	done
}

loop_start() {
	local role=$1 a=()
	mapfile -t a <<<"${args[$role]}"
	CENSUS_LOG=info CENSUS_ACK_WAIT=$ack_wait "$census" "${a[@]}" >>"$tmp/logs/$role.log" 2>&1 &
	pids[$role]=$!
}

loop_up() {
	loop_init
	local i
	for i in 1 2 3; do loop_start "n$i"; done
	for i in 1 2 3; do
		wait_until 60 loop_node_ready "n$i" || fatal "census server n$i did not answer: $(logs "n$i" 10)"
	done
	loop_start worker1
	wait_log worker1 'msg="worker running"' 180 || fatal "worker1 did not get running: $(logs worker1 10)"
	for i in $(seq 2 "$workers"); do loop_start "worker$i"; done
	for i in $(seq 2 "$workers"); do
		wait_log "worker$i" 'msg="worker running"' 180 || fatal "worker$i did not get running: $(logs "worker$i" 10)"
	done
}

loop_start_coordinator() {
	args[coordinator]=$(printf '%s\n' coordinator --nats "$loop_urls" --store "$tmp/blobs" --out "$tmp/out/$1" --run "$1" \
		--mem-budget 64MiB --metrics-addr= "$game" "$board")
	: >"$tmp/logs/coordinator.log"
	loop_start coordinator
}

# loop_state reaps an ended process (bash keeps its status until then),
# so it must run in the script's own shell, never in $(...).
declare -A exit_codes=()
loop_state() {
	local pid=${pids[$1]:-}
	if [ -z "$pid" ]; then
		STATE="exited ${exit_codes[$1]:-?}"
		return
	fi
	if kill -0 "$pid" 2>/dev/null && [ "$(ps -o stat= -p "$pid" 2>/dev/null | cut -c1)" != Z ]; then
		STATE=running
		return
	fi
	wait "$pid" 2>/dev/null
	exit_codes[$1]=$?
	unset "pids[$1]"
	STATE="exited ${exit_codes[$1]}"
}
loop_kill() {
	local pid=${pids[$1]:-}
	[ -n "$pid" ] || return 1
	kill -KILL "$pid" 2>/dev/null || return 1
	wait "$pid" 2>/dev/null
	unset "pids[$1]"
}
loop_cut() { [ -n "${pids[$1]:-}" ] && kill -STOP "${pids[$1]}" 2>/dev/null; }
loop_heal() { [ -n "${pids[$1]:-}" ] && kill -CONT "${pids[$1]}" 2>/dev/null; }
loop_stall() { loop_cut "$@"; }
loop_resume() { loop_heal "$@"; }
loop_leader_of() { timeout 20 "$leader_bin" --nats "$loop_urls" "$@" 2>/dev/null; }
loop_node_ready() {
	local a=() url
	mapfile -t a <<<"${args[$1]}"
	url=nats://${a[4]} # the --listen value
	timeout 20 "$census" status --nats "$url" >/dev/null 2>&1
}
loop_run_started() {
	timeout 30 "$census" status --nats "$loop_urls" "$1" --json 2>/dev/null | grep -Eq '"state": "(running|done)"'
}
loop_outputs() { cp -r "$tmp/out/$1/$game-$board" "$2"; }
loop_logs() { tail -n "$2" "$tmp/logs/$1.log" 2>/dev/null; }
loop_count_log() { grep -c -- "$2" "$tmp/logs/$1.log" 2>/dev/null; }

# ---- the two backends behind one set of names ----

start_coordinator() { "${mode/loopback/loop}_start_coordinator" "$@"; }
# role_state sets STATE to "running" or "exited CODE".
role_state() { "${mode/loopback/loop}_state" "$@"; }
kill_role() { "${mode/loopback/loop}_kill" "$@"; }
start_role() { if [ "$mode" = docker ]; then docker_start "$@"; else loop_start "$@"; fi; }
cut() { "${mode/loopback/loop}_cut" "$@"; }
heal() { "${mode/loopback/loop}_heal" "$@"; }
stall() { "${mode/loopback/loop}_stall" "$@"; }
resume() { "${mode/loopback/loop}_resume" "$@"; }
leader_of() { "${mode/loopback/loop}_leader_of" "$@"; }
node_ready() { "${mode/loopback/loop}_node_ready" "$@"; }
run_started() { "${mode/loopback/loop}_run_started" "$@"; }
outputs() { "${mode/loopback/loop}_outputs" "$@"; }
logs() { "${mode/loopback/loop}_logs" "$@"; }
count_log() {
	local n
	n=$("${mode/loopback/loop}_count_log" "$@") || true
	echo "${n:-0}"
}

wait_until() {
	local limit=$1 deadline=$((SECONDS + $1))
	shift
	until "$@"; do
		[ "$SECONDS" -lt "$deadline" ] || return 1
		sleep 1
	done
}
# wait_log ROLE TEXT SECONDS waits until the role logs TEXT; it fails at
# once when the role exits.
wait_log() {
	local deadline=$((SECONDS + $3))
	until [ "$(count_log "$1" "$2")" -gt 0 ]; do
		role_state "$1"
		[ "$STATE" = running ] || return 1
		[ "$SECONDS" -lt "$deadline" ] || return 1
		sleep 1
	done
}

all_roles() {
	[ -n "$s3" ] && echo s3
	echo n1 n2 n3
	seq -f 'worker%g' 1 "$workers"
	echo coordinator
}

print_logs() {
	local r
	for r in $(all_roles); do
		role_state "$r"
		echo "    --- $r ($STATE), last ${1:-20} lines ---"
		logs "$r" "${1:-20}" | sed 's/^/    /'
	done
}

# ---- the cluster ----

if [ "$mode" = docker ]; then
	step="docker build"
	docker_build
	say "built image $image"
	step="starting the cluster"
	docker_up
	say "cluster $project up: ${s3:+S3 server s3, }n1 n2 n3, $workers workers, network ${project}_census"
else
	step="starting the cluster"
	loop_up
	say "cluster up on 127.0.0.1: n1 n2 n3 ($loop_urls), $workers workers"
fi

# ---- trials ----

declare -A injected=() skipped=()
for k in "${kinds[@]}"; do injected[$k]=0 skipped[$k]=0; done
matches=0 mismatches=0 errors=0
results=()

# rand LO HI sets REPLY to a number drawn from the trial's seed; no
# subshell, so that the generator's state carries on.
rand() { REPLY=$(($1 + RANDOM % ($2 - $1 + 1))); }

# plan draws a trial's faults: KIND TARGET GAP HOLD, one a line in FAULTS.
plan() {
	faults=()
	local f perm=() i j tmpk kind target gap hold leaders
	for ((f = 0; f < nfaults; f++)); do
		if ((f % ${#kinds[@]} == 0)); then
			perm=("${kinds[@]}")
			for ((i = ${#perm[@]} - 1; i > 0; i--)); do
				rand 0 "$i"
				j=$REPLY
				tmpk=${perm[i]} perm[i]=${perm[j]} perm[j]=$tmpk
			done
			if [ -n "$short" ]; then
				# The kinds no trial has injected yet come first.
				local missing=() rest=() k
				for k in "${perm[@]}"; do
					if [ "${injected[$k]}" = 0 ]; then missing+=("$k"); else rest+=("$k"); fi
				done
				perm=("${missing[@]}" "${rest[@]}")
			fi
		fi
		kind=${perm[f % ${#kinds[@]}]}
		case $kind in
		worker-kill) rand 1 "$workers"; target=worker$REPLY ;;
		coordinator-kill) target=coordinator ;;
		s3-restart) target=s3 ;;
		nats-kill | nats-stall) rand 1 3; target=n$REPLY ;;
		leader-kill)
			# Whose leader; the node is the one leading it when the
			# fault comes.
			leaders=(bucket-leader jobs-leader consumer-leader)
			rand 0 2
			target=${leaders[REPLY]}
			;;
		partition)
			rand 0 $((workers + 3))
			if ((REPLY < 3)); then
				target=n$((REPLY + 1))
			elif ((REPLY == 3)); then
				target=coordinator
			else
				target=worker$((REPLY - 3))
			fi
			;;
		esac
		rand "$gap_min" "$gap_max"
		gap=$REPLY
		# A short trial's run may end within a gap: its first fault,
		# the kind most needed, comes as soon as the run is stored.
		[ -n "$short" ] && ((f == 0)) && gap=0
		rand "$hold_min" "$hold_max"
		hold=$REPLY
		faults+=("$kind $target $gap $hold")
	done
}

coordinator_running() {
	role_state coordinator
	[ "$STATE" = running ]
}

# sleep_while_running sleeps N seconds, or less if the coordinator exits.
sleep_while_running() {
	local until=$((SECONDS + $1))
	while [ "$SECONDS" -lt "$until" ]; do
		coordinator_running || return 1
		sleep 1
	done
}

# leader_stream is what a leader-kill target names, in the trial's run: the
# run's bucket (KV_census_RUN), the job stream, or the stream and consumer
# the workers share.
leader_stream() {
	case $1 in
	bucket-leader) echo "KV_census_$run" ;;
	jobs-leader) echo CENSUS_JOBS ;;
	consumer-leader) echo CENSUS_JOBS census-workers ;;
	esac
}

# inject runs one fault and undoes it; it fails when the fault could not
# be injected (the run had ended). It sets HIT to the role it hit.
inject() {
	local kind=$1 target=$2 hold=$3 of=()
	HIT=$target
	coordinator_running || return 1
	if [ "$kind" = leader-kill ]; then
		read -r -a of <<<"$(leader_stream "$target")"
		if ! HIT=$(leader_of "${of[@]}"); then
			HIT=""
			coordinator_running || return 1
			trial_error="no leader of ${of[*]} found for the $kind"
			return 0
		fi
		target=$HIT
	fi
	case $kind in
	*-kill | s3-restart)
		kill_role "$target" || return 1
		sleep "$hold"
		start_role "$target" || { trial_error="could not start $target again"; return 0; }
		;;
	partition)
		cut "$target" || return 1
		sleep "$hold"
		heal "$target" || { trial_error="could not reconnect $target"; return 0; }
		;;
	nats-stall)
		stall "$target" || return 1
		sleep "$hold"
		resume "$target" || { trial_error="could not resume $target"; return 0; }
		;;
	esac
	# One fault at a time: a node is back in the cluster before the next.
	if [[ $target == n? ]] && ! wait_until 120 node_ready "$target"; then
		trial_error="NATS node $target did not answer within 120s after the $kind"
	fi
	if [ "$target" = s3 ]; then
		s3_starts=$((s3_starts + 1))
		s3_up "$s3_starts" || trial_error="the S3 server did not serve again within 180s after the $kind"
	fi
	return 0
}

step="running trials"
say "seed $seed: $trials trial(s) of $game $board, $nfaults fault(s) each, gaps $gap_min-${gap_max}s, holds $hold_min-${hold_max}s, AckWait $ack_wait, mode $mode${s3:+ s3}"
for ((trial = 1; trial <= trials; trial++)); do
	if [ -n "$short" ] && [ "$trial" -gt 1 ] && [ "$errors" = 0 ] && [ "$mismatches" = 0 ]; then
		all=1
		for k in "${kinds[@]}"; do [ "${injected[$k]}" -gt 0 ] || all=""; done
		if [ -n "$all" ]; then
			trials=$((trial - 1))
			break
		fi
	fi
	tseed=$((seed + trial - 1))
	RANDOM=$tseed
	plan
	run=chaos-$trial-$tseed
	echo
	say "trial $trial/$trials seed $tseed $game $board run $run"
	trial_error="" result="" log=()
	coord_kills=0
	t0=$SECONDS
	start_coordinator "$run" || fatal "could not start the coordinator of trial $trial"
	# Faults start once the run is stored in NATS: a coordinator killed
	# before it stored anything has nothing to resume.
	wait_until 120 run_started "$run" || trial_error="the run was not in NATS within 120s of the coordinator's start"
	for f in "${faults[@]}"; do
		[ -n "$trial_error" ] && break
		read -r kind target gap hold <<<"$f"
		at=-1
		if ! sleep_while_running "$gap" || ! { at=$((SECONDS - t0)) && inject "$kind" "$target" "$hold"; }; then
			skipped[$kind]=$((skipped[$kind] + 1))
			log+=("$(printf '%-16s %-16s not injected: the run had ended' "$kind" "$target")")
			continue
		fi
		[ -n "$trial_error" ] && [ -z "$HIT" ] && break
		hit=$target
		[ "$HIT" != "$target" ] && hit="$target=$HIT"
		injected[$kind]=$((injected[$kind] + 1))
		[ "$kind" = coordinator-kill ] && coord_kills=$((coord_kills + 1))
		log+=("$(printf '%-16s %-16s at %4ds, held %2ds' "$kind" "$hit" "$at" "$hold")")
		say "  $kind $hit at ${at}s, held ${hold}s"
	done
	# The run must end within the limit.
	while [ -z "$trial_error" ] && coordinator_running; do
		if [ $((SECONDS - t0)) -ge "$limit" ]; then
			trial_error="the run did not finish within ${limit}s"
			break
		fi
		sleep 1
	done
	took=$((SECONDS - t0))
	role_state coordinator
	if [ -z "$trial_error" ] && [ "$STATE" != "exited 0" ]; then
		trial_error="the coordinator $STATE"
	fi
	if [ -z "$trial_error" ]; then
		resumed=$(count_log coordinator 'msg="resuming run"')
		[ "$resumed" -ge "$coord_kills" ] || trial_error="the coordinator was killed $coord_kills time(s) and resumed $resumed time(s)"
	fi
	if [ -z "$trial_error" ]; then
		for r in $(all_roles); do
			[ "$r" = coordinator ] && continue
			role_state "$r"
			[ "$STATE" = running ] || { trial_error="$r $STATE on its own"; break; }
		done
	fi
	if [ -z "$trial_error" ]; then
		rm -rf "$tmp/got"
		if ! outputs "$run" "$tmp/got"; then
			trial_error="no outputs to copy from the coordinator"
		elif "$tmp/cmpout" "$ref" "$tmp/got" >"$tmp/cmp.log" 2>&1; then
			result=match
		else
			result="MISMATCH: $(grep -v '^same' "$tmp/cmp.log" | head -n 3 | tr '\n' ' ')"
		fi
	fi
	if [ -n "$trial_error" ]; then
		result="ERROR: $trial_error"
		errors=$((errors + 1))
		print_logs 30
	elif [ "$result" = match ]; then
		matches=$((matches + 1))
	else
		mismatches=$((mismatches + 1))
		sed 's/^/    /' "$tmp/cmp.log"
	fi
	echo "trial $trial seed $tseed $game $board: ${#log[@]} fault(s) planned, ${took}s, $result"
	for l in "${log[@]}"; do echo "    $l"; done
	results+=("$(printf '%5d  %10d  %5ds  %s' "$trial" "$tseed" "$took" "$result")")

	if [ -n "$trial_error" ]; then
		# The next trial starts from a whole cluster: stop the coordinator,
		# reconnect and start whatever is down.
		kill_role coordinator >/dev/null 2>&1 || true
		for r in $(all_roles); do
			[ "$r" = coordinator ] && continue
			heal "$r" >/dev/null 2>&1 || true
			resume "$r" >/dev/null 2>&1 || true
			role_state "$r"
			[ "$STATE" = running ] || start_role "$r" || true
		done
		for r in n1 n2 n3; do wait_until 120 node_ready "$r" || true; done
	fi
done

# ---- the table ----

echo
echo "chaos: mode $mode${s3:+ s3}, $game $board, seed $seed, $workers workers, AckWait $ack_wait"
echo "trial        seed  duration  result"
printf '%s\n' "${results[@]}"
echo
printf '%-18s %9s %13s\n' "fault" "injected" "not injected"
total=0
for k in "${kinds[@]}"; do
	printf '%-18s %9d %13d\n' "$k" "${injected[$k]}" "${skipped[$k]}"
	total=$((total + injected[$k]))
done
printf '%-18s %9d\n' "all" "$total"
echo
printf '%-12s %5d\n' trials "$trials" matches "$matches" mismatches "$mismatches" errors "$errors"
echo "faults$(for k in "${kinds[@]}"; do printf ' %s=%d' "$k" "${injected[$k]}"; done)"
step="reporting"
if [ "$mismatches" -gt 0 ] || [ "$errors" -gt 0 ]; then
	verdict="FAIL chaos: $mismatches mismatch(es), $errors error(s) in $trials trial(s), seed $seed, mode $mode${s3:+ s3}"
	exit 1
fi
verdict="PASS chaos: $trials trial(s) of $game $board matched, $total fault(s) injected, seed $seed, mode $mode${s3:+ s3}"
