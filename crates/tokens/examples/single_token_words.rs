//! Prints the words of standard input (one per line) that are a single token when written
//! after a space, in every encoding toolshape counts with: the candidates for the words of a
//! delimiter nonce (`scripts/nonce-words.py`), each of which then costs exactly one token.
//!
//! `cargo run --release -p toolshape-tokens --example single_token_words < words.txt`

use std::io::{BufRead, Write};

use toolshape_tokens::{Encoding, Tokenizer};

fn main() -> std::io::Result<()> {
    let tokenizers: Vec<Tokenizer> = Encoding::ALL.iter().map(|&e| Tokenizer::new(e)).collect();
    let mut out = std::io::stdout().lock();
    for word in std::io::stdin().lock().lines() {
        let word = word?;
        let spaced = format!(" {}", word.trim());
        if tokenizers.iter().all(|t| t.count(&spaced) == 1) {
            writeln!(out, "{}", word.trim())?;
        }
    }
    Ok(())
}
