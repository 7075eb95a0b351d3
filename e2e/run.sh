#!/usr/bin/env bash
# The end-to-end tests: install their servers and client (e2e/setup.sh), build toolshape and
# the sample upstream, then run `pytest -q e2e`. Extra arguments go to pytest
# (e.g. `e2e/run.sh -k faults -x`). Exits non-zero on any failure, and when no test ran.
set -euo pipefail
cd "$(dirname "$0")/.."

seconds() { date +%s.%N; }
t0=$(seconds)
e2e/setup.sh
t1=$(seconds)
# The README's first command: the quickstart's `cargo run --bin toolshape-sample-upstream`
# finds this build ready (same dependency features), as a newcomer's does.
cargo build --quiet -p toolshape -p toolshape-sample-upstream
t2=$(seconds)

set +e
.cache/e2e-venv/bin/python -m pytest -q e2e "$@"
status=$?
set -e
t3=$(seconds)

awk -v a="$t0" -v b="$t1" -v c="$t2" -v d="$t3" \
  'BEGIN { printf "e2e: setup %.1f s, build %.1f s, tests %.1f s\n", b - a, c - b, d - c }' >&2
if [ "$status" -eq 5 ]; then
  echo "e2e: no tests ran" >&2
  exit 1
fi
exit "$status"
