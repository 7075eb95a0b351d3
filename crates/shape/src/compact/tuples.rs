//! Tuples: short lists whose places mean something.
//!
//! Of numbers (a point's longitude, latitude and depth, a box's corners, a version's
//! parts): shown as one list in a record, but "which earthquake was the deepest" asks about
//! one place across all records, so each place gets the extremes a number field gets.
//! Found from the values: a list column whose every value in the sample is a list of
//! numbers, all of one length between [`MIN_LEN`] and [`MAX_LEN`], in at least half the
//! records. A place whose number is the same in every sampled record says nothing and is
//! left out.
//!
//! Of words (a search analytics row's `keys: [query, page, country, device]`): each place
//! holds a different kind of thing, so counting the list's values together mixes devices
//! with countries, and "which country gets the most clicks in total" needs the country as a
//! field. Such a list becomes a field per place (`keys[0]` … `keys[3]`), learned like any
//! field. Found from the values: in at least half the records of the sample, a list of
//! scalars, some of them strings, all of one length between [`MIN_LEN`] and
//! [`MAX_WORD_LEN`]; and the places' values apart, at most one distinct value in
//! [`SHARED_SHARE`] seen at two places (a list of two labels, `["bug", "ui"]` beside
//! `["ui", "bug"]`, is a set, not a tuple).

use std::collections::{HashMap, HashSet};

use serde_json::{Map, Value};

use super::read::at_path;
use super::{Column, Compactor, Extract, Holds, Step, stats};

/// The shortest list read as a tuple: one number is a value, not a place in a tuple.
const MIN_LEN: usize = 2;
/// The longest: past a few places a list of numbers is a series (samples, readings), whose
/// places do not each mean one thing.
const MAX_LEN: usize = 4;
/// Tuple columns looked at, at most.
const MAX_TUPLES: usize = 2;
/// The longest list of words read as a tuple: past it, a list of words is a list.
const MAX_WORD_LEN: usize = 6;
/// At most one distinct value in this many may be seen at two places of a tuple of words.
const SHARED_SHARE: usize = 20;

impl Compactor {
    /// Turn each list column whose places hold different kinds of words into a field per
    /// place.
    pub(super) fn split_tuples(&mut self, sample: &[Value], opaque_keys: &mut Vec<String>) {
        let n = sample.len();
        let mut out: Vec<Column> = Vec::with_capacity(self.columns.len());
        for column in std::mem::take(&mut self.columns) {
            let Some(len) = (column.extract == Extract::Value).then(|| word_tuple(sample, &column.path)).flatten()
            else {
                out.push(column);
                continue;
            };
            // Each place measured as if it were a field of the record.
            let as_objects: Vec<Value> = sample
                .iter()
                .map(|r| {
                    let places = at_path(r, &column.path).and_then(Value::as_array);
                    let m: Map<String, Value> = places
                        .into_iter()
                        .flatten()
                        .enumerate()
                        .map(|(place, v)| (place.to_string(), v.clone()))
                        .collect();
                    Value::Object(m)
                })
                .collect();
            let measured = stats::learn(&as_objects);
            for place in 0..len {
                let Some(node) = measured.child(&place.to_string()) else { continue };
                let mut path = column.path.clone();
                path.push(Step::Place(place));
                self.field(node, path, format!("{}[{place}]", column.name), n, opaque_keys);
            }
            out.append(&mut self.columns);
        }
        self.columns = out;
    }
}

/// The length of the tuples of words at `path` in the sample, if they are such.
fn word_tuple(sample: &[Value], path: &[Step]) -> Option<usize> {
    let lists: Vec<&Vec<Value>> = sample.iter().filter_map(|r| at_path(r, path)?.as_array()).collect();
    let len = lists.first()?.len();
    let scalars = |l: &&Vec<Value>| l.iter().all(|v| v.is_string() || v.is_number());
    if !(MIN_LEN..=MAX_WORD_LEN).contains(&len)
        || lists.len() * 2 < sample.len()
        || !lists.iter().all(|l| l.len() == len && scalars(l))
        || !lists.iter().any(|l| l.iter().any(Value::is_string))
    {
        return None;
    }
    let mut places_of: HashMap<String, HashSet<usize>> = HashMap::new();
    for list in &lists {
        for (place, v) in list.iter().enumerate() {
            let text = v.as_str().map_or_else(|| v.to_string(), str::to_owned);
            places_of.entry(text).or_default().insert(place);
        }
    }
    let shared = places_of.values().filter(|p| p.len() > 1).count();
    (shared * SHARED_SHARE <= places_of.len()).then_some(len)
}

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
