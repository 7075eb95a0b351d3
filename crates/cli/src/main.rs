//! `toolshape`: the command line.
//!
//! Offline commands for tuning a setup (`shape`, `tokens`); the gateway and the other
//! commands join them as they land. Exit codes a script can rely on:
//! 0 success, 1 problems found (or a refused install), 2 usage error, 3 input could not be
//! read, 4 the plan or budget cannot work, 5 the call `call` made failed.

mod commands;

use std::process::ExitCode;

use clap::Parser;

use commands::Cli;

/// Shaping parses every value it reads into small allocations; mimalloc serves them in
/// fewer instructions than the system allocator (BENCHMARKS.md, "The allocator").
#[cfg(feature = "mimalloc")]
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> ExitCode {
    let cli = Cli::parse();
    match commands::run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(failure) => {
            // The one place the binary talks to a person about a failure.
            #[allow(clippy::print_stderr)]
            {
                eprintln!("toolshape: {:#}", failure.error);
            }
            ExitCode::from(failure.code)
        }
    }
}
