//! Compresses the vector tables this crate embeds, so the binary carries them zstd-packed.
//!
//! The tables in `data/` stay the reproducible artifacts (their scripts write them, their
//! checksums are tested); what the binary embeds is each one compressed at zstd's strongest
//! ordinary level, 13 % smaller (four-bit codes are close to their entropy, so most of the
//! gain is the vocabulary's text). The runtime decompresses a table once, on first use
//! (`src/embedded.rs`). The sentence table is compressed only when the `embeddings` feature
//! asks for it.

use std::env;
use std::fs;
use std::path::PathBuf;

/// zstd's strongest ordinary level: a few seconds for both tables, done once per change.
const ZSTD_LEVEL: i32 = 19;

fn main() {
    let out = PathBuf::from(env::var_os("OUT_DIR").expect("cargo sets OUT_DIR for build scripts"));
    let mut tables = vec!["word-vectors"];
    if env::var_os("CARGO_FEATURE_EMBEDDINGS").is_some() {
        tables.push("token-vectors");
    }
    for name in tables {
        let source = format!("data/{name}.bin");
        println!("cargo::rerun-if-changed={source}");
        let bytes = fs::read(&source).expect("the crate's data folder holds its tables");
        let compressed = zstd::bulk::compress(&bytes, ZSTD_LEVEL).expect("a table compresses");
        fs::write(out.join(format!("{name}.zst")), compressed).expect("OUT_DIR is writable");
    }
    println!("cargo::rerun-if-changed=build.rs");
}
