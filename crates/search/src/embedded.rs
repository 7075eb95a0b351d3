//! The vector tables embedded in the binary, zstd-compressed, and their decompression.
//!
//! `build.rs` compresses the tables of `data/`; each is decompressed here once per process,
//! on its first use, into memory that lives as long as the process (the parsed tables borrow
//! from it). Decompressing both takes a few milliseconds. A table that does not decompress
//! (which the tests rule out) reads as absent: its part of the search is turned off, never
//! failed.

use std::sync::OnceLock;

/// A decompressed table larger than this is refused as damaged (the largest is 4.3 MB).
const MAX_TABLE_BYTES: u64 = 32 << 20;

/// The GloVe word vectors of query expansion (`data/word-vectors.bin`).
pub(crate) fn word_vectors() -> Option<&'static [u8]> {
    static COMPRESSED: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/word-vectors.zst"));
    static TABLE: OnceLock<Option<&'static [u8]>> = OnceLock::new();
    *TABLE.get_or_init(|| decompress(COMPRESSED))
}

/// The static sentence-embedding table (`data/token-vectors.bin`).
#[cfg(feature = "embeddings")]
pub(crate) fn token_vectors() -> Option<&'static [u8]> {
    static COMPRESSED: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/token-vectors.zst"));
    static TABLE: OnceLock<Option<&'static [u8]>> = OnceLock::new();
    *TABLE.get_or_init(|| decompress(COMPRESSED))
}

/// The bytes `compressed` holds, kept for the rest of the process; `None` if they are not
/// one well-formed zstd frame of a plausible size.
fn decompress(compressed: &[u8]) -> Option<&'static [u8]> {
    // The frame records its decompressed size: one allocation of that size, no regrowing.
    let size = zstd::zstd_safe::get_frame_content_size(compressed).ok()??;
    if size > MAX_TABLE_BYTES {
        return None;
    }
    let bytes = zstd::bulk::decompress(compressed, usize::try_from(size).ok()?).ok()?;
    // Once per table and process (the `OnceLock`s above): the parsed tables borrow from it.
    Some(Box::leak(bytes.into_boxed_slice()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_embedded_tables_decompress_to_the_files_in_data() {
        let words = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/data/word-vectors.bin")).unwrap();
        assert_eq!(word_vectors(), Some(words.as_slice()));
        #[cfg(feature = "embeddings")]
        {
            let tokens = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/data/token-vectors.bin")).unwrap();
            assert_eq!(token_vectors(), Some(tokens.as_slice()));
        }
    }

    #[test]
    fn damaged_bytes_read_as_absent_not_a_panic() {
        let good = zstd::bulk::compress(b"a table", 3).unwrap();
        assert_eq!(decompress(&good), Some(&b"a table"[..]));
        for cut in [0, 1, 4, good.len() / 2, good.len() - 1] {
            assert_eq!(decompress(&good[..cut]), None, "cut at {cut}");
        }
        assert_eq!(decompress(b"not zstd at all"), None);
    }
}
