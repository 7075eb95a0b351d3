#!/usr/bin/env bash
# Per-call overhead of `toolshape serve` against the sample upstream reached directly and
# through mcp-proxy, with the official Python MCP client: see bench/overhead.py.
#
# Installs into local folders only (e2e/setup.sh --with-proxy: .cache/e2e-venv with the
# `mcp` SDK, .cache/e2e-proxy-venv with mcp-proxy), builds the release binaries, then runs
# bench/overhead.py with the e2e venv's Python. Loopback only.
#
# Usage: bench/overhead.sh [--calls N] [--warmup N] [--seconds S] [--no-proxy] [--no-big]
set -euo pipefail
cd "$(dirname "$0")/.."

e2e/setup.sh --with-proxy
# The build directory may be shared: cargo waits for its lock if another build holds it.
cargo build --release -p toolshape -p toolshape-sample-upstream
exec .cache/e2e-venv/bin/python bench/overhead.py "$@"
