#!/usr/bin/env bash
# Builds and runs the Go example with the standard library alone (apt-get install golang-go): no module to
# download. The build cache defaults to a temporary directory, so it also works without a home directory.
set -euo pipefail
cd "$(dirname "$0")"
command -v go >/dev/null || { echo "needs go (apt-get install golang-go)" >&2; exit 127; }
export GOCACHE="${GOCACHE:-${TMPDIR:-/tmp}/partner-gateway-examples-go-cache}" GOPROXY=off GOTOOLCHAIN=local
go build -o build/banks .
exec build/banks
