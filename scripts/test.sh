#!/usr/bin/env bash
# The whole test suite, from a fresh clone: every Rust test of the workspace, then the
# end-to-end tests (which install their MCP servers and the Python MCP client into local
# folders: .cache/e2e-venv and e2e/node_modules).
set -euo pipefail
cd "$(dirname "$0")/.."

# The tests that need Chromium, redis-server or Python run instead of skipping, as they do
# in a bare `cargo test` (Chromium and redis-server are installed below when missing).
export TOOLSHAPE_HEAVY_TESTS=1

# install_deb PACKAGE: install a Debian package (with sudo when not root), or stop with a
# clear message where apt-get is not available.
install_deb() {
  if ! command -v apt-get >/dev/null 2>&1; then
    echo "$1 is missing and apt-get is not available: install it by hand first" >&2
    exit 1
  fi
  local sudo=""
  if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
  $sudo env DEBIAN_FRONTEND=noninteractive apt-get update -qq
  $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$1"
}

# The Redis store's tests start a real redis-server of their own.
command -v redis-server >/dev/null 2>&1 || install_deb redis-server

# The HTML report is tested in headless Chromium (or set CHROMIUM=/path/to/chrome).
if [ -z "${CHROMIUM:-}" ] && ! command -v chromium >/dev/null 2>&1 && ! command -v chromium-browser >/dev/null 2>&1 \
  && ! command -v google-chrome >/dev/null 2>&1; then
  install_deb chromium
fi

# nextest runs each test in its own process, in parallel; doctests need cargo test.
if command -v cargo-nextest >/dev/null 2>&1; then
  cargo nextest run --workspace --no-fail-fast
  cargo test --workspace --doc
else
  cargo test --workspace --no-fail-fast
fi

e2e/run.sh
