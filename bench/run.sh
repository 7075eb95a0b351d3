#!/usr/bin/env bash
# The side-by-side benchmark suite, in one command. Micro benchmarks are `cargo bench`
# (see BENCHMARKS.md); this script runs the whole-process and side-by-side parts:
#
#   1. context saved    bench/context.py   tokens read four ways, and whether answers survive
#   2. gateway overhead bench/overhead.py  direct, toolshape, mcp-proxy, FastMCP proxy; stdio, HTTP
#   3. shaping cost     bench/compare.sh   toolshape vs jq vs Python json + tiktoken
#   4. throughput       bench/load.py      32 concurrent HTTP sessions for 20 s, three servers
#   5. zero-config      bench/zero-config  answers found without a mask, 82 API shapes, 570 questions
#   6. start and memory bench/cold_start.py, bench/memory.py  spawn to tool list and first call;
#                                          resident memory idle, listed, after 1,000 mixed calls
#
# Installs the peers into local folders only, never globally:
#   bench/.venv         fastmcp, tiktoken (and the mcp SDK they bring): bench/requirements.txt
#   bench/.venv-proxy   mcp-proxy (needs mcp<2): e2e/requirements-proxy.txt
#   .cache/e2e-venv, e2e/node_modules   the MCP client and the real servers (e2e/setup.sh)
#   jq                  from Debian's packages, only if it is missing
# then builds toolshape, the sample upstream and the fixtures generator in release.
#
# Every load stops by itself; the whole run takes about 10 to 15 minutes on 2 cores. The
# result tables (markdown) go to bench/out/results-DATE.md with the date and the machine,
# and the condensed ones BENCHMARKS.md shows to bench/out/DATE/condensed.md (bench/report.py).
#
# Usage: bench/run.sh [--quick] [--no-build] [--only context|overhead|compare|load|zero-config|footprint]
#   --quick     fewer samples (a smoke test of the suite, numbers not for publishing)
#   --no-build  use the release binaries already in target/ (e.g. while the tree does not build)
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$(pwd)

quick=0
build=1
only=""
while [ $# -gt 0 ]; do
    case "$1" in
        --quick) quick=1 ;;
        --no-build) build=0 ;;
        --only) only=$2; shift ;;
        *) echo "usage: bench/run.sh [--quick] [--no-build] [--only context|overhead|compare|load|zero-config|footprint]" >&2; exit 2 ;;
    esac
    shift
done
wants() { [ -z "$only" ] || [ "$only" = "$1" ]; }
say() { printf '\n== %s (%s)\n' "$*" "$(date -u +%H:%M:%S)" >&2; }

# --- installs -------------------------------------------------------------------------
say "installing the peers locally"
install_venv() { # venv requirements-file
    local venv=$1 req=$2
    local want
    want=$({ python3 --version; cat "$req"; } | sha256sum | cut -d' ' -f1)
    if [ -x "$venv/bin/python" ] && [ "$(cat "$venv/.bench-stamp" 2>/dev/null)" = "$want" ]; then
        return
    fi
    echo "installing $req into $venv" >&2
    rm -rf "$venv"
    python3 -m venv "$venv"
    "$venv/bin/python" -m pip install --quiet --disable-pip-version-check --no-input -r "$req"
    echo "$want" >"$venv/.bench-stamp"
}
install_venv bench/.venv bench/requirements.txt
install_venv bench/.venv-proxy e2e/requirements-proxy.txt
e2e/setup.sh
if ! command -v jq >/dev/null; then
    echo "installing jq (apt-get)" >&2
    apt-get install -y jq >/dev/null 2>&1 || { apt-get update -qq && apt-get install -y jq >/dev/null; }
fi

if [ "$build" = 1 ]; then
    say "building release binaries"
    cargo build --release -p toolshape -p toolshape-sample-upstream -p toolshape-fixtures -p toolshape-zero-config
fi
export BENCH_SKIP_BUILD=1 E2E_PROFILE=release
CLIENT="$ROOT/.cache/e2e-venv/bin/python"

# --- results file ---------------------------------------------------------------------
STAMP=$(date -u +%Y-%m-%dT%H%M)
OUT="$ROOT/bench/out/$STAMP"
mkdir -p "$OUT"
RESULTS="$ROOT/bench/out/results-$STAMP.md"
cpu=$(lscpu | sed -n 's/^Model name: *//p' | head -1)
ram=$(free -g | awk '/^Mem:/ {print $2}')
{
    echo "# Benchmark results, $(date -u '+%Y-%m-%d %H:%M UTC')"
    echo
    echo "Machine: $(nproc) cores ($cpu), ${ram} GiB RAM, $(uname -sr); load average at start $(cut -d' ' -f1-3 /proc/loadavg)."
    echo "toolshape $(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo '?')$(git -C "$ROOT" diff --quiet 2>/dev/null || echo ' (with local changes)'), release build. Command: \`bench/run.sh$([ "$quick" = 1 ] && echo ' --quick')\`."
} >"$RESULTS"
section() { printf '\n## %s\n\n' "$1" >>"$RESULTS"; }
# A part that fails is recorded and the others still run; the script then exits non-zero.
failed=""
failure() { echo "**This part failed** (exit $2): see $1" | tee -a "$RESULTS" >&2; failed="$failed $3"; }

if [ "$quick" = 1 ]; then
    CALLS=30; WARMUP=5; RUNS=2; SECONDS_LOAD=5
else
    CALLS=500; WARMUP=20; RUNS=7; SECONDS_LOAD=20
fi

if wants context; then
    say "1. context saved"
    section "Context saved"
    if "$CLIENT" bench/context.py --out "$OUT/context.md" >/dev/null 2>"$OUT/context.log"; then
        cat "$OUT/context.md" >>"$RESULTS"
    else
        failure "$OUT/context.log" $? context
    fi
fi

if wants overhead; then
    say "2. gateway overhead ($CALLS rounds)"
    section "Gateway overhead ($CALLS rounds of every variant, interleaved)"
    if "$CLIENT" bench/overhead.py --calls "$CALLS" --warmup "$WARMUP" --seconds 300 --json "$OUT/overhead.json" 2>"$OUT/overhead.log" | tee "$OUT/overhead.txt" >&2; then
        # The table and the head-to-head lines, without the run's temporary paths.
        sed -n '/^| variant/,$p' "$OUT/overhead.txt" >>"$RESULTS"
    else
        failure "$OUT/overhead.log" $? overhead
    fi
fi

if wants compare; then
    say "3. shaping cost ($RUNS rounds)"
    section "Shaping cost ($RUNS rounds, interleaved)"
    if RUNS=$RUNS bench/compare.sh --out "$OUT/compare.md" >&2; then
        cat "$OUT/compare.md" >>"$RESULTS"
    else
        failure "the output above" $? compare
    fi
fi

if wants load; then
    say "4. throughput ($SECONDS_LOAD s per server)"
    section "Throughput over HTTP (32 sessions, $SECONDS_LOAD s per server)"
    status=0
    "$CLIENT" bench/load.py --sessions 32 --seconds "$SECONDS_LOAD" --json "$OUT/load.json" >"$OUT/load.md" || status=$?
    cat "$OUT/load.md" >>"$RESULTS"
    if [ "$status" != 0 ]; then failure "$OUT/load.md (mismatched responses or a failed server)" "$status" load; fi
fi

if wants zero-config; then
    say "5. zero-config answers"
    section "Answers without a mask (bench/zero-config)"
    if "$ROOT/target/release/zero-config" --variants all >"$OUT/zero-config.md" 2>"$OUT/zero-config.log"; then
        cat "$OUT/zero-config.md" >>"$RESULTS"
    else
        failure "$OUT/zero-config.log" $? zero-config
    fi
fi

if wants footprint; then
    say "6. cold start and memory"
    section "Cold start over stdio (bench/cold_start.py) and resident memory (bench/memory.py)"
    status=0
    python3 bench/cold_start.py --toolshape "$ROOT/target/release/toolshape" \
        --sample "$ROOT/target/release/toolshape-sample-upstream" --rounds "$((CALLS / 10 + 5))" \
        >"$OUT/cold_start.md" 2>"$OUT/cold_start.log" || status=$?
    cat "$OUT/cold_start.md" >>"$RESULTS"
    if [ "$status" != 0 ]; then failure "$OUT/cold_start.log" "$status" cold_start; fi
    status=0
    python3 bench/memory.py --toolshape "$ROOT/target/release/toolshape" \
        --sample "$ROOT/target/release/toolshape-sample-upstream" --calls 1000 \
        >"$OUT/memory.md" 2>"$OUT/memory.log" || status=$?
    cat "$OUT/memory.md" >>"$RESULTS"
    if [ "$status" != 0 ]; then failure "$OUT/memory.log" "$status" memory; fi
fi

say "done"
# The condensed tables BENCHMARKS.md shows, ready to paste.
python3 bench/report.py "$OUT" >"$OUT/condensed.md" || true
echo "results: $RESULTS; condensed tables for BENCHMARKS.md: $OUT/condensed.md" >&2
cat "$RESULTS"
if [ -n "$failed" ]; then
    echo "failed parts:$failed" >&2
    exit 1
fi
