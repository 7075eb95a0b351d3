//! `toolshape tokens`: the exact token count of a file, as toolshape counts budgets.

use std::path::PathBuf;

use clap::Args;
use toolshape_tokens::{Encoding, Tokenizer};

use super::{Failure, print_line, read_input};

#[derive(Debug, Args)]
pub(crate) struct TokensArgs {
    /// The tokenizer: o200k_base (default) or cl100k_base.
    #[arg(long, default_value = "o200k_base")]
    tokenizer: Encoding,
    /// The file to count; `-` or nothing reads standard input.
    file: Option<PathBuf>,
}

pub(crate) fn run(args: TokensArgs) -> Result<(), Failure> {
    let bytes = read_input(args.file.as_deref())?;
    let text = String::from_utf8_lossy(&bytes);
    // The command owns the machine: count long files on every core.
    let count = Tokenizer::new(args.tokenizer).count_parallel(&text);
    print_line(&count.to_string())
}
