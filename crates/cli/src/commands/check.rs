//! `toolshape check`: load and compile a config, and report every problem at once.

use std::path::PathBuf;

use anyhow::anyhow;
use clap::Args;

use super::{EXIT_PROBLEMS, Failure, print_line, read_config};

#[derive(Debug, Args)]
pub(crate) struct CheckArgs {
    /// The config file to check.
    #[arg(long)]
    config: PathBuf,
}

pub(crate) fn run(args: CheckArgs) -> Result<(), Failure> {
    let (name, text) = read_config(&args.config)?;
    match toolshape_mask::load(&text, &name, &|var| std::env::var(var).ok()) {
        Ok((config, masks)) => {
            let profiles = config.profiles.len();
            print_line(&format!(
                "{name}: OK: {} upstream{}, {} mask{}, {} profile{}",
                config.upstreams.len(),
                plural(config.upstreams.len()),
                masks.mask_names().count(),
                plural(masks.mask_names().count()),
                profiles,
                plural(profiles),
            ))
        }
        Err(errors) => {
            for e in &errors {
                print_line(&e.to_string())?;
            }
            let n = errors.len();
            Err(Failure { error: anyhow!("{n} problem{} in `{name}`", plural(n)), code: EXIT_PROBLEMS })
        }
    }
}

fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}
