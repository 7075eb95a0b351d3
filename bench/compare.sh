#!/usr/bin/env bash
# Side-by-side timings of toolshape against the tools people would otherwise reach for,
# in one run, on the same generated files:
#
#   1. projection + sort of 100,000 records: `toolshape shape` vs `jq`
#   2. counting o200k_base tokens of a JSON file: `toolshape tokens` vs Python `tiktoken`
#
# Each command runs 5 times (after one warm-up run); the script prints medians and ratios.
# It uses hyperfine when installed and a `date +%s%N` loop otherwise. Everything is offline
# after the one-time installs: jq from Debian's packages, tiktoken from PyPI into
# .cache/bench-venv, and tiktoken's BPE table taken from the tiktoken-rs crate already in
# the cargo registry (tiktoken would otherwise download it).
#
# Usage: bench/compare.sh [RECORDS] [TOKENS_FILE_MB]   (defaults: 100000 and 10)
set -euo pipefail

cd "$(dirname "$0")/.."
ROOT=$(pwd)
RECORDS=${1:-100000}
TOKENS_MB=${2:-10}
RUNS=5
DATA="$ROOT/.cache/bench-data"
VENV="$ROOT/.cache/bench-venv"
mkdir -p "$DATA"

say() { printf '\n== %s\n' "$*"; }

say "machine"
echo "cores: $(nproc)"
lscpu | grep 'Model name' | sed 's/^ *//' || true

say "tools"
if ! command -v jq >/dev/null; then
    echo "installing jq" && apt-get install -y jq >/dev/null
fi
jq --version
HAVE_HYPERFINE=0
if command -v hyperfine >/dev/null; then HAVE_HYPERFINE=1; hyperfine --version; else echo "hyperfine not found: timing with a shell loop"; fi

if [ ! -x "$VENV/bin/python" ]; then
    echo "creating $VENV with tiktoken"
    python3 -m venv "$VENV"
    "$VENV/bin/pip" install --quiet tiktoken
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
cargo build --release --quiet -p toolshape -p toolshape-fixtures
BIN="$ROOT/target/release"

say "generating payloads"
ROWS="$DATA/rows-$RECORDS.json"
ISSUES="$DATA/issues-${TOKENS_MB}MB.json"
[ -s "$ROWS" ] || "$BIN/toolshape-fixtures" table "$RECORDS" --seed 7 -o "$ROWS"
[ -s "$ISSUES" ] || "$BIN/toolshape-fixtures" issues --bytes "${TOKENS_MB}MB" --seed 7 -o "$ISSUES"
ls -l "$ROWS" "$ISSUES" | awk '{print $5, $9}'

# The same projection (with a rename) and descending sort in both tools. jq has no budget,
# so it keeps the first 25 records, about what fits 2,000 tokens; it still sorts them all.
TS_SHAPE=("$BIN/toolshape" shape --budget 2000 --nonce 0123456789abcdef
    --project "order_id,date,country,product,amount,customer as buyer" --sort amount:desc "$ROWS")
JQ_SHAPE=(jq -c 'sort_by(-.amount) | map({order_id, date, country, product, amount, buyer: .customer}) | .[:25]' "$ROWS")
TS_TOKENS=("$BIN/toolshape" tokens "$ISSUES")
# A script file rather than `python -c`: hyperfine hands commands to a shell, and a
# multi-line argument does not survive that quoting everywhere.
cat >"$DATA/count_tiktoken.py" <<'PY'
import sys

import tiktoken

enc = tiktoken.get_encoding("o200k_base")
with open(sys.argv[1], encoding="utf-8") as f:
    print(len(enc.encode_ordinary(f.read())))
PY
PY_TOKENS=("$VENV/bin/python" "$DATA/count_tiktoken.py" "$ISSUES")

say "sanity: both sides do the same work"
echo "toolshape shape keeps: $("${TS_SHAPE[@]}" | sed -n 2p | jq -r '.summary')"
echo "jq first record:       $("${JQ_SHAPE[@]}" | jq -c '.[0]')"
TS_COUNT=$("${TS_TOKENS[@]}")
PY_COUNT=$("${PY_TOKENS[@]}")
echo "tokens: toolshape $TS_COUNT, tiktoken $PY_COUNT"
if [ "$TS_COUNT" != "$PY_COUNT" ]; then echo "WARNING: token counts differ" >&2; fi

# median_ms NAME CMD...: run CMD RUNS times after one warm-up, print the median in ms.
RESULTS="$DATA/results.txt"
: > "$RESULTS"
median_ms() {
    local name=$1
    shift
    local ms
    if [ "$HAVE_HYPERFINE" = 1 ]; then
        local json="$DATA/$name.json"
        # hyperfine takes a shell string: quote each argument.
        local cmd
        cmd=$(printf '%q ' "$@")
        hyperfine --shell bash --style none --warmup 1 --runs "$RUNS" --output null --export-json "$json" "$cmd" >/dev/null
        ms=$(jq '.results[0].median * 1000 | . * 10 | round / 10' "$json")
    else
        "$@" >/dev/null
        local times=()
        for _ in $(seq "$RUNS"); do
            local t0 t1
            t0=$(date +%s%N)
            "$@" >/dev/null
            t1=$(date +%s%N)
            times+=($(((t1 - t0) / 1000)))
        done
        ms=$(printf '%s\n' "${times[@]}" | sort -n | awk -v n="$RUNS" 'NR == int((n + 1) / 2) {printf "%.1f", $1 / 1000}')
    fi
    echo "$name $ms" >>"$RESULTS"
    printf '  %-28s median %10s ms  (%d runs)\n' "$name" "$ms" "$RUNS"
}

say "1. projection + sort of $RECORDS records ($(du -h "$ROWS" | cut -f1))"
median_ms toolshape_shape "${TS_SHAPE[@]}"
median_ms jq "${JQ_SHAPE[@]}"

say "2. o200k_base token count of $(du -h "$ISSUES" | cut -f1) of JSON"
median_ms toolshape_tokens "${TS_TOKENS[@]}"
median_ms python_tiktoken "${PY_TOKENS[@]}"

ms_of() { awk -v k="$1" '$1 == k {print $2}' "$RESULTS"; }
ratio() { awk -v a="$(ms_of "$1")" -v b="$(ms_of "$2")" 'BEGIN {if (a > 0) printf "%.1fx", b / a; else print "n/a"}'; }
say "ratios (other tool's median / toolshape's median; above 1x means toolshape is faster)"
echo "  jq / toolshape shape:                $(ratio toolshape_shape jq)"
echo "  python tiktoken / toolshape tokens:  $(ratio toolshape_tokens python_tiktoken)"
