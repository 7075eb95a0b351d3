//! Finding a record's member by the position it had in the record read before.
//!
//! The records of one result almost always write their members in the same order, so the
//! member a column read at position 7 of the last record is at position 7 of the next one.
//! Trying that position first costs a pointer step per member before it and one comparison of
//! names, where `serde_json`'s map hashes the name with SipHash on every lookup, the largest
//! single cost of reading a column. The answer is the one [`Value::get`] gives: a hint that
//! misses falls back to a search, and a hint is only ever a guess.

use std::sync::atomic::{AtomicU32, Ordering};

use serde_json::Value;

/// Steps of a path that keep a position hint; deeper steps are looked up by name alone.
const HINTED_STEPS: usize = 4;

/// Objects with more members than this are looked up by name alone: stepping to a far
/// position, or scanning for a missing name, would cost more than hashing it.
const SCAN_MEMBERS: usize = 48;

/// The positions a column's path last found its members at, one per step (atomics only so
/// that a column can be shared between threads; the order of updates does not matter).
#[derive(Debug, Default)]
pub(super) struct Hints([AtomicU32; HINTED_STEPS]);

impl Clone for Hints {
    fn clone(&self) -> Self {
        Hints(std::array::from_fn(|i| AtomicU32::new(self.0[i].load(Ordering::Relaxed))))
    }
}

impl Hints {
    /// The hint of the path's step `step`, if it keeps one.
    pub(super) fn at(&self, step: usize) -> Option<&AtomicU32> {
        self.0.get(step)
    }
}

/// `value[key]` as [`Value::get`] finds it, trying the position in `hint` first and leaving
/// there the position it was found at.
pub(super) fn member<'v>(value: &'v Value, key: &str, hint: Option<&AtomicU32>) -> Option<&'v Value> {
    let (Value::Object(map), Some(hint)) = (value, hint) else {
        return value.get(key);
    };
    if map.len() > SCAN_MEMBERS {
        return map.get(key);
    }
    let guess = hint.load(Ordering::Relaxed) as usize;
    if let Some((name, found)) = map.iter().nth(guess)
        && name == key
    {
        return Some(found);
    }
    let (at, (_, found)) = map.iter().enumerate().find(|(_, (name, _))| *name == key)?;
    // `at` is below `SCAN_MEMBERS`.
    hint.store(at as u32, Ordering::Relaxed);
    Some(found)
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;
    use serde_json::{Map, Value, json};

    use super::{AtomicU32, Hints, SCAN_MEMBERS, member};

    /// Whatever the hint and the order of members, the member found is `Value::get`'s.
    #[test]
    fn finds_what_get_finds() {
        let records = [
            json!({"a": 1, "b": 2, "c": 3}),
            json!({"c": 30, "a": 10}),
            json!({"b": 200, "c": 300, "a": 100, "d": 400}),
            json!({}),
            json!([1, 2]),
            json!("text"),
        ];
        let hint = AtomicU32::new(0);
        for round in 0..2 {
            for record in &records {
                for key in ["a", "b", "c", "d", "e", ""] {
                    assert_eq!(member(record, key, Some(&hint)), record.get(key), "{record} {key} {round}");
                    assert_eq!(member(record, key, None), record.get(key));
                }
            }
        }
    }

    /// A hit leaves the hint at the member's position, so the next record finds it first.
    #[test]
    fn remembers_the_position() {
        let hint = AtomicU32::new(0);
        let record = json!({"x": 1, "y": 2, "z": 3});
        assert_eq!(member(&record, "z", Some(&hint)), Some(&json!(3)));
        assert_eq!(hint.load(std::sync::atomic::Ordering::Relaxed), 2);
        let hints = Hints::default();
        let copy = hints.clone();
        assert!(copy.at(3).is_some() && copy.at(4).is_none());
    }

    /// A large object is looked up by name, with the same answer.
    #[test]
    fn large_objects() {
        let map: Map<String, Value> = (0..SCAN_MEMBERS * 2).map(|i| (format!("k{i}"), json!(i))).collect();
        let record = Value::Object(map);
        let hint = AtomicU32::new(5);
        for i in [0, 5, SCAN_MEMBERS, SCAN_MEMBERS * 2 - 1, SCAN_MEMBERS * 2] {
            let key = format!("k{i}");
            assert_eq!(member(&record, &key, Some(&hint)), record.get(&key));
        }
    }

    proptest! {
        /// Records of shuffled, partly missing members, read with one shared hint.
        #[test]
        fn shuffled_records(records in prop::collection::vec(prop::collection::vec((0u8..12, any::<i32>()), 0..14), 1..8), hint in 0u32..20) {
            let hint = AtomicU32::new(hint);
            for members in &records {
                let map: Map<String, Value> = members.iter().map(|(k, v)| (format!("m{k}"), json!(v))).collect();
                let record = Value::Object(map);
                for k in 0..13u8 {
                    let key = format!("m{k}");
                    prop_assert_eq!(member(&record, &key, Some(&hint)), record.get(&key));
                }
            }
        }
    }
}
