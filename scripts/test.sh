#!/usr/bin/env bash
# The whole test suite, from a fresh clone: every Rust test of the workspace, then the
# end-to-end tests (which install their MCP servers and the Python MCP client into local
# folders: .cache/e2e-venv and e2e/node_modules).
set -euo pipefail
cd "$(dirname "$0")/.."

# nextest runs each test in its own process, in parallel; doctests need cargo test.
if command -v cargo-nextest >/dev/null 2>&1; then
  cargo nextest run --workspace --no-fail-fast
  cargo test --workspace --doc
else
  cargo test --workspace --no-fail-fast
fi

e2e/run.sh
