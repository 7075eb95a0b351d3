//! Aggregation over records: the shape of a result when the model needs it rather than
//! the rows ("1,412 issues, 87% updated in the last 30 days, top labels: bug 402, ui 120").
//!
//! An [`Aggregator`] is fed one record at a time, so a result of millions of records is
//! summarised without holding it: memory is bounded by the number of distinct group values
//! (capped at [`MAX_DISTINCT`] per group-by) and, for a window measured from the latest
//! timestamp, by a histogram capped at [`MAX_BUCKETS`] buckets. Nothing here reads the clock:
//! the caller passes "now" in, or leaves it out to measure the window from the data itself.
//!
//! Paths follow [`FieldPath`]. A fan-out (`labels[].name`) contributes one value per element.
//! A path that ends on an array contributes its elements too, because counting whole arrays
//! (`["bug","ui"]` as one value) is almost never what a group-by or a statistic means. A record
//! that reaches no value at all (missing field, `null` in the way, empty array) contributes
//! one "missing" value, so every record is accounted for in every group-by: missing values are
//! grouped as [`NONE_KEY`], skipped by statistics and counted as unknown by the window.

mod spec;
mod summary;

use std::collections::{BTreeMap, HashMap};

use serde_json::Value;

pub use spec::{
    AggregateSpec, GroupBy, MAX_BUCKETS, MAX_DISTINCT, MAX_KEY_BYTES, MAX_TOP, NONE_KEY, OTHER_KEY, RecentWindow,
    Window, WindowError, WindowUnit,
};
pub use summary::{Aggregate, FieldStats, GroupCounts, RecentShare, round3};

use crate::path::{FieldPath, Segment};

/// Streams records into an [`Aggregate`].
#[derive(Debug, Clone)]
pub struct Aggregator {
    count: u64,
    groups: Vec<GroupState>,
    stats: Vec<StatState>,
    recent: Option<RecentState>,
}

#[derive(Debug, Clone)]
struct GroupState {
    field: FieldPath,
    top: usize,
    tally: Tally,
}

#[derive(Debug, Clone, Default)]
struct Tally {
    counts: HashMap<Box<str>, u64>,
    other: u64,
}

// Each state keeps its path apart from its accumulator so a closure can borrow both at once.
#[derive(Debug, Clone)]
struct StatState {
    field: FieldPath,
    acc: StatAcc,
}

#[derive(Debug, Clone)]
struct StatAcc {
    count: u64,
    skipped: u64,
    min: f64,
    max: f64,
    mean: f64,
    sum: f64,
    // Neumaier compensation: sums of millions of values keep their low digits.
    compensation: f64,
}

#[derive(Debug, Clone)]
struct RecentState {
    field: FieldPath,
    within: Window,
    acc: RecentAcc,
}

#[derive(Debug, Clone)]
struct RecentAcc {
    window_ms: i64,
    now_ms: Option<i64>,
    parsed: u64,
    unknown: u64,
    in_window: u64,
    latest: Option<i64>,
    hist: Histogram,
}

/// Timestamp counts (milliseconds) in buckets of `2^shift` ms, for a window whose end (the
/// latest timestamp) is only known at the end. Exact while the in-window timestamps span at
/// most [`MAX_BUCKETS`] distinct milliseconds; past that, buckets double in width so memory
/// stays bounded, and only the one bucket straddling the window's edge is estimated.
#[derive(Debug, Clone, Default)]
struct Histogram {
    shift: u32,
    buckets: BTreeMap<i64, u64>,
}

impl Histogram {
    fn add(&mut self, ts: i64, floor: i64) {
        *self.buckets.entry(ts >> self.shift).or_insert(0) += 1;
        if self.buckets.len() > MAX_BUCKETS {
            // First drop what fell out of the window; coarsen only if that was not enough.
            self.buckets = self.buckets.split_off(&(floor >> self.shift));
            while self.buckets.len() > MAX_BUCKETS / 2 && self.shift < 62 {
                let mut merged = BTreeMap::new();
                for (k, n) in std::mem::take(&mut self.buckets) {
                    *merged.entry(k >> 1).or_insert(0) += n;
                }
                self.buckets = merged;
                self.shift += 1;
            }
        }
    }

    /// Count timestamps at or after `floor`; the flag says whether it was estimated.
    fn count_from(&self, floor: i64) -> (u64, bool) {
        let edge = floor >> self.shift;
        let mut total: u64 =
            self.buckets.range(edge.saturating_add(1)..).map(|(_, n)| *n).fold(0u64, u64::saturating_add);
        let Some(&n) = self.buckets.get(&edge) else {
            return (total, false);
        };
        let start = edge << self.shift;
        if start == floor {
            return (total.saturating_add(n), false);
        }
        // The edge bucket straddles the window: count it in when most of it lies inside.
        let width = 1i64 << self.shift;
        let inside = start.saturating_add(width).saturating_sub(floor);
        if inside.saturating_mul(2) >= width {
            total = total.saturating_add(n);
        }
        (total, true)
    }
}

impl Aggregator {
    /// An aggregator for `spec`. `now_unix_seconds` anchors the recent window; with `None`
    /// the window is measured back from the latest timestamp seen in the data, which suits
    /// saved payloads whose "now" is long past.
    pub fn new(spec: &AggregateSpec, now_unix_seconds: Option<i64>) -> Aggregator {
        Aggregator {
            count: 0,
            groups: spec
                .group_by
                .iter()
                .map(|g| GroupState { field: g.field.clone(), top: g.top.min(MAX_TOP), tally: Tally::default() })
                .collect(),
            stats: spec
                .stats
                .iter()
                .map(|f| StatState {
                    field: f.clone(),
                    acc: StatAcc {
                        count: 0,
                        skipped: 0,
                        min: f64::INFINITY,
                        max: f64::NEG_INFINITY,
                        mean: 0.0,
                        sum: 0.0,
                        compensation: 0.0,
                    },
                })
                .collect(),
            recent: spec.recent.as_ref().map(|r| RecentState {
                field: r.field.clone(),
                within: r.within,
                acc: RecentAcc {
                    window_ms: r.within.seconds().saturating_mul(1000),
                    now_ms: now_unix_seconds.map(|s| s.saturating_mul(1000)),
                    parsed: 0,
                    unknown: 0,
                    in_window: 0,
                    latest: None,
                    hist: Histogram::default(),
                },
            }),
        }
    }

    /// Records added so far.
    pub fn count(&self) -> u64 {
        self.count
    }

    /// Add one record. Any value is accepted; fields that are not there count as missing.
    pub fn add(&mut self, record: &Value) {
        self.count += 1;
        for g in &mut self.groups {
            for_each_value(&g.field, record, &mut |v| g.tally.add(v));
        }
        for s in &mut self.stats {
            for_each_value(&s.field, record, &mut |v| s.acc.add(v));
        }
        if let Some(r) = &mut self.recent {
            for_each_value(&r.field, record, &mut |v| r.acc.add(v));
        }
    }

    /// The aggregate of everything added.
    pub fn finish(self) -> Aggregate {
        Aggregate {
            count: self.count,
            groups: self.groups.into_iter().map(GroupState::finish).collect(),
            stats: self.stats.into_iter().map(StatState::finish).collect(),
            recent: self.recent.map(RecentState::finish),
        }
    }
}

/// Call `f` with every value `path` reaches in `record`: once per fan-out element, once per
/// element of an array the path ends on, and once with `None` where the path breaks off.
/// A record that reaches nothing at all (empty arrays) still calls `f(None)` once.
fn for_each_value<'v>(path: &FieldPath, record: &'v Value, f: &mut dyn FnMut(Option<&'v Value>)) {
    let mut calls = 0usize;
    walk(path.segments(), Some(record), &mut |v| {
        calls += 1;
        f(v);
    });
    if calls == 0 {
        f(None);
    }
}

fn walk<'v>(segments: &[Segment], value: Option<&'v Value>, f: &mut dyn FnMut(Option<&'v Value>)) {
    let Some((first, rest)) = segments.split_first() else {
        match value {
            Some(Value::Array(items)) => items.iter().for_each(|v| f(Some(v))),
            other => f(other),
        }
        return;
    };
    match (first, value) {
        (Segment::Key(k), Some(Value::Object(m))) => walk(rest, m.get(k), f),
        (Segment::Index(i), Some(Value::Array(a))) => walk(rest, a.get(*i), f),
        (Segment::Each, Some(Value::Array(a))) => {
            for item in a {
                walk(rest, Some(item), f);
            }
        }
        _ => f(None),
    }
}

impl Tally {
    fn add(&mut self, value: Option<&Value>) {
        match value {
            // Strings are the common case: look up by reference to avoid allocating.
            Some(Value::String(s)) if s.len() <= MAX_KEY_BYTES => self.bump(s),
            other => {
                let key = key_text(other);
                self.bump(&key);
            }
        }
    }

    fn bump(&mut self, key: &str) {
        if let Some(n) = self.counts.get_mut(key) {
            *n += 1;
        } else if self.counts.len() < MAX_DISTINCT {
            self.counts.insert(key.into(), 1);
        } else {
            self.other += 1;
        }
    }
}

impl GroupState {
    fn finish(self) -> GroupCounts {
        let mut all: Vec<(Box<str>, u64)> = self.tally.counts.into_iter().collect();
        let distinct = all.len() as u64;
        let by_rank = |a: &(Box<str>, u64), b: &(Box<str>, u64)| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0));
        if self.top < all.len() {
            // Partition first so only the kept values are sorted.
            if self.top > 0 {
                all.select_nth_unstable_by(self.top - 1, by_rank);
            }
            all.truncate(self.top);
        }
        all.sort_unstable_by(by_rank);
        GroupCounts {
            field: self.field.as_str().to_owned(),
            distinct,
            top: all.into_iter().map(|(k, n)| (k.into_string(), n)).collect(),
            other: self.tally.other,
        }
    }
}

/// The text a value is grouped under: strings as they are, numbers and booleans as JSON
/// text, `null` or missing as [`NONE_KEY`], objects and arrays as compact JSON; all cut to
/// [`MAX_KEY_BYTES`].
fn key_text(value: Option<&Value>) -> String {
    let mut out = match value {
        None | Some(Value::Null) => return NONE_KEY.to_owned(),
        Some(Value::String(s)) => s.clone(),
        Some(Value::Bool(b)) => b.to_string(),
        Some(Value::Number(n)) => n.to_string(),
        Some(v) => {
            let mut s = String::new();
            write_bounded(v, &mut s, 0);
            s
        }
    };
    cut_key(&mut out);
    out
}

fn cut_key(s: &mut String) {
    if s.len() > MAX_KEY_BYTES {
        let mut end = MAX_KEY_BYTES;
        while !s.is_char_boundary(end) {
            end -= 1;
        }
        s.truncate(end);
        s.push('…');
    }
}

/// Compact JSON of `v`, stopping once past [`MAX_KEY_BYTES`] and at depth 16, so a huge or
/// deeply nested value costs little and never exhausts the stack.
fn write_bounded(v: &Value, out: &mut String, depth: usize) {
    if out.len() > MAX_KEY_BYTES {
        return;
    }
    match v {
        Value::Array(items) => {
            if depth >= 16 {
                out.push_str("[…]");
                return;
            }
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if out.len() > MAX_KEY_BYTES {
                    break;
                }
                if i > 0 {
                    out.push(',');
                }
                write_bounded(item, out, depth + 1);
            }
            out.push(']');
        }
        Value::Object(map) => {
            if depth >= 16 {
                out.push_str("{…}");
                return;
            }
            out.push('{');
            for (i, (k, item)) in map.iter().enumerate() {
                if out.len() > MAX_KEY_BYTES {
                    break;
                }
                if i > 0 {
                    out.push(',');
                }
                write_json_string(k, out);
                out.push(':');
                write_bounded(item, out, depth + 1);
            }
            out.push('}');
        }
        Value::String(s) => write_json_string(s, out),
        Value::Number(n) => out.push_str(&n.to_string()),
        Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Value::Null => out.push_str("null"),
    }
}

fn write_json_string(s: &str, out: &mut String) {
    out.push('"');
    for c in s.chars() {
        if out.len() > MAX_KEY_BYTES {
            break;
        }
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            c if u32::from(c) < 0x20 => out.push_str(&format!("\\u{:04x}", u32::from(c))),
            c => out.push(c),
        }
    }
    out.push('"');
}

impl StatAcc {
    fn add(&mut self, value: Option<&Value>) {
        let Some(x) = value.and_then(Value::as_f64).filter(|x| x.is_finite()) else {
            self.skipped += 1;
            return;
        };
        self.count += 1;
        self.min = self.min.min(x);
        self.max = self.max.max(x);
        // A running mean, each term divided first, stays finite where the sum overflows.
        let n = self.count as f64;
        self.mean += x / n - self.mean / n;
        let t = self.sum + x;
        if t.is_finite() {
            self.compensation += if self.sum.abs() >= x.abs() { (self.sum - t) + x } else { (x - t) + self.sum };
        }
        self.sum = t;
    }
}

impl StatState {
    fn finish(self) -> FieldStats {
        let a = self.acc;
        let seen = a.count > 0;
        let finite = |x: f64| (seen && x.is_finite()).then_some(x);
        FieldStats {
            field: self.field.as_str().to_owned(),
            count: a.count,
            skipped: a.skipped,
            min: finite(a.min),
            max: finite(a.max),
            mean: finite(a.mean),
            sum: finite(a.sum + a.compensation),
        }
    }
}

/// Milliseconds since the epoch from a timestamp value: a time written as text (see
/// [`time_text`](crate::time_text)), a string of digits, or a number of seconds,
/// milliseconds, microseconds or nanoseconds told apart by magnitude. Seconds below 10^11
/// reach the year 5138; milliseconds from 10^11 start in 1973, so the ranges do not meet in
/// practice.
pub(crate) fn timestamp_millis(value: &Value) -> Option<i64> {
    match value {
        Value::Number(n) => epoch_millis(n.as_f64()?),
        Value::String(s) => crate::time_text::time_text_millis(s.trim()),
        _ => None,
    }
}

pub(crate) fn epoch_millis(x: f64) -> Option<i64> {
    let a = x.abs();
    let ms = if a >= 1e17 {
        x / 1e6
    } else if a >= 1e14 {
        x / 1e3
    } else if a >= 1e11 {
        x
    } else {
        x * 1e3
    };
    // The range of RFC 3339 years (0000–9999), so every accepted value can be printed.
    const LIMIT: f64 = 253_402_300_799_999.0;
    (ms.is_finite() && ms.abs() <= LIMIT).then(|| ms.floor() as i64)
}

impl RecentAcc {
    fn add(&mut self, value: Option<&Value>) {
        let Some(ts) = value.and_then(timestamp_millis) else {
            self.unknown += 1;
            return;
        };
        self.parsed += 1;
        match self.now_ms {
            Some(now) => {
                if ts >= now.saturating_sub(self.window_ms) {
                    self.in_window += 1;
                }
            }
            None => {
                let latest = self.latest.map_or(ts, |l| l.max(ts));
                self.latest = Some(latest);
                let floor = latest.saturating_sub(self.window_ms);
                // Older than the window's start now means older forever: the latest only grows.
                if ts >= floor {
                    self.hist.add(ts, floor);
                }
            }
        }
    }
}

impl RecentState {
    fn finish(self) -> RecentShare {
        let a = self.acc;
        let (count, approximate, until) = match (a.now_ms, a.latest) {
            (Some(_), _) => (a.in_window, false, None),
            (None, Some(latest)) => {
                let (n, approx) = a.hist.count_from(latest.saturating_sub(a.window_ms));
                let until = jiff::Timestamp::from_millisecond(latest).ok().map(|t| t.to_string());
                (n, approx, until)
            }
            (None, None) => (0, false, None),
        };
        let share = if a.parsed == 0 { 0.0 } else { count as f64 / a.parsed as f64 };
        RecentShare {
            field: self.field.as_str().to_owned(),
            within: self.within,
            count,
            share: round3(share),
            parsed: a.parsed,
            unknown: a.unknown,
            until,
            approximate,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn histogram_coarsens_and_stays_bounded() {
        let mut h = Histogram::default();
        for ts in 0..(MAX_BUCKETS as i64 * 4) {
            h.add(ts, 0);
        }
        assert!(h.buckets.len() <= MAX_BUCKETS);
        assert!(h.shift > 0);
        let (n, _) = h.count_from(0);
        assert_eq!(n, MAX_BUCKETS as u64 * 4);
    }

    #[test]
    fn key_text_of_structures_is_bounded_json() {
        let big = json!({"a": "x".repeat(1000), "b": [1, 2]});
        let k = key_text(Some(&big));
        assert!(k.len() <= MAX_KEY_BYTES + '…'.len_utf8());
        assert!(k.starts_with("{\"a\":\"xxx"));
        assert_eq!(key_text(Some(&json!([1, "a"]))), "[1,\"a\"]");
        assert_eq!(key_text(None), NONE_KEY);
    }
}
