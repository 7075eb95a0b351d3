//! Tuples: short lists of numbers whose places mean something (a point's longitude,
//! latitude and depth, a box's corners, a version's parts). Shown as one list in a record,
//! but "which earthquake was the deepest" asks about one place across all records, so each
//! place gets the extremes a number field gets.
//!
//! Found from the values: a list column whose every value in the sample is a list of
//! numbers, all of one length between [`MIN_LEN`] and [`MAX_LEN`], in at least half the
//! records. A place whose number is the same in every sampled record says nothing and is
//! left out.

use serde_json::Value;

use super::{Compactor, Extract, Holds};

/// The shortest list read as a tuple: one number is a value, not a place in a tuple.
const MIN_LEN: usize = 2;
/// The longest: past a few places a list of numbers is a series (samples, readings), whose
/// places do not each mean one thing.
const MAX_LEN: usize = 4;
/// Tuple columns looked at, at most.
const MAX_TUPLES: usize = 2;

/// One place of a tuple column: the records' number at `place` of column `column`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Place {
    pub(crate) column: usize,
    pub(crate) place: usize,
}

/// The places of the records' tuple columns worth extremes, judged on the sample.
pub(crate) fn places(c: &Compactor, sample: &[Value]) -> Vec<Place> {
    let mut out = Vec::new();
    let candidates = c
        .columns
        .iter()
        .enumerate()
        .filter(|(i, col)| col.extract == Extract::Value && col.holds == Holds::Other && Some(*i) != c.key);
    let mut tuples = 0;
    for (i, _) in candidates {
        if tuples == MAX_TUPLES {
            break;
        }
        // Every present value must be a list of numbers; one that is not ends the column.
        let lists: Option<Vec<Vec<f64>>> = sample
            .iter()
            .filter_map(|r| c.value(i, r))
            .filter(|v| !v.is_null())
            .map(|v| v.as_array()?.iter().map(Value::as_f64).collect::<Option<Vec<f64>>>())
            .collect();
        let Some(lists) = lists else { continue };
        let Some(len) = lists.first().map(Vec::len) else { continue };
        if !(MIN_LEN..=MAX_LEN).contains(&len) || lists.len() * 2 < sample.len() || lists.iter().any(|l| l.len() != len)
        {
            continue;
        }
        tuples += 1;
        for place in 0..len {
            let first = lists[0][place];
            if lists.iter().any(|l| l[place] != first) {
                out.push(Place { column: i, place });
            }
        }
    }
    out
}
