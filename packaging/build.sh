#!/usr/bin/env bash
# Packages a built toolshape binary the ways users install it:
#   target/packages/npm/toolshape-VERSION.tgz and toolshape-linux-x64-VERSION.tgz
#       the `toolshape` npm package (a small launcher) and its platform package holding the
#       binary, as esbuild and biome ship theirs: `npx toolshape` works once both are installed
#   target/packages/wheels/toolshape-VERSION-*.whl
#       a Python wheel holding the binary (maturin, `bindings = "bin"`): pip, pipx and uv
#       install it on PATH
# Usage: packaging/build.sh [RELEASE_BINARY]   (default target/release/toolshape, built when
# missing). maturin comes from PyPI into .cache/packaging-venv; it reuses the release build
# in target/ rather than compiling again.
set -euo pipefail
cd "$(dirname "$0")/.."

binary=${1:-target/release/toolshape}
if [ ! -x "$binary" ]; then
  cargo build --release --locked -p toolshape
fi
version=$("$binary" --version | awk '{print $2}')
out=target/packages
rm -rf "$out/npm" "$out/wheels"
mkdir -p "$out/npm" "$out/wheels"

# npm: stage both packages with the binary's version, then pack them.
stage=$out/npm/stage
cp -R packaging/npm "$stage"
install -D -m 0755 "$binary" "$stage/linux-x64/bin/toolshape"
cp README.md "$stage/toolshape/README.md"
node - "$stage" "$version" <<'JS'
const fs = require("node:fs");
const [stage, version] = process.argv.slice(2);
for (const dir of ["toolshape", "linux-x64"]) {
  const file = `${stage}/${dir}/package.json`;
  const pkg = JSON.parse(fs.readFileSync(file, "utf8"));
  pkg.version = version;
  for (const dep of Object.keys(pkg.optionalDependencies ?? {})) pkg.optionalDependencies[dep] = version;
  fs.writeFileSync(file, JSON.stringify(pkg, null, 2) + "\n");
}
JS
for dir in linux-x64 toolshape; do
  (cd "$stage/$dir" && npm pack --silent --pack-destination "$OLDPWD/$out/npm" >/dev/null)
done
rm -rf "$stage"

# The wheel: maturin from PyPI, pinned.
venv=.cache/packaging-venv
if ! "$venv/bin/maturin" --version 2>/dev/null | grep -q '^maturin 1.16.0$'; then
  rm -rf "$venv"
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet --disable-pip-version-check --no-input maturin==1.16.0
fi
# maturin builds the CLI crate itself, with the profile that made the binary given: cargo
# then finds that build up to date instead of compiling again.
maturin_profile=(--release)
case "$binary" in */debug/*) maturin_profile=(--profile dev) ;; esac
(cd packaging/python && "$OLDPWD/$venv/bin/maturin" build "${maturin_profile[@]}" --locked --quiet --out "$OLDPWD/$out/wheels" \
  --compatibility linux 2>&1 | grep -v '^\s*$' | tail -5)

ls -l "$out/npm" "$out/wheels"
