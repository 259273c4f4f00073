#!/usr/bin/env bash
# Vet and test the DuckDB interop module: it runs docs/outputs.md's DuckDB queries
# against censuses made by the census binary of the parent module.
#
# The module links DuckDB through cgo (gcc and g++ are needed). The first
# build with an empty Go build cache compiles the DuckDB driver and links its
# large static library, which takes minutes; later runs reuse the cache.
set -euo pipefail
cd "$(dirname "$0")"
if ! command -v gcc >/dev/null || ! command -v g++ >/dev/null; then
  apt-get update
  DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends gcc g++
fi
export CGO_ENABLED=1
go vet ./...
go test ./...
