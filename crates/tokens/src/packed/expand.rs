//! A serde deserializer that reads a counting table straight from its compact form.
//!
//! `bpe` loads a `BytePairEncoding` only through serde. Writing the compact form out as
//! `bpe`'s MessagePack and parsing that again would encode and decode about a million
//! numbers; this deserializer hands them to `bpe`'s visitors as it makes them instead:
//! token starts summed from the lengths, split pairs read from their two columns, and the
//! pair table made from the split table, one entry per merged token. It serves exactly the
//! shape `bpe` asks for (a struct read as a sequence of its ten fields, in order), so any
//! type whose fields follow `bpe`'s layout deserializes from it.

use std::marker::PhantomData;

use serde::de::value::{Error, MapDeserializer, SeqDeserializer};
use serde::de::{DeserializeSeed, Deserializer, IntoDeserializer, SeqAccess, Visitor};
use serde::forward_to_deserialize_any;

/// The parts of a table, the automaton's records already joined.
pub(super) struct Table<'a> {
    pub(super) token_lengths: &'a [u8],
    /// The first token of each token's split, as little-endian `u32`s.
    pub(super) firsts: &'a [u8],
    /// The second token of each token's split.
    pub(super) seconds: &'a [u8],
    pub(super) longest_searcher: &'a [u8],
    pub(super) overlapping_searcher: &'a [u8],
    pub(super) overlapping_searcher_rev: &'a [u8],
    pub(super) next_prefix_match: &'a [u8],
    pub(super) hash_factor: u64,
}

/// `bpe`'s fields, in its order.
const FIELDS: usize = 10;

impl<'de> Deserializer<'de> for &Table<'_> {
    type Error = Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        visitor.visit_seq(Fields { table: self, next: 0 })
    }

    forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf
        option unit unit_struct newtype_struct seq tuple tuple_struct map struct enum
        identifier ignored_any
    }
}

/// The table's fields, one after another.
struct Fields<'t, 'a> {
    table: &'t Table<'a>,
    next: usize,
}

impl<'de> SeqAccess<'de> for Fields<'_, '_> {
    type Error = Error;

    fn next_element_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<Option<T::Value>, Error> {
        let table = self.table;
        let field = match self.next {
            // No token bytes and no hash index of them: counting reads neither.
            0 => Field::Empty,
            1 => Field::TokenStarts(table.token_lengths),
            2 => Field::Empty,
            3 => Field::Splits(table.firsts, table.seconds),
            4 => Field::Pairs(table.firsts, table.seconds),
            5 => Field::Bytes(table.longest_searcher),
            6 => Field::Bytes(table.overlapping_searcher),
            7 => Field::Bytes(table.overlapping_searcher_rev),
            8 => Field::Words(table.next_prefix_match),
            9 => Field::Number(table.hash_factor),
            _ => return Ok(None),
        };
        self.next += 1;
        seed.deserialize(field).map(Some)
    }

    fn size_hint(&self) -> Option<usize> {
        Some(FIELDS.saturating_sub(self.next))
    }
}

/// One field, served as the kind of value `bpe` reads there.
enum Field<'a> {
    /// An empty sequence or map (it answers both).
    Empty,
    /// Token starts: 0, then the running sum of the lengths.
    TokenStarts(&'a [u8]),
    /// The split table: pairs from the two columns.
    Splits(&'a [u8], &'a [u8]),
    /// The pair table: each merged token under the pair it was merged from.
    Pairs(&'a [u8], &'a [u8]),
    Bytes(&'a [u8]),
    /// A sequence of little-endian `u32`s.
    Words(&'a [u8]),
    Number(u64),
}

impl<'de> Deserializer<'de> for Field<'_> {
    type Error = Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        match self {
            Field::Empty => visitor.visit_seq(SeqDeserializer::<_, Error>::new(std::iter::empty::<u32>())),
            Field::TokenStarts(lengths) => {
                let starts = std::iter::once(0u32).chain(lengths.iter().scan(0u32, |start, &length| {
                    *start += u32::from(length);
                    Some(*start)
                }));
                SeqDeserializer::new(starts).deserialize_any(visitor)
            }
            Field::Splits(firsts, seconds) => {
                SeqDeserializer::new(words(firsts).zip(words(seconds)).map(Pair)).deserialize_any(visitor)
            }
            Field::Pairs(firsts, seconds) => {
                // A token of one byte is split into itself and has no pair.
                let pairs = (0u32..)
                    .zip(words(firsts).zip(words(seconds)))
                    .filter(|&(id, pair)| pair != (id, id))
                    .map(|(id, pair)| (Pair(pair), id));
                MapDeserializer::new(pairs).deserialize_any(visitor)
            }
            Field::Bytes(bytes) => visitor.visit_bytes(bytes),
            Field::Words(bytes) => SeqDeserializer::new(words(bytes)).deserialize_any(visitor),
            Field::Number(n) => visitor.visit_u64(n),
        }
    }

    fn deserialize_map<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        match self {
            Field::Empty => visitor.visit_map(MapDeserializer::<_, Error>::new(std::iter::empty::<(u32, u32)>())),
            other => other.deserialize_any(visitor),
        }
    }

    forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf
        option unit unit_struct newtype_struct seq tuple tuple_struct struct enum
        identifier ignored_any
    }
}

/// Little-endian `u32`s, read from `bytes` (callers check the lengths first).
fn words(bytes: &[u8]) -> impl Iterator<Item = u32> + '_ {
    bytes.chunks_exact(4).map(|w| u32::from_le_bytes([w[0], w[1], w[2], w[3]]))
}

/// Two token ids, served as a two-element sequence (a tuple).
struct Pair((u32, u32));

impl<'de> IntoDeserializer<'de, Error> for Pair {
    type Deserializer = PairDeserializer;

    fn into_deserializer(self) -> PairDeserializer {
        PairDeserializer(self.0, PhantomData)
    }
}

struct PairDeserializer((u32, u32), PhantomData<Error>);

impl<'de> Deserializer<'de> for PairDeserializer {
    type Error = Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        let (first, second) = self.0;
        SeqDeserializer::new([first, second].into_iter()).deserialize_any(visitor)
    }

    forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf
        option unit unit_struct newtype_struct seq tuple tuple_struct map struct enum
        identifier ignored_any
    }
}
