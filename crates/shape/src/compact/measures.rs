//! Measures among words: a field that holds a number in some records and a word in others
//! (a home's entity states: `21.5` for a thermometer, `on` for a lamp, `87` for a battery),
//! the number's meaning given by another field (`device_class`: temperature, battery).
//!
//! Such a field is neither counted well (every reading is its own value) nor ranged well
//! (a temperature beside a battery's percentage is no extreme), so "which room is the
//! warmest" needs the numbers' extremes within each kind. The kind is found from the
//! values: of the fields of few values that the numeric records hold, the one whose groups
//! explain most of the numbers' spread (the smallest share of squared deviation left within
//! groups, on a log scale, since kinds differ by magnitudes), and only when that share is
//! under [`MAX_LEFT`].

use serde_json::Value;

use super::{Compactor, Extract, Holds, decimal_value};

/// Numbers must be at least this share of a field's present values, in fifths, and at most
/// `5 - MIN_FIFTHS`: fewer are stray values, more make the field a number field.
const MIN_FIFTHS: usize = 1;
/// Numeric records needed in the sample to judge a grouping.
const MIN_NUMBERS: usize = 6;
/// Kinds a grouping may have among the numeric records.
pub(crate) const MAX_GROUPS: usize = 8;
/// The share of the numeric records, in tenths, that must hold a kind.
const MIN_KINDED_TENTHS: usize = 8;
/// The share of the numbers' spread a grouping may leave within its groups.
const MAX_LEFT: f64 = 0.5;

/// A field of mixed numbers and words, and the field whose values tell the numbers' kinds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Measure {
    pub(crate) column: usize,
    pub(crate) by: usize,
}

/// The number a value holds: a JSON number or a decimal written as text.
fn number_of(v: &Value) -> Option<f64> {
    v.as_f64().or_else(|| v.as_str().and_then(decimal_value))
}

/// The mixed fields of the records and their kinds, judged on the sample.
pub(crate) fn measures(c: &Compactor, sample: &[Value]) -> Vec<Measure> {
    let mut out = Vec::new();
    for (i, col) in c.columns.iter().enumerate() {
        if col.extract != Extract::Value || matches!(col.holds, Holds::Numbers | Holds::Times) || Some(i) == c.key {
            continue;
        }
        let values: Vec<Option<Value>> = sample.iter().map(|r| c.value(i, r).filter(|v| !v.is_null())).collect();
        let present = values.iter().flatten().count();
        let numbers: Vec<(usize, f64)> =
            values.iter().enumerate().filter_map(|(r, v)| Some((r, number_of(v.as_ref()?)?))).collect();
        let share_ok = numbers.len() * 5 >= present * MIN_FIFTHS && numbers.len() * 5 <= present * (5 - MIN_FIFTHS);
        if numbers.len() < MIN_NUMBERS || !share_ok {
            continue;
        }
        if let Some(by) = best_grouping(c, sample, i, &numbers) {
            out.push(Measure { column: i, by });
        }
    }
    out
}

/// Of the fields of few values every numeric record holds, the one whose groups leave the
/// least of the numbers' spread within them, if under [`MAX_LEFT`].
fn best_grouping(c: &Compactor, sample: &[Value], column: usize, numbers: &[(usize, f64)]) -> Option<usize> {
    let scaled: Vec<f64> = numbers.iter().map(|(_, x)| x.signum() * x.abs().ln_1p()).collect();
    let mut best: Option<(f64, usize)> = None;
    for (j, col) in c.columns.iter().enumerate() {
        if j == column || col.holds != Holds::Categories || col.extract != Extract::Value {
            continue;
        }
        // Most numeric records must hold a kind; those without one are left out of the
        // judgement, and of every kind's extremes.
        let kinds: Vec<Option<String>> = numbers
            .iter()
            .map(|&(r, _)| {
                c.value(j, &sample[r])
                    .filter(|v| !v.is_null() && !v.is_array() && !v.is_object())
                    .map(|v| v.to_string())
            })
            .collect();
        if kinds.iter().flatten().count() * 10 < numbers.len() * MIN_KINDED_TENTHS {
            continue;
        }
        let mut groups: Vec<(String, Vec<f64>)> = Vec::new();
        for (kind, &t) in kinds.into_iter().zip(&scaled) {
            let Some(kind) = kind else { continue };
            match groups.iter_mut().find(|(k, _)| *k == kind) {
                Some((_, xs)) => xs.push(t),
                None => groups.push((kind, vec![t])),
            }
        }
        if !(2..=MAX_GROUPS).contains(&groups.len()) {
            continue;
        }
        let kinded: Vec<f64> = groups.iter().flat_map(|(_, xs)| xs.iter().copied()).collect();
        let mean = kinded.iter().sum::<f64>() / kinded.len() as f64;
        let total: f64 = kinded.iter().map(|t| (t - mean).powi(2)).sum();
        if total <= f64::EPSILON {
            continue;
        }
        let within: f64 = groups
            .iter()
            .map(|(_, xs)| {
                let m = xs.iter().sum::<f64>() / xs.len() as f64;
                xs.iter().map(|t| (t - m).powi(2)).sum::<f64>()
            })
            .sum();
        let left = within / total;
        if left < MAX_LEFT && best.is_none_or(|(b, _)| left < b) {
            best = Some((left, j));
        }
    }
    best.map(|(_, j)| j)
}

impl Compactor {
    /// Every field of numbers becomes a measure whose kinds the field `by` tells: its
    /// extremes are said within each kind and not over all. For records of several kinds
    /// whose numbers mean different things in each (an XML report's suites and cases).
    pub(crate) fn measure_by(&mut self, by: &str) {
        let Some(by) = self.columns.iter().position(|c| c.name == by) else { return };
        for (i, col) in self.columns.iter_mut().enumerate() {
            if col.holds == Holds::Numbers && i != by && Some(i) != self.key {
                col.holds = Holds::Other;
                self.measures.push(Measure { column: i, by });
            }
        }
    }
}
