//! The first count of a process, which loads a table, and the memory that table takes.
//!
//! `cargo run --release -p toolshape-tokens --example first_use -- [trimmed|full] [o200k_base|cl100k_base]`
//!
//! `trimmed` counts with this crate (its compressed, trimmed table, loaded on first use);
//! `full` with `bpe-openai` and its full embedded table, as this crate did before. Prints
//! the milliseconds the first count took, and the process's resident memory (all of it, and
//! the part mapped from the binary's file) before and after. Run each in fresh processes,
//! several times, alternating: a table is loaded once per process.

// A measuring tool: its output is the point.
#![allow(clippy::print_stdout)]

use std::time::Instant;

use toolshape_tokens::{Encoding, Tokenizer};

/// (VmRSS, RssFile) of this process in KiB, from `/proc/self/status` (Linux).
fn resident_kib() -> (u64, u64) {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    let field = |name: &str| {
        status
            .lines()
            .find_map(|l| l.strip_prefix(name))
            .and_then(|rest| rest.split_whitespace().next())
            .and_then(|n| n.parse().ok())
            .unwrap_or(0)
    };
    (field("VmRSS:"), field("RssFile:"))
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let variant = args.get(1).map_or("trimmed", String::as_str);
    let encoding: Encoding = args.get(2).map_or("o200k_base", String::as_str).parse().expect("an encoding name");
    let text = "The first count of the process loads the table: hello, world!";
    let before = resident_kib();
    let started = Instant::now();
    let n = match variant {
        "full" => match encoding {
            Encoding::O200kBase => bpe_openai::o200k_base().count(text),
            Encoding::Cl100kBase => bpe_openai::cl100k_base().count(text),
        },
        _ => Tokenizer::new(encoding).count(text),
    };
    let ms = started.elapsed().as_secs_f64() * 1e3;
    let after = resident_kib();
    println!(
        "{variant} {encoding}: {n} tokens, first count {ms:.1} ms, RSS {} -> {} KiB (from the binary's file {} -> {} KiB)",
        before.0, after.0, before.1, after.1
    );
}
