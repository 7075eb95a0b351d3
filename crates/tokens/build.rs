//! Builds the counting tables this crate embeds, one per encoding, from `bpe-openai`'s.
//!
//! `bpe-openai` embeds every table it knows (o200k, cl100k and voyage3: 71 MB) whole, with
//! the parts needed to encode, decode and encode incrementally. Counting needs less: the
//! leftmost-longest automaton, the token lengths, the prefix links and the pair table. This
//! script takes `bpe-openai`'s tables for the encodings toolshape supports, empties the parts
//! counting never reads (the token bytes, the hash index of tokens, and the two overlapping
//! automata, replaced by a one-token automaton so the table stays well-formed), packs what
//! is left in the compact form of `src/packed.rs` (no parts that follow from others),
//! checks that the packed table expands to the trimmed one and counts exactly like the full
//! table, and writes it zstd-compressed to `OUT_DIR`.
//!
//! The trimmed table is `bpe`'s own serialized `BytePairEncoding` (MessagePack, fields in
//! order), so the runtime loads the expanded table with `bpe`'s deserializer. [`Layout`]
//! mirrors those fields; `bpe` is pinned to the version whose layout it mirrors, and the
//! checks below fail the build if the mirror is ever wrong.

// Build scripts talk to cargo on standard output.
#![allow(clippy::print_stdout)]

use std::collections::BTreeMap;
use std::env;
use std::fs;
use std::path::PathBuf;

use bpe_openai::byte_pair_encoding::BytePairEncoding;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

// The compact form, shared with the runtime that expands it.
#[allow(dead_code)]
#[path = "src/packed/mod.rs"]
mod packed;

/// The zstd level the tables are compressed with: zstd's strongest ordinary level. The
/// tables take 6 % less than at level 6, and compressing both takes a few seconds here.
const ZSTD_LEVEL: i32 = 19;

/// `BytePairEncoding`'s serialized fields, in order (bpe 0.2.3). Maps are ordered here so
/// that the output is the same on every build.
#[derive(Serialize, Deserialize, PartialEq, Debug)]
struct Layout {
    all_tokens: Vec<u8>,
    token_starts: Vec<u32>,
    bytes_hash_to_token: BTreeMap<u32, u32>,
    split_table: Vec<(u32, u32)>,
    pair_lookup: BTreeMap<(u32, u32), u32>,
    longest_searcher: Automaton,
    overlapping_searcher: Automaton,
    overlapping_searcher_rev: Automaton,
    next_prefix_match: Vec<u32>,
    hash_factor: u64,
}

/// A serialized Aho-Corasick automaton: MessagePack `bin`, kept as it is.
#[derive(PartialEq)]
struct Automaton(Vec<u8>);

impl std::fmt::Debug for Automaton {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Automaton({} bytes)", self.0.len())
    }
}

impl Serialize for Automaton {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_bytes(&self.0)
    }
}

impl<'de> Deserialize<'de> for Automaton {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Bytes;
        impl serde::de::Visitor<'_> for Bytes {
            type Value = Automaton;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("a serialized automaton")
            }
            fn visit_bytes<E: serde::de::Error>(self, v: &[u8]) -> Result<Automaton, E> {
                Ok(Automaton(v.to_vec()))
            }
        }
        d.deserialize_bytes(Bytes)
    }
}

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
        table.overlapping_searcher = Automaton(one_token.overlapping_searcher.0.clone());
        table.overlapping_searcher_rev = Automaton(one_token.overlapping_searcher_rev.0.clone());
        let trimmed = rmp_serde::to_vec(&table).expect("a table serializes");
        let parts = packed::Parts {
            token_starts: &table.token_starts,
            split_table: &table.split_table,
            longest_searcher: &table.longest_searcher.0,
            overlapping_searcher: &table.overlapping_searcher.0,
            overlapping_searcher_rev: &table.overlapping_searcher_rev.0,
            next_prefix_match: &table.next_prefix_match,
            hash_factor: table.hash_factor,
        };
        let packed = packed::Packed::from_layout(&parts).expect("every token is under 256 bytes");
        let packed_bytes = rmp_serde::to_vec(&packed).expect("a packed table serializes");
        // What the runtime does: read the packed table, expand it, load it with `bpe`.
        let unpacked: packed::Packed = rmp_serde::from_slice(&packed_bytes).expect("the packed table reads back");
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
