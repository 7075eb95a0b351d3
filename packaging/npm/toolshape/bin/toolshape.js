#!/usr/bin/env node
// Starts the toolshape binary of this platform's package (installed as an optional
// dependency, the way esbuild and biome ship theirs) with the same arguments, standard input
// and output, and passes its exit code and the signals that stop it.
"use strict";

const { spawn } = require("node:child_process");

const PACKAGES = { "linux x64": "@toolshape/linux-x64" };

function binaryPath() {
  if (process.env.TOOLSHAPE_BINARY) return process.env.TOOLSHAPE_BINARY;
  const name = PACKAGES[`${process.platform} ${process.arch}`];
  if (!name) {
    throw new Error(
      `toolshape has no prebuilt binary for ${process.platform} ${process.arch} on npm; ` +
        "install it with `cargo install --path crates/cli --locked` from the repository instead",
    );
  }
  try {
    return require.resolve(`${name}/bin/toolshape`);
  } catch {
    throw new Error(
      `the package ${name} is missing: it is an optional dependency of toolshape, so an install ` +
        "with --no-optional (or --omit=optional) leaves it out; install again without that flag",
    );
  }
}

let binary;
try {
  binary = binaryPath();
} catch (error) {
  process.stderr.write(`toolshape: ${error.message}\n`);
  process.exit(1);
}

const child = spawn(binary, process.argv.slice(2), { stdio: "inherit" });
for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"]) {
  process.on(signal, () => child.kill(signal));
}
child.on("error", (error) => {
  process.stderr.write(`toolshape: cannot start ${binary}: ${error.message}\n`);
  process.exit(1);
});
child.on("exit", (code, signal) => {
  if (signal) {
    // Die of the same signal, as the binary did.
    process.removeAllListeners(signal);
    process.kill(process.pid, signal);
  } else {
    process.exit(code ?? 1);
  }
});
