//! Series: a record's readings over time, written as what a reader asks of them.
//!
//! Metrics APIs give each series as a list of points: `[[time, value], …]` (Prometheus'
//! `values`, Datadog's `pointlist`, Sentry's `stats`), or two lists of one length side by
//! side, times in one and values in the other (CloudWatch's `Timestamps` and `Values`, a
//! trend's `days` and `data`). Cut to its first three items, as any long list is, a series
//! of 288 points says nothing of when it peaked, how low it went or where it ends, and its
//! times, cut apart from its values, pair with nothing. So a series is written as one
//! cell: its number of points, its first and last three points and its highest and
//! lowest, each value with its time, as the result writes them (`288 points: 11.8 at …,
//! 12.6 at …, 11.6 at …, … 10.4 at …; highest 92.3 at …; lowest 9.6 at …`). The full records keep every point.
//!
//! Found from the values, never the names: a long-list column whose values, in nine of
//! ten sampled records that hold one, are lists of pairs whose first member is a time and
//! second a number; or lists of numbers beside a list of times of the same length in the
//! same object. The column of times is then said in the series' cell and left out.

use serde_json::Value;

use super::read::at_path;
use super::stats::decimal_value;
use super::{Column, Compactor, Extract, Step};
use crate::aggregate::epoch_millis;
use crate::time_text::time_text_millis;

/// Points a list needs, at least, to be read as a series: fewer are shown whole.
const MIN_POINTS: usize = 5;
/// Points looked at to decide what a list holds, at most, from its start.
const PEEK: usize = 50;
/// Points written at each end of a series.
const ENDS: usize = 3;

impl Compactor {
    /// Turn each long-list column that holds series into a series column; a column of
    /// times that only dates another column's values is left out.
    pub(super) fn read_series(&mut self, sample: &[Value]) {
        let mut said_times: Vec<Vec<Step>> = Vec::new();
        for i in 0..self.columns.len() {
            if self.columns[i].extract != Extract::Head {
                continue;
            }
            let path = self.columns[i].path.clone();
            if holds_series(sample, |r| points(r, &path, None)) {
                self.columns[i].extract = Extract::Series(None);
                continue;
            }
            let Some(times) = times_beside(sample, &path) else { continue };
            if holds_series(sample, |r| points(r, &path, Some(&times))) {
                let mut at = path[..path.len() - 1].to_vec();
                at.push(Step::Key(times.clone()));
                said_times.push(at);
                self.columns[i].extract = Extract::Series(Some(times));
            }
        }
        let mut dropped = Vec::new();
        self.columns.retain(|c| {
            let said = !matches!(c.extract, Extract::Series(_)) && said_times.contains(&c.path);
            if said {
                dropped.push(c.name.clone());
            }
            !said
        });
        self.dropped.extend(dropped);
    }
}

/// Whether nine in ten of the sampled records that hold a value read as a series there.
fn holds_series<'v>(sample: &'v [Value], read: impl Fn(&'v Value) -> Option<Points<'v>>) -> bool {
    let mut present = 0usize;
    let mut series = 0usize;
    for r in sample {
        match read(r) {
            Some(Points::Series(_)) => {
                present += 1;
                series += 1;
            }
            Some(Points::Other) => present += 1,
            None => {}
        }
    }
    present > 0 && series * 10 >= present * 9
}

/// What a record holds at a long-list column.
enum Points<'v> {
    /// A series: its points, each a time and a value.
    Series(Vec<(&'v Value, &'v Value)>),
    /// A list, but not of points (or too short to be worth a summary).
    Other,
}

/// The points at `path` in `record`: pairs in the list itself, or the list's values with
/// the times of the list named `times` beside it. `None` where the record holds no list.
fn points<'v>(record: &'v Value, path: &[Step], times: Option<&str>) -> Option<Points<'v>> {
    let list = at_path(record, path)?.as_array()?;
    if list.len() < MIN_POINTS {
        return Some(Points::Other);
    }
    let pairs: Vec<(&Value, &Value)> = match times {
        None => {
            let pairs: Option<Vec<(&Value, &Value)>> = list
                .iter()
                .map(|p| match p.as_array().map(Vec::as_slice) {
                    Some([t, v]) => Some((t, v)),
                    _ => None,
                })
                .collect();
            match pairs {
                Some(p) => p,
                None => return Some(Points::Other),
            }
        }
        Some(key) => {
            let Some(stamps) = sibling(record, path, key).and_then(Value::as_array).filter(|s| s.len() == list.len())
            else {
                return Some(Points::Other);
            };
            stamps.iter().zip(list).collect()
        }
    };
    let peek = &pairs[..pairs.len().min(PEEK)];
    let timed = peek.iter().all(|(t, _)| is_time(t));
    let valued = peek.iter().all(|(_, v)| v.is_null() || number(v).is_some());
    let some_value = peek.iter().any(|(_, v)| number(v).is_some());
    Some(if timed && valued && some_value { Points::Series(pairs) } else { Points::Other })
}

/// The member `key` of the object that holds the list at `path`.
fn sibling<'v>(record: &'v Value, path: &[Step], key: &str) -> Option<&'v Value> {
    let (Step::Key(_), parent) = path.split_last()? else { return None };
    at_path(record, parent)?.get(key)
}

/// The name of the list of times beside the list at `path`, of the same length, in the
/// first sampled record that has one; the same name must hold times in the others.
fn times_beside(sample: &[Value], path: &[Step]) -> Option<String> {
    let (Step::Key(own), parent) = path.split_last()? else { return None };
    sample.iter().find_map(|r| {
        let len = at_path(r, path)?.as_array()?.len();
        let members = at_path(r, parent)?.as_object()?;
        members
            .iter()
            .find(|(k, v)| {
                k.as_str() != own.as_str()
                    && v.as_array()
                        .is_some_and(|a| a.len() == len && len >= MIN_POINTS && a.iter().take(PEEK).all(is_time))
            })
            .map(|(k, _)| k.clone())
    })
}

/// Whether `v` is a point in time: a Unix time in seconds or milliseconds, or a time
/// written as text.
fn is_time(v: &Value) -> bool {
    match v {
        Value::Number(n) => n.as_f64().and_then(epoch_millis).is_some(),
        Value::String(s) => s.len() >= 8 && time_text_millis(s).is_some(),
        _ => false,
    }
}

/// A point's value as a number: a JSON number, or one written as a string (`"0.4886"`).
fn number(v: &Value) -> Option<f64> {
    match v {
        Value::Number(n) => n.as_f64(),
        Value::String(s) => decimal_value(s),
        _ => None,
    }
}

impl Column {
    /// The series at this column in `record` written as one cell; `None` where the record
    /// holds no series there.
    pub(super) fn series_cell(&self, record: &Value, times: Option<&str>) -> Option<Value> {
        let Points::Series(pairs) = points(record, &self.path, times)? else { return None };
        Some(Value::String(summary(&pairs)))
    }
}

/// `288 points: 11.8 at T, 12.6 at T, 11.6 at T, … 10.4 at T; highest 92.3 at T; lowest
/// 9.6 at T`: the first and last [`ENDS`] points in the list's order, then its extremes,
/// the values and times as the result writes them, the first of equal extremes.
fn summary(pairs: &[(&Value, &Value)]) -> String {
    let text = |v: &Value| match v {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    };
    let point = |(t, v): &(&Value, &Value)| format!("{} at {}", text(v), text(t));
    let joined = |points: &[(&Value, &Value)]| points.iter().map(point).collect::<Vec<_>>().join(", ");
    let mut out = if pairs.len() > 2 * ENDS + 1 {
        format!("{} points: {}, … {}", pairs.len(), joined(&pairs[..ENDS]), joined(&pairs[pairs.len() - ENDS..]))
    } else {
        format!("{} points: {}", pairs.len(), joined(pairs))
    };
    let valued: Vec<(usize, f64)> = pairs.iter().enumerate().filter_map(|(i, (_, v))| Some((i, number(v)?))).collect();
    let highest = valued.iter().fold(None, |best: Option<(usize, f64)>, &(i, x)| match best {
        Some((_, b)) if b >= x => best,
        _ => Some((i, x)),
    });
    let lowest = valued.iter().fold(None, |best: Option<(usize, f64)>, &(i, x)| match best {
        Some((_, b)) if b <= x => best,
        _ => Some((i, x)),
    });
    if let (Some((hi, _)), Some((lo, _))) = (highest, lowest) {
        out.push_str(&format!("; highest {}; lowest {}", point(&pairs[hi]), point(&pairs[lo])));
    }
    if valued.len() < pairs.len() {
        out.push_str(&format!("; {} without a value", pairs.len() - valued.len()));
    }
    out
}

#[cfg(test)]
#[path = "series_tests.rs"]
mod tests;
