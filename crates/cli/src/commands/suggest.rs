//! `toolshape suggest`: a mask's `result:` block written from a saved tool result, for a
//! user to review and keep; `toolshape shape --config … --tool …` then shows what it gives.

use std::path::PathBuf;

use anyhow::anyhow;
use clap::Args;

use super::{Failure, display_input, print_line, read_input};

#[derive(Debug, Args)]
pub(crate) struct SuggestArgs {
    /// The saved result (JSON); `-` or nothing reads standard input.
    file: Option<PathBuf>,
}

pub(crate) fn run(args: SuggestArgs) -> Result<(), Failure> {
    let bytes = read_input(args.file.as_deref())?;
    let Some(suggestion) = toolshape_shape::suggest(&bytes) else {
        return Err(Failure::input(anyhow!(
            "{}: no list of records found; suggest writes projections for JSON results that hold records",
            display_input(args.file.as_ref())
        )));
    };
    print_line(suggestion.to_yaml().trim_end())
}
