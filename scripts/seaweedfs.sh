#!/usr/bin/env bash
# Builds the SeaweedFS binary (`weed`) that the S3 store's tests, the Docker
# cluster test (S3 mode) and test/chaos/chaos.sh --s3 run as their S3
# server, unless it is cached already, and prints its path.
#
# SeaweedFS comes from the Go module proxy at the version pinned in
# internal/testbin/seaweedfs.go; it is built inside a copy of its own
# source tree (its go.mod has replace directives, so `go install` cannot
# build it), static (CGO_ENABLED=0), once per version, under a file lock,
# into the test binary cache ($CENSUS_TESTBIN_CACHE, default census-testbin
# in the user's cache directory). The first build takes several minutes;
# later calls return at once. CENSUS_SEAWEEDFS=PATH names a weed binary to
# use instead. .ci/run runs this before `go test ./...`.
set -euo pipefail
cd "$(dirname "$0")/.."
exec go run ./internal/testbin/seaweedfs
