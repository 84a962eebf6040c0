#!/usr/bin/env bash
# The test command (README): every test, the end-to-end ones included.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo test --locked "$@"
