//! Builds the counting tables this crate embeds, one per encoding, from `bpe-openai`'s.
//!
//! `bpe-openai` embeds every table it knows (o200k, cl100k and voyage3: 71 MB) whole, with
//! the parts needed to encode, decode and encode incrementally. Counting needs less: the
//! leftmost-longest automaton, the token lengths, the prefix links and the pair table. This
//! script takes `bpe-openai`'s tables for the encodings toolshape supports, empties the parts
//! counting never reads (the token bytes, the hash index of tokens, and the two overlapping
//! automata, replaced by a one-token automaton so the table stays well-formed), packs what
//! is left in the compact form of `src/packed/` (no parts that follow from others),
//! checks that the packed table expands to the trimmed one and counts exactly like the full
//! table, and writes it zstd-compressed to `OUT_DIR`.
//!
//! The trimmed table is `bpe`'s own serialized `BytePairEncoding` (MessagePack, fields in
//! order), so the runtime loads the expanded table with `bpe`'s deserializer. [`Layout`]
//! (`src/packed/`) mirrors those fields; `bpe` is pinned to the version whose layout it
//! mirrors, and the checks below fail the build if the mirror is ever wrong.

// Build scripts talk to cargo on standard output.
#![allow(clippy::print_stdout)]

use std::collections::BTreeMap;
use std::env;
use std::fs;
use std::path::PathBuf;

use bpe_openai::byte_pair_encoding::BytePairEncoding;

// The compact form and `bpe`'s layout, shared with the runtime that expands it.
#[allow(dead_code)]
#[path = "src/packed/mod.rs"]
mod packed;

use packed::{Blob, Layout, Packed};

/// The zstd level the tables are compressed with: zstd's strongest ordinary level. The
/// tables take 6 % less than at level 6, and compressing both takes a few seconds here.
const ZSTD_LEVEL: i32 = 19;

/// Texts every trimmed table must count exactly as its full table does: the hard cases of
/// byte-pair merging (long runs, mixed scripts, invalid merges, emoji, digits).
const CHECKS: &[&str] = &[
    "",
    "a",
    "hello world",
    "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
    "  \n\n\t  indentation\r\n",
    "{\"id\":1234567890,\"url\":\"https://api.github.com/repos/acme/widgets/issues/42\"}",
    "naïve café, 中文字符, русский текст, العربية, 🙂🙃👩‍👩‍👧‍👦",
    "<|endoftext|> supercalifragilisticexpialidocious 3.14159265358979",
    "ERROR 2025-01-01T00:00:00Z worker[17]: retry 3/5 after 250ms (ECONNRESET)",
];

/// The encodings toolshape supports, by the name the runtime reads them under.
fn sources() -> [(&'static str, &'static BytePairEncoding); 2] {
    [("o200k_base", &bpe_openai::o200k_base().bpe), ("cl100k_base", &bpe_openai::cl100k_base().bpe)]
}

fn main() {
    println!("cargo::rerun-if-changed=build.rs");
    println!("cargo::rerun-if-changed=src/packed");
    let out = PathBuf::from(env::var_os("OUT_DIR").expect("cargo sets OUT_DIR for build scripts"));
    // A one-token table's automata: the smallest well-formed stand-ins for the overlapping
    // automata, which counting never reads.
    let one_token = BytePairEncoding::from_dictionary([vec![b'a']], Some(1));
    let one_token: Layout = reserialized(&one_token);
    for (name, full) in sources() {
        let mut table: Layout = reserialized(full);
        table.all_tokens = Vec::new();
        table.bytes_hash_to_token = BTreeMap::new();
        table.overlapping_searcher = Blob(one_token.overlapping_searcher.0.clone());
        table.overlapping_searcher_rev = Blob(one_token.overlapping_searcher_rev.0.clone());
        let trimmed = rmp_serde::to_vec(&table).expect("a table serializes");
        let packed = Packed::from_layout(&table).expect("every token is under 256 bytes");
        let packed_bytes = rmp_serde::to_vec(&packed).expect("a packed table serializes");
        // What the runtime does: read the packed table, expand it, load it with `bpe`.
        let unpacked: Packed<'_> = rmp_serde::from_slice(&packed_bytes).expect("the packed table reads back");
        let expanded_layout: Layout = unpacked.expand().expect("the packed table expands to bpe's layout");
        let trimmed_layout: Layout = rmp_serde::from_slice(&trimmed).expect("the trimmed table reads back");
        assert!(expanded_layout == trimmed_layout, "{name}: the packed table does not expand to the trimmed one");
        let check: BytePairEncoding = unpacked.expand().expect("the packed table loads");
        for text in CHECKS {
            for piece in text.split_inclusive(' ').chain([*text]) {
                let bytes = piece.as_bytes();
                assert_eq!(check.count(bytes), full.count(bytes), "{name}: the trimmed table miscounts {piece:?}");
                for limit in 0..4 {
                    assert_eq!(check.count_till_limit(bytes, limit), full.count_till_limit(bytes, limit));
                }
            }
        }
        let compressed = zstd::bulk::compress(&packed_bytes, ZSTD_LEVEL).expect("a table compresses");
        fs::write(out.join(format!("{name}.zst")), compressed).expect("OUT_DIR is writable");
    }
}

/// `bpe`'s own serialization of `table`, read back as [`Layout`].
fn reserialized(table: &BytePairEncoding) -> Layout {
    let bytes = rmp_serde::to_vec(table).expect("a table serializes");
    rmp_serde::from_slice(&bytes).expect("the layout mirrors bpe's BytePairEncoding")
}
