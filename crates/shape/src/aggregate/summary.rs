//! The result of aggregating, and the one-line phrase a summary carries.

use serde::{Serialize, Serializer};

use super::spec::{OTHER_KEY, Window};
use crate::numfmt::{percent, thousands};

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
    fn participles_and_names() {
        assert_eq!(participle("updated_at"), Some("updated"));
        assert_eq!(participle("meta.createdAt"), Some("created"));
        assert_eq!(participle("timestamp"), None);
        assert_eq!(field_name("labels[].name"), "labels");
        assert_eq!(field_name("user.login"), "user.login");
        assert_eq!(field_name("pr.labels[].name"), "labels");
    }
}
