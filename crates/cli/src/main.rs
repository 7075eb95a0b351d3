//! `toolshape`: the command line.
//!
//! Offline commands for tuning a setup (`shape`, `tokens`); the gateway and the other
//! commands join them as they land. Exit codes a script can rely on:
//! 0 success, 1 problems found (or a refused install), 2 usage error, 3 input could not be
//! read, 4 the plan or budget cannot work, 5 the call `call` made failed.

#[cfg(feature = "mimalloc")]
mod allocator;
mod commands;

use std::process::ExitCode;

use clap::Parser;

use commands::Cli;

fn main() -> ExitCode {
    #[cfg(feature = "mimalloc")]
    allocator::set_up();
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
