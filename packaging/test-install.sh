#!/usr/bin/env bash
# Installs toolshape each way a user would, into a fresh folder each, and runs
# `toolshape --version` and a `call` (the quickstart's, against the sample upstream) with each:
#   cargo install --path crates/cli --locked   (its release build is the one packaged next)
#   the Python wheel, with pip into a fresh venv (what pipx and uv do)
#   the npm packages, with npm into a fresh folder, run as `npx toolshape`
# Prints how long each step took and the sizes. CI runs it after the tests with
# TOOLSHAPE_INSTALL_DEBUG=1: `cargo install --debug`, which reuses the debug build the tests
# made, so what is checked is each install path, not the optimized build (BENCHMARKS.md
# measures that one).
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$PWD
seconds() { date +%s.%N; }
elapsed() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", b - a }'; }

root=$(mktemp -d)
trap 'rm -rf "$root"' EXIT

profile_flag=() built=target/release/toolshape
if [ "${TOOLSHAPE_INSTALL_DEBUG:-}" = 1 ]; then
  profile_flag=(--debug) built=target/debug/toolshape
fi
t0=$(seconds)
cargo install --path crates/cli --locked --root "$root/cargo" --quiet "${profile_flag[@]}"
t1=$(seconds)
packaging/build.sh "$built" >/dev/null
t2=$(seconds)
python3 -m venv "$root/venv"
"$root/venv/bin/pip" install --quiet --disable-pip-version-check --no-index target/packages/wheels/toolshape-*.whl
mkdir "$root/npm"
(cd "$root/npm" && npm init -y >/dev/null \
  && npm install --no-audit --no-fund --loglevel=error "$repo"/target/packages/npm/*.tgz >/dev/null)
t3=$(seconds)

# The sample upstream the quickstart starts (the e2e tests built it; quick when they did).
cargo build --quiet -p toolshape-sample-upstream
sample=$repo/target/debug/toolshape-sample-upstream
version=$(awk -F'"' '/^version = / { print $2; exit }' Cargo.toml)

# check NAME COMMAND...: --version, then a call from another folder, through COMMAND.
check() {
  local name=$1; shift
  local got
  got=$(cd "$root" && "$@" --version)
  if [ "$got" != "toolshape $version" ]; then
    echo "install ($name): --version printed '$got', not 'toolshape $version'" >&2
    exit 1
  fi
  if ! (cd "$root" && TOOLSHAPE_SAMPLE_UPSTREAM=$sample XDG_STATE_HOME=$root/state \
      "$@" call --config "$repo/examples/quickstart.yaml" open_issues '{"label": "bug"}') \
      | grep -q '"status":"partial"'; then
    echo "install ($name): the quickstart call did not answer" >&2
    exit 1
  fi
  echo "install ($name): --version and a call work"
}
check cargo "$root/cargo/bin/toolshape"
check wheel "$root/venv/bin/toolshape"
npx_toolshape() { (cd "$root/npm" && npx --no-install toolshape "$@"); }
check npm npx_toolshape

size() { du -sk "$1" | awk '{ printf "%.1f MB", $1 / 1024 }'; }
echo "install: cargo install $(elapsed "$t0" "$t1") s, packaging $(elapsed "$t1" "$t2") s, wheel and npm installs $(elapsed "$t2" "$t3") s"
echo "install: packaged binary ($built) $(size "$built"); wheel $(size target/packages/wheels); npm packages $(size target/packages/npm)"
echo "install: installed: cargo $(size "$root/cargo"), venv $(size "$root/venv"), npm $(size "$root/npm/node_modules")"
