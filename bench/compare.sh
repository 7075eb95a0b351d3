#!/usr/bin/env bash
# Side-by-side timings of toolshape against the tools people would otherwise reach for,
# in one run, on the same generated files:
#
#   1. projection + sort of 100,000 records into 2,000 tokens: `toolshape shape` vs `jq`
#      vs a plain Python implementation (json + tiktoken, bench/truncate.py)
#   2. a 10 MB log cut at whole lines to 2,000 tokens: `toolshape shape` vs the same
#      Python implementation
#   3. counting o200k_base tokens of a JSON file: `toolshape tokens` vs Python `tiktoken`
#
# Every command of a group runs once per round, in a shuffled order, for RUNS rounds after
# one warm-up (bench/pairs.py); it reports medians, min-max and the ratio to toolshape taken
# round by round. Everything is offline after the one-time installs: jq from Debian's
# packages (only if missing), tiktoken from PyPI into bench/.venv, and tiktoken's BPE table
# taken from the tiktoken-rs crate already in the cargo registry (tiktoken would otherwise
# download it).
#
# Usage: bench/compare.sh [RECORDS] [TOKENS_FILE_MB] [--out FILE]   (defaults: 100000 and 10)
# Environment: RUNS (default 5); BENCH_SKIP_BUILD=1 uses the release binaries as they are.
set -euo pipefail

cd "$(dirname "$0")/.."
ROOT=$(pwd)
OUT=""
ARGS=()
while [ $# -gt 0 ]; do
    case "$1" in
        --out) OUT=$2; shift 2 ;;
        *) ARGS+=("$1"); shift ;;
    esac
done
RECORDS=${ARGS[0]:-100000}
TOKENS_MB=${ARGS[1]:-10}
RUNS=${RUNS:-5}
DATA="$ROOT/bench/out/data"
VENV="$ROOT/bench/.venv"
mkdir -p "$DATA"

say() { printf '\n== %s\n' "$*"; }

say "machine"
echo "cores: $(nproc)"
lscpu | grep 'Model name' | sed 's/^ *//' || true

say "tools"
if ! command -v jq >/dev/null; then
    echo "installing jq" && { apt-get install -y jq >/dev/null 2>&1 || { apt-get update -qq && apt-get install -y jq >/dev/null; }; }
fi
jq --version

if [ ! -x "$VENV/bin/python" ]; then
    echo "creating $VENV with tiktoken"
    python3 -m venv "$VENV"
    "$VENV/bin/pip" install --quiet --disable-pip-version-check tiktoken
elif ! "$VENV/bin/python" -c 'import tiktoken' 2>/dev/null; then
    "$VENV/bin/pip" install --quiet --disable-pip-version-check tiktoken
fi
"$VENV/bin/python" -c 'import tiktoken; print("tiktoken", tiktoken.__version__)'

# tiktoken looks for its table in TIKTOKEN_CACHE_DIR under the sha1 of the download URL.
URL=https://openaipublic.blob.core.windows.net/encodings/o200k_base.tiktoken
export TIKTOKEN_CACHE_DIR="$ROOT/.cache/tiktoken"
mkdir -p "$TIKTOKEN_CACHE_DIR"
KEY=$(printf '%s' "$URL" | sha1sum | cut -d' ' -f1)
if [ ! -s "$TIKTOKEN_CACHE_DIR/$KEY" ]; then
    ASSET=$(ls -d "${CARGO_HOME:-$HOME/.cargo}"/registry/src/*/tiktoken-rs-*/assets/o200k_base.tiktoken 2>/dev/null | sort | tail -1)
    if [ -z "$ASSET" ]; then
        echo "o200k_base.tiktoken not found in the cargo registry: run 'cargo bench -p toolshape-tokens --no-run' first" >&2
        exit 1
    fi
    cp "$ASSET" "$TIKTOKEN_CACHE_DIR/$KEY"
fi

say "building release binaries"
# bench/run.sh builds once for every part and sets BENCH_SKIP_BUILD.
[ -n "${BENCH_SKIP_BUILD:-}" ] || cargo build --release --quiet -p toolshape -p toolshape-fixtures
BIN="$ROOT/target/release"

say "generating payloads"
ROWS="$DATA/rows-$RECORDS.json"
ISSUES="$DATA/issues-${TOKENS_MB}MB.json"
[ -s "$ROWS" ] || "$BIN/toolshape-fixtures" table "$RECORDS" --seed 7 -o "$ROWS"
[ -s "$ISSUES" ] || "$BIN/toolshape-fixtures" issues --bytes "${TOKENS_MB}MB" --seed 7 -o "$ISSUES"
ls -l "$ROWS" "$ISSUES" | awk '{print $5, $9}'

LOG="$DATA/log-${TOKENS_MB}MB.txt"
[ -s "$LOG" ] || "$BIN/toolshape-fixtures" logs --bytes "${TOKENS_MB}MB" --seed 7 -o "$LOG"

# The same projection (with a rename) and descending sort in all three. jq has no budget,
# so it keeps the first 25 records, about what fits 2,000 tokens; it still sorts them all.
PY="$VENV/bin/python"
TS_SHAPE=("$BIN/toolshape" shape --budget 2000 --nonce 0123456789abcdef
    --project "order_id,date,country,product,amount,customer as buyer" --sort amount:desc "$ROWS")
JQ_SHAPE=(jq -c 'sort_by(-.amount) | map({order_id, date, country, product, amount, buyer: .customer}) | .[:25]' "$ROWS")
PY_SHAPE=("$PY" bench/truncate.py records "$ROWS" 2000 amount order_id date country product amount customer=buyer)
TS_TEXT=("$BIN/toolshape" shape --budget 2000 --nonce 0123456789abcdef "$LOG")
PY_TEXT=("$PY" bench/truncate.py text "$LOG" 2000)
TS_TOKENS=("$BIN/toolshape" tokens "$ISSUES")
cat >"$DATA/count_tiktoken.py" <<'PY'
import sys

import tiktoken

enc = tiktoken.get_encoding("o200k_base")
with open(sys.argv[1], encoding="utf-8") as f:
    print(len(enc.encode_ordinary(f.read())))
PY
PY_TOKENS=("$PY" "$DATA/count_tiktoken.py" "$ISSUES")

say "sanity: each side does the same work"
echo "toolshape shape keeps: $("${TS_SHAPE[@]}" | sed -n 2p | jq -r '.summary')"
echo "jq first record:       $("${JQ_SHAPE[@]}" | jq -c '.[0]')"
echo "python first record:   $("${PY_SHAPE[@]}" 2>/dev/null | jq -c '.[0]')  ($("${PY_SHAPE[@]}" 2>&1 >/dev/null))"
echo "toolshape text:        $("${TS_TEXT[@]}" | sed -n 2p | jq -r '.summary')"
echo "python text:           $("${PY_TEXT[@]}" 2>&1 >/dev/null)"
TS_COUNT=$("${TS_TOKENS[@]}")
PY_COUNT=$("${PY_TOKENS[@]}")
echo "tokens: toolshape $TS_COUNT, tiktoken $PY_COUNT"
if [ "$TS_COUNT" != "$PY_COUNT" ]; then echo "WARNING: token counts differ" >&2; fi

# One JSON spec for bench/pairs.py, built with jq so that every argument is quoted right.
spec() { # group name argv... ; prints one command object
    local name=$1; shift
    printf '%s\0' "$@" | jq -Rs --arg name "$name" '{name: $name, argv: (split("\u0000") | map(select(length > 0)))}'
}
SPEC="$DATA/compare-spec.json"
{
    spec "toolshape shape --project … --sort amount:desc --budget 2000" "${TS_SHAPE[@]}" | jq '{group: "project + sort, '"$RECORDS"' rows ('"$(du -h "$ROWS" | cut -f1)"')", c: .}'
    spec "jq 'sort_by(-.amount) | map({…}) | .[:25]'" "${JQ_SHAPE[@]}" | jq '{group: "project + sort, '"$RECORDS"' rows ('"$(du -h "$ROWS" | cut -f1)"')", c: .}'
    spec "Python json + tiktoken (bench/truncate.py records)" "${PY_SHAPE[@]}" | jq '{group: "project + sort, '"$RECORDS"' rows ('"$(du -h "$ROWS" | cut -f1)"')", c: .}'
    spec "toolshape shape --budget 2000" "${TS_TEXT[@]}" | jq '{group: "log cut at lines to 2,000 tokens ('"$(du -h "$LOG" | cut -f1)"')", c: .}'
    spec "Python tiktoken, line by line (bench/truncate.py text)" "${PY_TEXT[@]}" | jq '{group: "log cut at lines to 2,000 tokens ('"$(du -h "$LOG" | cut -f1)"')", c: .}'
    spec "toolshape tokens" "${TS_TOKENS[@]}" | jq '{group: "o200k_base token count ('"$(du -h "$ISSUES" | cut -f1)"' JSON)", c: .}'
    spec "Python tiktoken encode_ordinary" "${PY_TOKENS[@]}" | jq '{group: "o200k_base token count ('"$(du -h "$ISSUES" | cut -f1)"' JSON)", c: .}'
} | jq -s 'group_by(.group) as $g | [ .[] | .group ] | unique as $order | [ $g[] | {group: .[0].group, commands: map(.c)} ]' >"$SPEC"

say "timings ($RUNS rounds, interleaved)"
if [ -n "$OUT" ]; then
    "$PY" bench/pairs.py --runs "$RUNS" "$SPEC" --json "${OUT%.md}.json" | tee "$OUT"
else
    "$PY" bench/pairs.py --runs "$RUNS" "$SPEC"
fi
