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

use std::collections::{BTreeMap, HashMap};
use std::fmt;
use std::str::FromStr;

use serde::de::{self, Deserializer, MapAccess, Visitor};
use serde::{Deserialize, Serialize, Serializer};
use serde_json::Value;

use crate::numfmt::{percent, thousands};
use crate::path::{FieldPath, Segment};

/// Distinct values one group-by keeps in memory; later new values are counted as `(other)`.
pub const MAX_DISTINCT: usize = 100_000;
/// Longest group value kept, in bytes; longer values are cut (at a character boundary) and
/// end with `…`, so two long values sharing this prefix are counted together.
pub const MAX_KEY_BYTES: usize = 256;
/// The group value for a missing field or `null`.
pub const NONE_KEY: &str = "(none)";
/// How new values past [`MAX_DISTINCT`] are named in a phrase.
pub const OTHER_KEY: &str = "(other)";
/// Largest `top` accepted for a group-by: a longer list defeats the point of aggregating.
pub const MAX_TOP: usize = 1_000;
/// Live buckets the "measured from the latest timestamp" window keeps before it coarsens.
pub const MAX_BUCKETS: usize = 65_536;

const DEFAULT_TOP: usize = 5;

fn default_top() -> usize {
    DEFAULT_TOP
}

/// What to aggregate, as declared in a mask's `result.aggregate`.
#[derive(Debug, Clone, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct AggregateSpec {
    /// Return the aggregate alone, without records. The aggregator itself ignores this; the
    /// shaper that owns the records reads it.
    #[serde(default)]
    pub only: bool,
    /// Count records per value of these fields, keeping the most frequent.
    #[serde(default)]
    pub group_by: Vec<GroupBy>,
    /// Numeric statistics (count, min, max, mean, sum) of these fields.
    #[serde(default)]
    pub stats: Vec<FieldPath>,
    /// The share of records whose timestamp falls within a recent window.
    #[serde(default)]
    pub recent: Option<RecentWindow>,
}

/// One group-by: a field and how many of its most frequent values to report. In config it
/// is either `{field: labels[].name, top: 3}` or just the path, which keeps the top 5.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct GroupBy {
    /// The field whose values are counted.
    pub field: FieldPath,
    /// How many of the most frequent values to report (default 5, at most [`MAX_TOP`]).
    pub top: usize,
}

impl GroupBy {
    /// A group-by keeping the default top 5.
    pub fn new(field: FieldPath) -> Self {
        GroupBy { field, top: DEFAULT_TOP }
    }
}

impl<'de> Deserialize<'de> for GroupBy {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        // A hand-written visitor rather than `#[serde(untagged)]`: untagged enums report
        // "did not match any variant", which tells a config author nothing.
        #[derive(Deserialize)]
        #[serde(deny_unknown_fields)]
        struct Full {
            field: FieldPath,
            #[serde(default = "default_top")]
            top: usize,
        }

        struct GroupByVisitor;

        impl<'de> Visitor<'de> for GroupByVisitor {
            type Value = GroupBy;

            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a field path like `labels[].name`, or `{field: labels[].name, top: 5}`")
            }

            fn visit_str<E: de::Error>(self, s: &str) -> Result<GroupBy, E> {
                FieldPath::parse(s).map(GroupBy::new).map_err(E::custom)
            }

            fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<GroupBy, A::Error> {
                let full = Full::deserialize(de::value::MapAccessDeserializer::new(map))?;
                if full.top > MAX_TOP {
                    return Err(de::Error::custom(format!(
                        "group_by `{}`: top is {}, at most {MAX_TOP} is allowed",
                        full.field, full.top
                    )));
                }
                Ok(GroupBy { field: full.field, top: full.top })
            }
        }

        d.deserialize_any(GroupByVisitor)
    }
}

/// The recent-window part of an [`AggregateSpec`]: which timestamp, and how recent.
#[derive(Debug, Clone, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct RecentWindow {
    /// The timestamp field: RFC 3339 strings, or unix seconds / milliseconds as numbers.
    pub field: FieldPath,
    /// How far back the window reaches, e.g. `30d`.
    pub within: Window,
}

/// A unit of a [`Window`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum WindowUnit {
    /// `s`
    Seconds,
    /// `m`
    Minutes,
    /// `h`
    Hours,
    /// `d`
    Days,
    /// `w`
    Weeks,
}

impl WindowUnit {
    fn seconds(self) -> i64 {
        match self {
            WindowUnit::Seconds => 1,
            WindowUnit::Minutes => 60,
            WindowUnit::Hours => 3_600,
            WindowUnit::Days => 86_400,
            WindowUnit::Weeks => 604_800,
        }
    }

    fn letter(self) -> char {
        match self {
            WindowUnit::Seconds => 's',
            WindowUnit::Minutes => 'm',
            WindowUnit::Hours => 'h',
            WindowUnit::Days => 'd',
            WindowUnit::Weeks => 'w',
        }
    }

    fn word(self) -> &'static str {
        match self {
            WindowUnit::Seconds => "second",
            WindowUnit::Minutes => "minute",
            WindowUnit::Hours => "hour",
            WindowUnit::Days => "day",
            WindowUnit::Weeks => "week",
        }
    }
}

/// A length of time written as a whole number and a unit: `30d`, `24h`, `90m`, `2w`, `45s`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Window {
    amount: u32,
    unit: WindowUnit,
}

/// Longest window accepted: 100 years, far beyond any use, small enough to never overflow.
const MAX_WINDOW_SECONDS: i64 = 100 * 366 * 86_400;

/// Why a window did not parse.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("invalid window `{text}`: {reason} (write a whole number and a unit, like `30d`, `24h`, `90m`, `2w` or `45s`)")]
pub struct WindowError {
    /// The text that was given.
    pub text: String,
    /// What is wrong with it.
    pub reason: String,
}

impl Window {
    /// A window of `amount` units; `None` when it is zero or longer than 100 years.
    pub fn new(amount: u32, unit: WindowUnit) -> Option<Window> {
        let w = Window { amount, unit };
        (amount > 0 && w.seconds() <= MAX_WINDOW_SECONDS).then_some(w)
    }

    /// Parse `30d`, `24h`, `90m`, `2w` or `45s`.
    pub fn parse(text: &str) -> Result<Window, WindowError> {
        let err = |reason: &str| WindowError { text: text.to_owned(), reason: reason.to_owned() };
        let t = text.trim();
        let digits = t.bytes().take_while(u8::is_ascii_digit).count();
        if digits == 0 {
            return Err(err("it must start with a number"));
        }
        let (num, unit) = t.split_at(digits);
        let unit = match unit.trim() {
            "s" => WindowUnit::Seconds,
            "m" => WindowUnit::Minutes,
            "h" => WindowUnit::Hours,
            "d" => WindowUnit::Days,
            "w" => WindowUnit::Weeks,
            "" => return Err(err("the unit is missing")),
            _ => return Err(err("the unit must be one of s, m, h, d, w")),
        };
        let amount: u32 = num.parse().map_err(|_| err("the number is too large"))?;
        if amount == 0 {
            return Err(err("it must be longer than zero"));
        }
        Window::new(amount, unit).ok_or_else(|| err("it must be at most 100 years"))
    }

    /// The number of units.
    pub fn amount(&self) -> u32 {
        self.amount
    }

    /// The unit.
    pub fn unit(&self) -> WindowUnit {
        self.unit
    }

    /// The length in seconds.
    pub fn seconds(&self) -> i64 {
        i64::from(self.amount) * self.unit.seconds()
    }

    /// The length in words for a phrase: `30 days`, or `day` for one.
    pub fn words(&self) -> String {
        if self.amount == 1 {
            self.unit.word().to_owned()
        } else {
            format!("{} {}s", thousands(u64::from(self.amount)), self.unit.word())
        }
    }
}

impl fmt::Display for Window {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.amount, self.unit.letter())
    }
}

impl FromStr for Window {
    type Err = WindowError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Window::parse(s)
    }
}

impl Serialize for Window {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Window {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = String::deserialize(d)?;
        Window::parse(&s).map_err(de::Error::custom)
    }
}

/// The result of aggregating: small, deterministic, serialised compactly.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Aggregate {
    /// Records seen.
    pub count: u64,
    /// One entry per group-by, in the order declared.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub groups: Vec<GroupCounts>,
    /// One entry per statistic, in the order declared.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub stats: Vec<FieldStats>,
    /// The recent-window share, when declared.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub recent: Option<RecentShare>,
}

/// Counts per value of one field.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct GroupCounts {
    /// The field path as written.
    pub field: String,
    /// Distinct values seen (those kept: see `other`).
    pub distinct: u64,
    /// The most frequent values with their counts, by count descending then value ascending.
    pub top: Vec<(String, u64)>,
    /// Occurrences of values first seen after [`MAX_DISTINCT`] were kept; zero normally. When
    /// non-zero, `distinct` is a lower bound.
    #[serde(skip_serializing_if = "is_zero")]
    pub other: u64,
}

/// Numeric statistics of one field. `min`, `max`, `mean` and `sum` are absent when no
/// number was seen; floats carry at most three significant digits (see [`round3`]).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct FieldStats {
    /// The field path as written.
    pub field: String,
    /// Numbers seen.
    pub count: u64,
    /// Values that were missing, `null` or not numbers (strings holding digits included).
    #[serde(skip_serializing_if = "is_zero")]
    pub skipped: u64,
    /// The smallest number.
    #[serde(skip_serializing_if = "Option::is_none", serialize_with = "ser_opt_num")]
    pub min: Option<f64>,
    /// The largest number.
    #[serde(skip_serializing_if = "Option::is_none", serialize_with = "ser_opt_num")]
    pub max: Option<f64>,
    /// The arithmetic mean.
    #[serde(skip_serializing_if = "Option::is_none", serialize_with = "ser_opt_num")]
    pub mean: Option<f64>,
    /// The sum; absent too when it overflows a double.
    #[serde(skip_serializing_if = "Option::is_none", serialize_with = "ser_opt_num")]
    pub sum: Option<f64>,
}

/// How many records carry a timestamp within the recent window.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RecentShare {
    /// The timestamp field path as written.
    pub field: String,
    /// The window.
    pub within: Window,
    /// Timestamps within the window.
    pub count: u64,
    /// `count` divided by the timestamps that parsed (0 when none did).
    #[serde(serialize_with = "ser_num")]
    pub share: f64,
    /// Values that parsed as a timestamp (not serialised: `count` and `share` imply it).
    #[serde(skip)]
    pub parsed: u64,
    /// Values that were missing or did not parse as a timestamp.
    #[serde(skip_serializing_if = "is_zero")]
    pub unknown: u64,
    /// When no "now" was given: the latest timestamp seen (RFC 3339), which the window is
    /// measured back from.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub until: Option<String>,
    /// True when the window was measured from the latest timestamp over so many distinct
    /// times that its edge was resolved to a bucket rather than a millisecond.
    #[serde(skip_serializing_if = "is_false")]
    pub approximate: bool,
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}

fn is_false(b: &bool) -> bool {
    !*b
}

/// Round for display: integral values stay exact; other values keep three significant
/// digits, and values of 100 or more become whole numbers. Deterministic (it goes through
/// decimal text, not repeated binary arithmetic) and short.
pub fn round3(x: f64) -> f64 {
    if !x.is_finite() || x.fract() == 0.0 {
        return x;
    }
    if x.abs() >= 100.0 {
        return x.round();
    }
    format!("{x:.2e}").parse().unwrap_or(x)
}

/// The JSON number for a display value: whole numbers without `.0`, floats rounded by
/// [`round3`], `None` for non-finite values (which JSON cannot carry).
fn json_number(x: f64) -> Option<serde_json::Number> {
    let r = round3(x);
    // 2^53: past it, not every integer is a double, so the cast would not be exact.
    if r.fract() == 0.0 && r.abs() < 9_007_199_254_740_992.0 {
        Some(serde_json::Number::from(r as i64))
    } else {
        serde_json::Number::from_f64(r)
    }
}

fn ser_num<S: Serializer>(x: &f64, s: S) -> Result<S::Ok, S::Error> {
    match json_number(*x) {
        Some(n) => n.serialize(s),
        None => s.serialize_none(),
    }
}

fn ser_opt_num<S: Serializer>(x: &Option<f64>, s: S) -> Result<S::Ok, S::Error> {
    match x.and_then(json_number) {
        Some(n) => n.serialize(s),
        None => s.serialize_none(),
    }
}

/// A number for a phrase: `4,480`, `-12`, `3.2`, `0.000123`.
fn phrase_number(x: f64) -> String {
    let r = round3(x);
    if r.fract() == 0.0 && r.abs() < 1e15 {
        let digits = thousands(r.abs() as u64);
        if r < 0.0 { format!("-{digits}") } else { digits }
    } else if r.abs() >= 1e15 {
        format!("{r:.2e}")
    } else {
        format!("{r}")
    }
}

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

/// Milliseconds since the epoch from a timestamp value: an RFC 3339 string (an offset-less
/// date-time or a bare date is taken as UTC), a string of digits, or a number of seconds,
/// milliseconds, microseconds or nanoseconds told apart by magnitude. Seconds below 10^11
/// reach the year 5138; milliseconds from 10^11 start in 1973, so the ranges do not meet in
/// practice.
pub fn timestamp_millis(value: &Value) -> Option<i64> {
    match value {
        Value::Number(n) => epoch_millis(n.as_f64()?),
        Value::String(s) => parse_time_text(s.trim()),
        _ => None,
    }
}

fn parse_time_text(s: &str) -> Option<i64> {
    if s.is_empty() || s.len() > 64 {
        return None;
    }
    if let Ok(ts) = s.parse::<jiff::Timestamp>() {
        return Some(ts.as_millisecond());
    }
    // Digits in a string ("1700000000") are epoch numbers; `2024-01-02` falls through.
    if let Ok(x) = s.parse::<f64>() {
        return epoch_millis(x);
    }
    let civil = s.parse::<jiff::civil::DateTime>().ok()?;
    jiff::tz::Offset::UTC.to_timestamp(civil).ok().map(jiff::Timestamp::as_millisecond)
}

fn epoch_millis(x: f64) -> Option<i64> {
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

/// A short name for a field in a phrase: `labels` for `labels[].name`, else the path.
fn field_name(path: &str) -> &str {
    match path.find("[]") {
        Some(i) if i > 0 => {
            let head = &path[..i];
            head.rsplit('.').next().unwrap_or(head)
        }
        _ => path,
    }
}

/// `updated` for `updated_at`, so a window reads "87% updated in the last 30 days".
fn participle(path: &str) -> Option<&str> {
    let last = path.rsplit(['.', ']']).next().unwrap_or(path);
    let stem = ["_at", "At", "_on", "_time", "Time", "_date", "Date", "_ts"]
        .iter()
        .find_map(|suffix| last.strip_suffix(suffix))?;
    (stem.len() > 2 && stem.ends_with("ed") && stem.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_'))
        .then_some(stem)
}

/// A value for a phrase, cut to 40 characters.
fn phrase_value(v: &str) -> String {
    if v.is_empty() {
        return "\"\"".to_owned();
    }
    let mut chars = v.chars();
    let head: String = chars.by_ref().take(40).collect();
    if chars.next().is_some() { format!("{head}…") } else { head }
}

impl Aggregate {
    /// One line for a model, e.g. "1,412 issues, 87% updated in the last 30 days; top labels:
    /// bug 402, ui 120, docs 88 (of 14); comments: min 0, mean 3.2, max 41". `noun` is used as
    /// given (plural).
    pub fn phrase(&self, noun: &str) -> String {
        let mut out = format!("{} {noun}", thousands(self.count));
        let details = self.details();
        if !details.is_empty() {
            out.push_str(if self.recent.is_some() { ", " } else { "; " });
            out.push_str(&details);
        }
        out
    }

    /// The phrase without its leading count, for a summary that already states the count.
    pub fn details(&self) -> String {
        let mut out = String::new();
        if let Some(r) = &self.recent {
            out.push_str(&r.phrase());
        }
        for g in &self.groups {
            if !out.is_empty() {
                out.push_str("; ");
            }
            out.push_str(&g.phrase());
        }
        for s in &self.stats {
            if !out.is_empty() {
                out.push_str("; ");
            }
            out.push_str(&s.phrase());
        }
        out
    }
}

impl RecentShare {
    fn phrase(&self) -> String {
        if self.parsed == 0 {
            return format!("no readable `{}`", self.field);
        }
        let verb = participle(&self.field).map_or_else(|| format!("with `{}`", self.field), str::to_owned);
        let share = percent((self.share * 1000.0).round() as u64, 1000);
        let mut out = match &self.until {
            Some(until) => {
                let day = until.get(..10).unwrap_or(until);
                format!("{share} {verb} within {} of the latest ({day})", self.within.words())
            }
            None => format!("{share} {verb} in the last {}", self.within.words()),
        };
        if self.unknown > 0 {
            out.push_str(&format!(" ({} without a readable date)", thousands(self.unknown)));
        }
        out
    }
}

impl GroupCounts {
    fn phrase(&self) -> String {
        let name = field_name(&self.field);
        if self.top.is_empty() {
            return format!("{name}: {} distinct", thousands(self.distinct));
        }
        let items: Vec<String> =
            self.top.iter().map(|(v, n)| format!("{} {}", phrase_value(v), thousands(*n))).collect();
        let mut out = format!("top {name}: {}", items.join(", "));
        if self.other > 0 {
            out.push_str(&format!(
                " (of over {} values; {} more as {OTHER_KEY})",
                thousands(self.distinct),
                thousands(self.other)
            ));
        } else if self.distinct > self.top.len() as u64 {
            out.push_str(&format!(" ({} distinct)", thousands(self.distinct)));
        }
        out
    }
}

impl FieldStats {
    fn phrase(&self) -> String {
        let name = field_name(&self.field);
        let mut out = match (self.min, self.mean, self.max) {
            (Some(min), Some(mean), Some(max)) if self.count > 0 => {
                format!("{name}: min {}, mean {}, max {}", phrase_number(min), phrase_number(mean), phrase_number(max))
            }
            _ => format!("{name}: no numbers"),
        };
        if self.skipped > 0 && self.count > 0 {
            out.push_str(&format!(" ({} not numbers)", thousands(self.skipped)));
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn round3_keeps_three_significant_digits() {
        assert_eq!(round3(5.4321), 5.43);
        assert_eq!(round3(0.871_234), 0.871);
        assert_eq!(round3(0.000_123_45), 0.000_123);
        assert_eq!(round3(41.26), 41.3);
        assert_eq!(round3(1234.5678), 1235.0);
        assert_eq!(round3(7.0), 7.0);
        assert_eq!(json_number(4480.0).map(|n| n.to_string()), Some("4480".to_owned()));
        assert_eq!(json_number(f64::NAN), None);
    }

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

    #[test]
    fn participles_and_names() {
        assert_eq!(participle("updated_at"), Some("updated"));
        assert_eq!(participle("meta.createdAt"), Some("created"));
        assert_eq!(participle("timestamp"), None);
        assert_eq!(field_name("labels[].name"), "labels");
        assert_eq!(field_name("user.login"), "user.login");
        assert_eq!(field_name("pr.labels[].name"), "labels");
    }
}
