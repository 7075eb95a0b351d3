#!/usr/bin/env bash
# Installs what the end-to-end tests need, into local folders only:
#   .cache/e2e-venv     Python venv: the official MCP SDK (the test client), pytest,
#                       mcp-server-git and mcp-server-time (e2e/requirements.txt)
#   e2e/node_modules    server-everything, server-filesystem, server-memory (package-lock.json)
#   e2e/clients/node_modules  Claude Code, Codex and Gemini CLI, only with TOOLSHAPE_HEAVY_TESTS=1
# With --with-proxy, also .cache/e2e-proxy-venv with mcp-proxy (for the overhead benchmark).
#
# Idempotent and quick when nothing changed: each part is reinstalled only when its pins
# (or the Python or Node version) changed since the last install.
set -euo pipefail
cd "$(dirname "$0")/.."

with_proxy=0
for arg in "$@"; do
  case "$arg" in
    --with-proxy) with_proxy=1 ;;
    *) echo "usage: e2e/setup.sh [--with-proxy]" >&2; exit 2 ;;
  esac
done

need() { command -v "$1" >/dev/null 2>&1 || { echo "e2e/setup.sh: \`$1\` is required but not installed" >&2; exit 1; }; }
need python3
need node
need npm
need git

python3 - <<'PY' || { echo "e2e/setup.sh: Python 3.10 or newer is required" >&2; exit 1; }
import sys
sys.exit(0 if sys.version_info >= (3, 10) else 1)
PY
node_major=$(node -p 'process.versions.node.split(".")[0]')
if [ "$node_major" -lt 18 ]; then
  echo "e2e/setup.sh: Node 18 or newer is required (found $(node --version))" >&2
  exit 1
fi

# A stamp records what an install was made from; a different stamp means reinstall.
stamp_of() { { python3 --version; node --version; cat "$@"; } | sha256sum | cut -d' ' -f1; }

install_venv() { # venv requirements...
  local venv=$1; shift
  local want; want=$(stamp_of "$@" e2e/constraints.txt)
  if [ -x "$venv/bin/python" ] && [ "$(cat "$venv/.e2e-stamp" 2>/dev/null)" = "$want" ]; then
    return
  fi
  echo "e2e/setup.sh: installing $* into $venv" >&2
  rm -rf "$venv"
  python3 -m venv "$venv"
  "$venv/bin/python" -m pip install --quiet --disable-pip-version-check --no-input "${@/#/-r}"
  echo "$want" > "$venv/.e2e-stamp"
}

install_venv .cache/e2e-venv e2e/requirements.txt
if [ "$with_proxy" = 1 ]; then
  install_venv .cache/e2e-proxy-venv e2e/requirements-proxy.txt
fi

want=$(stamp_of e2e/package.json e2e/package-lock.json)
if [ ! -x e2e/node_modules/.bin/mcp-server-everything ] || [ "$(cat e2e/node_modules/.e2e-stamp 2>/dev/null)" != "$want" ]; then
  echo "e2e/setup.sh: installing e2e/package-lock.json into e2e/node_modules" >&2
  (cd e2e && npm ci --no-audit --no-fund --loglevel=error)
  echo "$want" > e2e/node_modules/.e2e-stamp
fi

# The client CLIs (Claude Code, Codex, Gemini CLI; about 900 MB) only for the heavy tests.
if [ "${TOOLSHAPE_HEAVY_TESTS:-}" = 1 ]; then
  want=$(stamp_of e2e/clients/package.json e2e/clients/package-lock.json)
  if [ ! -x e2e/clients/node_modules/.bin/claude ] || [ "$(cat e2e/clients/node_modules/.e2e-stamp 2>/dev/null)" != "$want" ]; then
    echo "e2e/setup.sh: installing e2e/clients/package-lock.json into e2e/clients/node_modules" >&2
    (cd e2e/clients && npm ci --no-audit --no-fund --loglevel=error)
    echo "$want" > e2e/clients/node_modules/.e2e-stamp
  fi
fi
