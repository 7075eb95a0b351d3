//! The counting tables, embedded compressed and loaded on first use, once per process.
//!
//! Each encoding's table is what `build.rs` made of `bpe-openai`'s: only the parts counting
//! reads, in the compact form of [`crate::packed`], zstd-compressed (o200k_base 3.1 MB,
//! cl100k_base 1.4 MB in the binary; 14 MiB and 7 MiB once loaded, against 33 MiB and
//! 15 MiB for the full tables). Nothing is loaded until
//! a count needs it, so a process that never counts with cl100k_base never holds its table,
//! and one that never counts at all holds neither. A loaded table is shared by every
//! [`Tokenizer`](crate::Tokenizer) and thread of the process.

use std::sync::OnceLock;

use bpe::byte_pair_encoding::BytePairEncoding;

use crate::Encoding;
use crate::packed::Packed;

/// The compressed tables, indexed by `Encoding as usize`.
static COMPRESSED: [&[u8]; 2] = {
    let mut tables: [&[u8]; 2] = [&[], &[]];
    tables[Encoding::O200kBase as usize] = include_bytes!(concat!(env!("OUT_DIR"), "/o200k_base.zst"));
    tables[Encoding::Cl100kBase as usize] = include_bytes!(concat!(env!("OUT_DIR"), "/cl100k_base.zst"));
    tables
};

/// A decompressed table larger than this is refused as damaged (the largest is 10 MB).
const MAX_TABLE_BYTES: u64 = 64 << 20;

/// The loaded tables, indexed like [`COMPRESSED`]; `Some(None)` if one failed to load.
static LOADED: [OnceLock<Option<BytePairEncoding>>; 2] = [OnceLock::new(), OnceLock::new()];

/// The table of `encoding`, loaded now if no thread has loaded it yet (tens of milliseconds,
/// once; a thread asking meanwhile waits for that load). `None` only if the embedded table
/// is unreadable, which the tests rule out.
pub(crate) fn table(encoding: Encoding) -> Option<&'static BytePairEncoding> {
    LOADED[encoding as usize].get_or_init(|| load(COMPRESSED[encoding as usize])).as_ref()
}

/// Whether the table of `encoding` has been loaded in this process.
pub(crate) fn is_loaded(encoding: Encoding) -> bool {
    LOADED[encoding as usize].get().is_some()
}

/// Decompress, expand and deserialize one table. The intermediate bytes are freed on
/// return: only the table stays.
fn load(compressed: &[u8]) -> Option<BytePairEncoding> {
    // The frame records its decompressed size: one allocation of that size, no regrowing.
    let size = zstd::zstd_safe::get_frame_content_size(compressed).ok()??;
    if size > MAX_TABLE_BYTES {
        return None;
    }
    let serialized = zstd::bulk::decompress(compressed, usize::try_from(size).ok()?).ok()?;
    let packed: Packed<'_> = rmp_serde::from_slice(&serialized).ok()?;
    packed.expand()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_embedded_table_loads() {
        for encoding in Encoding::ALL {
            assert!(load(COMPRESSED[encoding as usize]).is_some(), "{encoding}");
        }
    }

    #[test]
    fn a_truncated_table_is_refused() {
        let mut damaged = COMPRESSED[Encoding::Cl100kBase as usize].to_vec();
        damaged.truncate(damaged.len() / 2);
        assert!(load(&damaged).is_none());
        assert!(load(&[]).is_none());
    }

    /// The binary carries these: a table grown past its budget (a changed trim, a new
    /// vocabulary) should be a decision, not an accident.
    #[test]
    fn embedded_tables_stay_compact() {
        let total: usize = COMPRESSED.iter().map(|t| t.len()).sum();
        assert!(total < 5_000_000, "{total} bytes of embedded tables");
    }
}
