#!/usr/bin/env bash
# Builds the Docker image of the SeaweedFS S3 server used by the S3 modes
# of test/docker/run.sh and test/chaos/chaos.sh, unless it exists, and prints
# its name: census-seaweedfs-test:HASH, HASH the start of the binary's
# SHA-256, so that an image is built once per binary and kept (remove it
# with docker image rm; it carries the label census.test=1).
#
# The binary is $CENSUS_SEAWEEDFS when set, else the one scripts/seaweedfs.sh
# builds and caches (several minutes the first time). No base image, no
# network: test/docker/Dockerfile.seaweedfs is FROM scratch.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
weed=${CENSUS_SEAWEEDFS:-}
if [ -z "$weed" ]; then
	weed=$("$root/scripts/seaweedfs.sh")
fi
[ -x "$weed" ] || { echo "seaweedfs-image.sh: $weed is not an executable" >&2; exit 1; }
hash=$(sha256sum "$weed" | cut -c1-12)
image=census-seaweedfs-test:$hash
if docker image inspect "$image" >/dev/null 2>&1; then
	echo "$image"
	exit 0
fi
ctx=$(mktemp -d "${TMPDIR:-/tmp}/census-seaweedfs-image.XXXXXX")
trap 'rm -rf "$ctx"' EXIT
mkdir -p "$ctx/rootfs/tmp" "$ctx/data"
chmod 1777 "$ctx/rootfs/tmp"
chmod 0755 "$ctx/data"
# A hard link when the cache is on the same file system: no 200 MB copy.
ln "$weed" "$ctx/weed" 2>/dev/null || cp "$weed" "$ctx/weed"
cp "$here/Dockerfile.seaweedfs" "$ctx/Dockerfile"
if ! docker build -t "$image" "$ctx" >"$ctx/build.log" 2>&1; then
	sed 's/^/  /' "$ctx/build.log" >&2
	echo "seaweedfs-image.sh: docker build of $image failed" >&2
	exit 1
fi
echo "$image"
