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

# The whole suite runs its test files side by side (E2E_WORKERS processes; most of a test's
# time is spent waiting on the servers it starts), then the tests marked `serial` (bounds on
# how long calls take, or `cargo run` in the shared build folder) one at a time. A selection
# given as arguments runs in one process, so that `-s` and `-x` behave as usual.
pytest=(.cache/e2e-venv/bin/python -m pytest -q)
set +e
if [ "$#" -eq 0 ] && [ "${E2E_WORKERS:-4}" -gt 1 ]; then
  "${pytest[@]}" -n "${E2E_WORKERS:-4}" --dist loadfile -m "not serial" e2e
  side_by_side=$?
  "${pytest[@]}" -m serial e2e
  alone=$?
  # 5 is pytest's "no tests ran": an error only if neither run found any.
  if [ "$side_by_side" -eq 5 ] && [ "$alone" -eq 5 ]; then status=5
  elif [ "$side_by_side" -ne 0 ] && [ "$side_by_side" -ne 5 ]; then status=$side_by_side
  elif [ "$alone" -ne 0 ] && [ "$alone" -ne 5 ]; then status=$alone
  else status=0
  fi
else
  "${pytest[@]}" e2e "$@"
  status=$?
fi
set -e
t3=$(seconds)

awk -v a="$t0" -v b="$t1" -v c="$t2" -v d="$t3" \
  'BEGIN { printf "e2e: setup %.1f s, build %.1f s, tests %.1f s\n", b - a, c - b, d - c }' >&2
if [ "$status" -eq 5 ]; then
  echo "e2e: no tests ran" >&2
  exit 1
fi
exit "$status"
