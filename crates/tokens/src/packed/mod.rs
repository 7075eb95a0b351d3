//! The compact form the counting tables are embedded in, and its expansion into `bpe`'s own.
//!
//! `bpe`'s serialized `BytePairEncoding` carries two parts that follow from others: where
//! each token starts (a running sum of the tokens' lengths) and the pair table (the split
//! table read backwards: the pair a token was merged from, mapped to that token). The compact
//! form keeps each token's length in one byte and leaves the pair table out. The automaton's
//! fixed-size records (states and outputs, twelve bytes each) are stored byte plane by byte
//! plane, every record's first byte, then every record's second, and so on, which zstd
//! compresses to about four fifths of the record-by-record form. Together these take the
//! compressed tables from 8.3 MB to 4.5 MB.
//!
//! `build.rs` makes the compact form with [`Packed::from_layout`] (it includes this module by
//! path, so the module depends on `serde` and `rmp-serde` only) and checks that
//! [`Packed::expand`] gives back exactly the table it packed. The runtime expands once per
//! process, on the first count: `bpe`'s own deserializer reads the table straight from the
//! compact form (`expand.rs`), filling in what the compact form leaves out as it goes.

mod expand;

use std::borrow::Cow;
use std::collections::BTreeMap;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// The size of one record of the automaton's two arrays (a state: base, fail, output and
/// check; an output: value, length, parent), in bytes.
const RECORD: usize = 12;

/// The counting table in compact form.
#[derive(Serialize, Deserialize)]
pub(crate) struct Packed<'a> {
    /// Each token's length in bytes (the longest token of either vocabulary has 128).
    #[serde(borrow)]
    token_lengths: Bytes<'a>,
    /// The two tokens each token was merged from (a token of one byte points at itself):
    /// every first token, then every second, as little-endian `u32`s.
    #[serde(borrow)]
    split_table: Bytes<'a>,
    /// The leftmost-longest automaton, its record arrays in byte planes.
    #[serde(borrow)]
    longest_searcher: Bytes<'a>,
    /// The two overlapping automata counting never reads (stand-ins of one token), as `bpe`
    /// serialized them.
    #[serde(borrow)]
    overlapping_searcher: Bytes<'a>,
    #[serde(borrow)]
    overlapping_searcher_rev: Bytes<'a>,
    /// For each token, the longest shorter token it starts with (`u32::MAX` for none), as
    /// little-endian `u32`s.
    #[serde(borrow)]
    next_prefix_match: Bytes<'a>,
    hash_factor: u64,
}

/// `bpe`'s serialized `BytePairEncoding` (bpe 0.2.3), field by field in its order. Maps are
/// ordered, so that the build writes the same table every time. `build.rs` trims the table in
/// this form and packs it; the tests read expanded tables back into it.
#[derive(Serialize, Deserialize, PartialEq, Debug)]
#[cfg_attr(not(test), allow(dead_code))]
pub(crate) struct Layout {
    pub(crate) all_tokens: Vec<u8>,
    pub(crate) token_starts: Vec<u32>,
    pub(crate) bytes_hash_to_token: BTreeMap<u32, u32>,
    pub(crate) split_table: Vec<(u32, u32)>,
    pub(crate) pair_lookup: BTreeMap<(u32, u32), u32>,
    pub(crate) longest_searcher: Blob,
    pub(crate) overlapping_searcher: Blob,
    pub(crate) overlapping_searcher_rev: Blob,
    pub(crate) next_prefix_match: Vec<u32>,
    pub(crate) hash_factor: u64,
}

/// A serialized automaton, owned: MessagePack `bin`, kept as it is.
#[derive(PartialEq)]
pub(crate) struct Blob(pub(crate) Vec<u8>);

impl std::fmt::Debug for Blob {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Blob({} bytes)", self.0.len())
    }
}

impl Serialize for Blob {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_bytes(&self.0)
    }
}

impl<'de> Deserialize<'de> for Blob {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        Bytes::deserialize(d).map(|bytes| Blob(bytes.0.into_owned()))
    }
}

impl Packed<'_> {
    // Packing runs in build.rs (which includes this file) and in the tests.
    #[cfg_attr(not(test), allow(dead_code))]
    /// The compact form of a counting table; `None` if a token is longer than 255 bytes or
    /// the automaton's arrays are not where its layout puts them.
    pub(crate) fn from_layout(layout: &Layout) -> Option<Packed<'static>> {
        let token_lengths = layout
            .token_starts
            .windows(2)
            .map(|w| w[1].checked_sub(w[0]).and_then(|n| u8::try_from(n).ok()))
            .collect::<Option<Vec<u8>>>()?;
        Some(Packed {
            token_lengths: Bytes(Cow::Owned(token_lengths)),
            split_table: Bytes(Cow::Owned(
                (layout.split_table.iter().map(|pair| pair.0))
                    .chain(layout.split_table.iter().map(|pair| pair.1))
                    .flat_map(u32::to_le_bytes)
                    .collect(),
            )),
            longest_searcher: Bytes(Cow::Owned(planes(&layout.longest_searcher.0, Direction::Split)?)),
            overlapping_searcher: Bytes(Cow::Owned(layout.overlapping_searcher.0.clone())),
            overlapping_searcher_rev: Bytes(Cow::Owned(layout.overlapping_searcher_rev.0.clone())),
            next_prefix_match: Bytes(Cow::Owned(
                layout.next_prefix_match.iter().copied().flat_map(u32::to_le_bytes).collect(),
            )),
            hash_factor: layout.hash_factor,
        })
    }

    /// The table as `T` (`bpe`'s `BytePairEncoding`, or a mirror of its layout), deserialized
    /// straight from the compact form: no MessagePack is written or read again. `None` if
    /// the compact form is inconsistent or `T` does not take `bpe`'s layout.
    pub(crate) fn expand<T: serde::de::DeserializeOwned>(&self) -> Option<T> {
        let tokens = self.token_lengths.0.len();
        // Token starts are sums of at most 255 per token: they fit a u32 below this.
        if tokens >= (u32::MAX / 256) as usize
            || self.split_table.0.len() != tokens * 8
            || self.next_prefix_match.0.len() != tokens * 4
        {
            return None;
        }
        let automaton = &self.longest_searcher.0;
        let mut records = automaton.to_vec();
        planes_into(automaton, &mut records, Direction::Join)?;
        let (firsts, seconds) = self.split_table.0.split_at(tokens * 4);
        let table = expand::Table {
            token_lengths: &self.token_lengths.0,
            firsts,
            seconds,
            longest_searcher: &records,
            overlapping_searcher: &self.overlapping_searcher.0,
            overlapping_searcher_rev: &self.overlapping_searcher_rev.0,
            next_prefix_match: &self.next_prefix_match.0,
            hash_factor: self.hash_factor,
        };
        T::deserialize(&table).ok()
    }
}

/// Bytes written as one MessagePack `bin` (a `Vec<u8>` would be an array of numbers), and
/// read borrowed from the buffer when it allows (no copy of the large automaton).
struct Bytes<'a>(Cow<'a, [u8]>);

impl Serialize for Bytes<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_bytes(&self.0)
    }
}

impl<'de: 'a, 'a> Deserialize<'de> for Bytes<'a> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Visitor<'a>(std::marker::PhantomData<&'a ()>);
        impl<'de: 'a, 'a> serde::de::Visitor<'de> for Visitor<'a> {
            type Value = Bytes<'a>;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("bytes")
            }
            fn visit_borrowed_bytes<E: serde::de::Error>(self, v: &'de [u8]) -> Result<Bytes<'a>, E> {
                Ok(Bytes(Cow::Borrowed(v)))
            }
            fn visit_bytes<E: serde::de::Error>(self, v: &[u8]) -> Result<Bytes<'a>, E> {
                Ok(Bytes(Cow::Owned(v.to_vec())))
            }
            fn visit_byte_buf<E: serde::de::Error>(self, v: Vec<u8>) -> Result<Bytes<'a>, E> {
                Ok(Bytes(Cow::Owned(v)))
            }
        }
        d.deserialize_bytes(Visitor(std::marker::PhantomData))
    }
}

/// Which way [`planes`] turns the records.
#[derive(Clone, Copy)]
#[cfg_attr(not(test), allow(dead_code))]
enum Direction {
    /// Record by record into byte planes.
    Split,
    /// Byte planes back into records.
    Join,
}

/// A serialized automaton (`daachorse`: a `u32` count of states and the states, a `u32` count
/// of outputs and the outputs, then a few bytes of settings) with its two record arrays
/// turned into byte planes, or back. The counts and the settings stay where they are, so
/// the result has the same length. `None` if the counts do not fit the bytes.
#[cfg_attr(not(test), allow(dead_code))]
fn planes(automaton: &[u8], direction: Direction) -> Option<Vec<u8>> {
    let mut out = automaton.to_vec();
    planes_into(automaton, &mut out, direction)?;
    Some(out)
}

/// [`planes`] into `out`, which holds a copy of `automaton` (its counts and settings).
fn planes_into(automaton: &[u8], out: &mut [u8], direction: Direction) -> Option<()> {
    if out.len() != automaton.len() {
        return None;
    }
    let mut at = 0;
    for _array in 0..2 {
        let count = u32::from_le_bytes(automaton.get(at..at + 4)?.try_into().ok()?);
        let len = usize::try_from(count).ok()?.checked_mul(RECORD)?;
        let start = at + 4;
        let block = automaton.get(start..start.checked_add(len)?)?;
        let target = &mut out[start..start + len];
        let records = len / RECORD;
        // One pass over the records, each plane read (or written) in order.
        match direction {
            Direction::Split => {
                for (record, bytes) in block.chunks_exact(RECORD).enumerate() {
                    for (plane, &byte) in bytes.iter().enumerate() {
                        target[plane * records + record] = byte;
                    }
                }
            }
            Direction::Join => {
                let planes: Vec<&[u8]> = block.chunks_exact(records.max(1)).collect();
                for (record, bytes) in target.chunks_exact_mut(RECORD).enumerate() {
                    for (byte, plane) in bytes.iter_mut().zip(&planes) {
                        *byte = plane[record];
                    }
                }
            }
        }
        at = start + len;
    }
    Some(())
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    /// An automaton's outline: `states` and `outputs` records of arbitrary bytes, each array
    /// behind its `u32` count, and `tail` bytes of settings.
    fn automaton(states: &[[u8; RECORD]], outputs: &[[u8; RECORD]], tail: &[u8]) -> Vec<u8> {
        let mut bytes = Vec::new();
        for array in [states, outputs] {
            bytes.extend_from_slice(&u32::try_from(array.len()).unwrap_or(u32::MAX).to_le_bytes());
            array.iter().for_each(|record| bytes.extend_from_slice(record));
        }
        bytes.extend_from_slice(tail);
        bytes
    }

    proptest! {
        #[test]
        fn byte_planes_turn_back_into_the_records(
            states in prop::collection::vec(any::<[u8; RECORD]>(), 0..40),
            outputs in prop::collection::vec(any::<[u8; RECORD]>(), 0..40),
            tail in prop::collection::vec(any::<u8>(), 0..8),
        ) {
            let bytes = automaton(&states, &outputs, &tail);
            let split = planes(&bytes, Direction::Split).expect("a well-formed automaton");
            prop_assert_eq!(split.len(), bytes.len());
            prop_assert_eq!(planes(&split, Direction::Join), Some(bytes));
        }

        #[test]
        fn an_automaton_shorter_than_its_counts_is_refused(
            states in prop::collection::vec(any::<[u8; RECORD]>(), 1..20),
            cut in 1usize..RECORD * 20,
        ) {
            let bytes = automaton(&states, &[], &[]);
            let cut = cut.min(bytes.len() - 1);
            prop_assert_eq!(planes(&bytes[..bytes.len() - cut], Direction::Join), None);
        }
    }

    #[test]
    fn byte_planes_put_each_field_together() {
        let bytes = automaton(&[[1; RECORD], [2; RECORD]], &[], &[]);
        let split = planes(&bytes, Direction::Split).expect("a well-formed automaton");
        // Count, then plane by plane: each plane holds the first record's byte, then the second's.
        assert_eq!(&split[4..10], &[1, 2, 1, 2, 1, 2]);
    }

    fn layout(starts: &[u32], splits: &[(u32, u32)], prefixes: &[u32], automaton: &[u8]) -> Layout {
        Layout {
            all_tokens: Vec::new(),
            token_starts: starts.to_vec(),
            bytes_hash_to_token: BTreeMap::new(),
            split_table: splits.to_vec(),
            pair_lookup: (0u32..)
                .zip(splits)
                .filter(|&(id, &pair)| pair != (id, id))
                .map(|(id, &pair)| (pair, id))
                .collect(),
            longest_searcher: Blob(automaton.to_vec()),
            overlapping_searcher: Blob(automaton.to_vec()),
            overlapping_searcher_rev: Blob(automaton.to_vec()),
            next_prefix_match: prefixes.to_vec(),
            hash_factor: 7,
        }
    }

    #[test]
    fn short_tokens_pack_and_expand() {
        // Tokens `a`, `b`, `ab`: the third was merged from the first two.
        let splits = [(0, 0), (1, 1), (0, 1)];
        let automaton = automaton(&[[0; RECORD]], &[[0; RECORD]], &[0]);
        let packed = Packed::from_layout(&layout(&[0, 1, 2, 4], &splits, &[u32::MAX; 3], &automaton))
            .expect("short tokens pack");
        assert_eq!(packed.token_lengths.0, vec![1, 1, 2]);
        let expanded: Layout = packed.expand().expect("a consistent table expands");
        assert_eq!(expanded.pair_lookup, BTreeMap::from([((0, 1), 2)]));
        assert_eq!(expanded, layout(&[0, 1, 2, 4], &splits, &[u32::MAX; 3], &automaton));
    }

    #[test]
    fn a_token_longer_than_a_byte_can_count_is_refused() {
        let automaton = automaton(&[], &[], &[]);
        assert!(Packed::from_layout(&layout(&[0, 300], &[(0, 0)], &[u32::MAX], &automaton)).is_none());
    }

    #[test]
    fn inconsistent_lengths_do_not_expand() {
        let automaton = automaton(&[], &[], &[]);
        let mut packed = Packed::from_layout(&layout(&[0, 1, 2], &[(0, 0), (1, 1)], &[u32::MAX; 2], &automaton))
            .expect("short tokens pack");
        packed.next_prefix_match.0.to_mut().pop();
        assert!(packed.expand::<Layout>().is_none());
        let mut packed = Packed::from_layout(&layout(&[0, 1, 2], &[(0, 0), (1, 1)], &[u32::MAX; 2], &automaton))
            .expect("short tokens pack");
        packed.split_table.0.to_mut().truncate(12);
        assert!(packed.expand::<Layout>().is_none());
    }
}
