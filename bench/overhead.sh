#!/usr/bin/env bash
# Per-call overhead of `toolshape serve` against the sample upstream reached directly,
# through mcp-proxy (PyPI), the Rust mcp-proxy (crates.io) and a FastMCP proxy, with the official Python MCP client: see
# bench/overhead.py. bench/run.sh runs it as part of the whole suite; this runs it alone.
#
# Installs into local folders only (e2e/setup.sh --with-proxy: .cache/e2e-venv with the
# `mcp` SDK, .cache/e2e-proxy-venv with mcp-proxy; bench/.venv with fastmcp, from
# bench/requirements.txt; the Rust mcp-proxy 0.6.0 with `cargo install --locked` into
# .cache/rust-mcp-proxy), builds the release binaries, then runs bench/overhead.py with
# the e2e venv's Python. Loopback only.
#
# Usage: bench/overhead.sh [--calls N] [--warmup N] [--seconds S] [--no-proxy] [--no-rust-proxy] [--no-fastmcp] [--no-medium] [--no-big] [--json FILE]
set -euo pipefail
cd "$(dirname "$0")/.."

e2e/setup.sh --with-proxy
if ! bench/.venv/bin/python -c 'import fastmcp' 2>/dev/null; then
    python3 -m venv bench/.venv
    bench/.venv/bin/python -m pip install --quiet --disable-pip-version-check --no-input -r bench/requirements.txt
fi
if [ ! -x .cache/rust-mcp-proxy/bin/mcp-proxy ]; then
    # Its own target folder: the proxy's dependencies stay out of toolshape's.
    CARGO_TARGET_DIR=.cache/rust-mcp-proxy/target cargo install mcp-proxy --version 0.6.0 --locked \
        --no-default-features --root .cache/rust-mcp-proxy
fi
# The build directory may be shared: cargo waits for its lock if another build holds it.
cargo build --release -p toolshape -p toolshape-sample-upstream
exec .cache/e2e-venv/bin/python bench/overhead.py "$@"
