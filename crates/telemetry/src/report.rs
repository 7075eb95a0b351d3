//! `toolshape report`: where the context goes, per tool, aggregated from spans.
//!
//! [`Report::build`] is pure: the same spans and window give the same report. Definitions:
//! - *tokens before / after*: sums over the tool's calls; a call whose pre-shaping count was
//!   estimated contributes its estimate (and is counted in `estimated_calls`);
//! - *saved*: tokens before minus tokens after, so totals always equal before minus after.
//!   It is negative where shaping cost tokens: an envelope around a tiny result (an error
//!   line, a short status) can be larger than the result, and that counts against the tool;
//! - *share*: the tool's tokens after shaping over all tools' (what the model actually read);
//! - *error rate*: calls with status `error` over calls;
//! - *largest*: the three calls with the most tokens before shaping.
//!
//! Tools are sorted by what costs most: tokens after shaping, then tokens before, then name.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::time::Duration;

use serde::Serialize;

use crate::search::SearchReport;
use toolshape_shape::thousands;

use crate::TelemetryError;
use crate::span::{CallStatus, MediaCounts, Span};

/// How many of a tool's largest calls a report lists.
pub const LARGEST_PER_TOOL: usize = 3;
/// The most points of the timeline.
pub const MAX_TIME_BUCKETS: usize = 60;

/// One of a tool's largest calls.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct LargestCall {
    /// When it ended (Unix ms).
    pub time_ms: i64,
    /// Tokens before shaping.
    pub tokens_before: u64,
    /// Whether that figure is an estimate.
    pub estimated: bool,
    /// Tokens after shaping.
    pub tokens_after: u64,
    /// Bytes before shaping.
    pub bytes_before: u64,
    /// How it ended.
    pub status: CallStatus,
    /// Where the cut fell.
    pub cut: Option<String>,
}

/// The figures of one tool.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ToolReport {
    /// The tool name.
    pub tool: String,
    /// Calls.
    pub calls: u64,
    /// Calls that ended in an error.
    pub errors: u64,
    /// `errors / calls`.
    pub error_rate: f64,
    /// Tokens before shaping.
    pub tokens_before: u64,
    /// Tokens after shaping (what the model read).
    pub tokens_after: u64,
    /// Tokens kept out of the context: `tokens_before - tokens_after`, negative where the
    /// envelopes made the tool's results larger than they were.
    pub tokens_saved: i64,
    /// This tool's part of all tokens after shaping, 0 to 1.
    pub share: f64,
    /// Bytes before shaping.
    pub bytes_before: u64,
    /// Bytes after shaping.
    pub bytes_after: u64,
    /// Records left out, over all calls.
    pub records_omitted: u64,
    /// Redactions, all kinds.
    pub redactions: u64,
    /// Calls whose pre-shaping tokens were estimated.
    pub estimated_calls: u64,
    /// The largest calls by tokens before shaping, largest first.
    pub largest: Vec<LargestCall>,
    /// Images, audio and blobs of its results.
    pub media: MediaCounts,
}

/// Tokens in one stretch of time.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct TimeBucket {
    /// Start (Unix ms, inclusive).
    pub start_ms: i64,
    /// End (Unix ms, exclusive).
    pub end_ms: i64,
    /// Calls that ended in it.
    pub calls: u64,
    /// Tokens before shaping.
    pub tokens_before: u64,
    /// Tokens after shaping.
    pub tokens_after: u64,
}

/// A report over a window of spans.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Report {
    /// The start of the window (Unix ms), or `None` for every span.
    pub since_ms: Option<i64>,
    /// When the report was made (Unix ms).
    pub generated_ms: i64,
    /// The first span's time, if any.
    pub first_ms: Option<i64>,
    /// The last span's time, if any.
    pub last_ms: Option<i64>,
    /// Calls.
    pub calls: u64,
    /// Calls that ended in an error.
    pub errors: u64,
    /// Tokens before shaping.
    pub tokens_before: u64,
    /// Tokens after shaping.
    pub tokens_after: u64,
    /// Tokens kept out of the context: `tokens_before - tokens_after` (may be negative).
    pub tokens_saved: i64,
    /// Bytes before shaping.
    pub bytes_before: u64,
    /// Bytes after shaping.
    pub bytes_after: u64,
    /// Calls whose pre-shaping tokens were estimated.
    pub estimated_calls: u64,
    /// Images, audio and blobs of every result.
    pub media: MediaCounts,
    /// Per tool, most costly first.
    pub tools: Vec<ToolReport>,
    /// Tokens over time, oldest first, evenly spaced (empty stretches included).
    pub timeline: Vec<TimeBucket>,
    /// Tool search: hit rate and the queries that led to no call; `None` without searches.
    pub search: Option<SearchReport>,
}

impl Report {
    /// Aggregate the spans with `time_ms >= since_ms` (all when `None`); `now_ms` stamps the
    /// report.
    pub fn build(spans: &[Span], since_ms: Option<i64>, now_ms: i64) -> Report {
        let in_window = |span: &&Span| since_ms.is_none_or(|since| span.time_ms >= since);
        let mut tools: BTreeMap<&str, ToolReport> = BTreeMap::new();
        let mut report = Report {
            since_ms,
            generated_ms: now_ms,
            first_ms: None,
            last_ms: None,
            calls: 0,
            errors: 0,
            tokens_before: 0,
            tokens_after: 0,
            tokens_saved: 0,
            bytes_before: 0,
            bytes_after: 0,
            estimated_calls: 0,
            media: MediaCounts::default(),
            tools: Vec::new(),
            timeline: Vec::new(),
            search: SearchReport::build(spans.iter().filter(in_window)),
        };
        for span in spans.iter().filter(in_window) {
            let tool = tools.entry(&span.tool).or_insert_with(|| ToolReport {
                tool: span.tool.clone(),
                calls: 0,
                errors: 0,
                error_rate: 0.0,
                tokens_before: 0,
                tokens_after: 0,
                tokens_saved: 0,
                share: 0.0,
                bytes_before: 0,
                bytes_after: 0,
                records_omitted: 0,
                redactions: 0,
                estimated_calls: 0,
                largest: Vec::new(),
                media: MediaCounts::default(),
            });
            if let Some(media) = span.media {
                tool.media = tool.media.plus(media);
                report.media = report.media.plus(media);
            }
            let before = span.tokens_before.value();
            let estimated = span.tokens_before.is_estimated();
            let is_error = span.status.is_error();
            tool.calls = tool.calls.saturating_add(1);
            tool.errors = tool.errors.saturating_add(u64::from(is_error));
            tool.tokens_before = tool.tokens_before.saturating_add(before);
            tool.tokens_after = tool.tokens_after.saturating_add(span.tokens_after);
            tool.bytes_before = tool.bytes_before.saturating_add(span.bytes_before);
            tool.bytes_after = tool.bytes_after.saturating_add(span.bytes_after);
            tool.records_omitted = tool.records_omitted.saturating_add(span.records_omitted);
            tool.redactions =
                tool.redactions.saturating_add(span.redactions.values().fold(0, |sum, n| sum.saturating_add(*n)));
            tool.estimated_calls = tool.estimated_calls.saturating_add(u64::from(estimated));
            keep_largest(
                &mut tool.largest,
                LargestCall {
                    time_ms: span.time_ms,
                    tokens_before: before,
                    estimated,
                    tokens_after: span.tokens_after,
                    bytes_before: span.bytes_before,
                    status: span.status,
                    cut: span.cut.clone(),
                },
            );
            report.calls = report.calls.saturating_add(1);
            report.errors = report.errors.saturating_add(u64::from(is_error));
            report.tokens_before = report.tokens_before.saturating_add(before);
            report.tokens_after = report.tokens_after.saturating_add(span.tokens_after);
            report.bytes_before = report.bytes_before.saturating_add(span.bytes_before);
            report.bytes_after = report.bytes_after.saturating_add(span.bytes_after);
            report.estimated_calls = report.estimated_calls.saturating_add(u64::from(estimated));
            report.first_ms = Some(report.first_ms.map_or(span.time_ms, |t| t.min(span.time_ms)));
            report.last_ms = Some(report.last_ms.map_or(span.time_ms, |t| t.max(span.time_ms)));
        }
        let total_after = report.tokens_after;
        report.tokens_saved = difference(report.tokens_before, report.tokens_after);
        let mut tools: Vec<ToolReport> = tools.into_values().collect();
        for tool in &mut tools {
            tool.tokens_saved = difference(tool.tokens_before, tool.tokens_after);
            tool.error_rate = ratio(tool.errors, tool.calls);
            tool.share = ratio(tool.tokens_after, total_after);
        }
        tools.sort_by(|a, b| {
            b.tokens_after.cmp(&a.tokens_after).then(b.tokens_before.cmp(&a.tokens_before)).then(a.tool.cmp(&b.tool))
        });
        report.tools = tools;
        if let (Some(first), Some(last)) = (report.first_ms, report.last_ms) {
            report.timeline = timeline(spans.iter().filter(in_window), first, last);
        }
        report
    }

    /// The report as a plain-text table for a terminal.
    pub fn to_table(&self) -> String {
        let mut out = String::new();
        let window = match (self.first_ms, self.last_ms) {
            (Some(first), Some(last)) => window(first, last),
            _ => "no calls".to_owned(),
        };
        let _ = writeln!(
            out,
            "{window} · {} calls · {} tools · {} tokens before shaping, {} after ({} saved)",
            thousands(self.calls),
            self.tools.len(),
            thousands(self.tokens_before),
            thousands(self.tokens_after),
            saved_share(self.tokens_saved, self.tokens_before),
        );
        if self.tools.is_empty() {
            return out;
        }
        let header = ["tool", "calls", "before", "after", "saved", "share", "errors", "largest calls (tokens before)"];
        let mut rows: Vec<[String; 8]> = self
            .tools
            .iter()
            .map(|t| {
                [
                    t.tool.clone(),
                    thousands(t.calls),
                    format!("{}{}", thousands(t.tokens_before), if t.estimated_calls > 0 { "~" } else { "" }),
                    thousands(t.tokens_after),
                    format!("{} ({})", signed_thousands(t.tokens_saved), saved_share(t.tokens_saved, t.tokens_before)),
                    percent(t.share),
                    percent(t.error_rate),
                    t.largest.iter().map(|c| thousands(c.tokens_before)).collect::<Vec<_>>().join(", "),
                ]
            })
            .collect();
        rows.push([
            "total".to_owned(),
            thousands(self.calls),
            thousands(self.tokens_before),
            thousands(self.tokens_after),
            format!("{} ({})", signed_thousands(self.tokens_saved), saved_share(self.tokens_saved, self.tokens_before)),
            percent(if self.tokens_after > 0 { 1.0 } else { 0.0 }),
            percent(ratio(self.errors, self.calls)),
            String::new(),
        ]);
        let mut widths = header.map(|h| h.chars().count());
        for row in &rows {
            for (width, cell) in widths.iter_mut().zip(row) {
                *width = (*width).max(cell.chars().count());
            }
        }
        let line = |out: &mut String, cells: [&str; 8]| {
            let mut text = String::new();
            for (i, (cell, width)) in cells.iter().zip(widths).enumerate() {
                // Names and the last column read left to right; figures line up on the right.
                if i == 0 || i == 7 {
                    let _ = write!(text, "{cell:<width$}  ");
                } else {
                    let _ = write!(text, "{cell:>width$}  ");
                }
            }
            let _ = writeln!(out, "{}", text.trim_end());
        };
        line(&mut out, header);
        let (totals, tools) = rows.split_last().unwrap_or((&rows[0], &[]));
        for row in tools {
            line(&mut out, row.each_ref().map(String::as_str));
        }
        line(&mut out, widths.map(|w| "─".repeat(w)).each_ref().map(String::as_str));
        line(&mut out, totals.each_ref().map(String::as_str));
        let _ = writeln!(out, "{SAVED_LEGEND}");
        if self.estimated_calls > 0 {
            let _ = writeln!(
                out,
                "~ {} call(s) had their tokens before shaping estimated (bytes / 4): too large to count, or counted under load",
                thousands(self.estimated_calls)
            );
        }
        if self.media.items > 0 {
            let _ = writeln!(out, "media (images, audio, blobs):");
            for tool in self.tools.iter().filter(|t| t.media.items > 0) {
                let _ = writeln!(out, "  {:<width$}  {}", tool.tool, media_line(&tool.media), width = widths[0]);
            }
            let _ = writeln!(out, "  {:<width$}  {}", "total", media_line(&self.media), width = widths[0]);
        }
        if let Some(search) = &self.search {
            out.push_str(&search.to_table());
        }
        out
    }
}

/// Keep the [`LARGEST_PER_TOOL`] calls with the most tokens before shaping (earliest first on a tie).
fn keep_largest(largest: &mut Vec<LargestCall>, call: LargestCall) {
    let position = largest
        .iter()
        .position(|c| {
            (call.tokens_before, std::cmp::Reverse(call.time_ms)) > (c.tokens_before, std::cmp::Reverse(c.time_ms))
        })
        .unwrap_or(largest.len());
    if position < LARGEST_PER_TOOL {
        largest.insert(position, call);
        largest.truncate(LARGEST_PER_TOOL);
    }
}

/// Bucket widths the timeline may use, smallest first.
const BUCKET_WIDTHS_MS: [i64; 12] = [
    1_000,
    10_000,
    60_000,
    5 * 60_000,
    15 * 60_000,
    3_600_000,
    3 * 3_600_000,
    6 * 3_600_000,
    12 * 3_600_000,
    86_400_000,
    7 * 86_400_000,
    30 * 86_400_000,
];

/// Evenly spaced buckets from `first` to `last` (at most [`MAX_TIME_BUCKETS`]).
fn timeline<'a>(spans: impl Iterator<Item = &'a Span>, first: i64, last: i64) -> Vec<TimeBucket> {
    // Wide arithmetic: times read from a damaged log may be anywhere in the i64 range.
    let (first, last) = (i128::from(first), i128::from(last));
    let max = MAX_TIME_BUCKETS as i128;
    // The first round width whose aligned buckets fit; past the largest, unaligned buckets.
    let aligned = BUCKET_WIDTHS_MS.iter().map(|&w| i128::from(w)).find_map(|width| {
        let start = first.div_euclid(width) * width;
        ((last - start) / width < max).then_some((start, width))
    });
    let (start, width) = aligned.unwrap_or_else(|| (first, (last - first) / (max - 1) + 1));
    let count = usize::try_from((last - start) / width + 1).unwrap_or(1);
    let clamp = |ms: i128| i64::try_from(ms).unwrap_or(if ms < 0 { i64::MIN } else { i64::MAX });
    let mut buckets: Vec<TimeBucket> = (0..count)
        .map(|i| {
            let start_ms = start + width * i as i128;
            TimeBucket {
                start_ms: clamp(start_ms),
                end_ms: clamp(start_ms + width),
                calls: 0,
                tokens_before: 0,
                tokens_after: 0,
            }
        })
        .collect();
    for span in spans {
        let index = usize::try_from((i128::from(span.time_ms) - start) / width).unwrap_or(0).min(count - 1);
        let bucket = &mut buckets[index];
        bucket.calls += 1;
        bucket.tokens_before = bucket.tokens_before.saturating_add(span.tokens_before.value());
        bucket.tokens_after = bucket.tokens_after.saturating_add(span.tokens_after);
    }
    buckets
}

/// What the "saved" column means, under every table and chart that shows it.
pub(crate) const SAVED_LEGEND: &str = "saved = tokens before shaping minus tokens after; negative where shaping cost \
     tokens (an envelope around a small result can be larger than the result)";

/// `before - after` as a signed figure, clamped to the `i64` range.
fn difference(before: u64, after: u64) -> i64 {
    let wide = i128::from(before) - i128::from(after);
    i64::try_from(wide).unwrap_or(if wide < 0 { i64::MIN } else { i64::MAX })
}

/// A signed count with thousands separators: `-1,204`, `56,000`.
pub(crate) fn signed_thousands(n: i64) -> String {
    let digits = thousands(n.unsigned_abs());
    if n < 0 { format!("-{digits}") } else { digits }
}

/// `saved` as a percentage of `before` (`99.8%`, `-40.0%`); `n/a` when nothing came in.
pub(crate) fn saved_share(saved: i64, before: u64) -> String {
    if before == 0 { "n/a".to_owned() } else { percent(saved as f64 / before as f64) }
}

/// `part / whole`, 0 when `whole` is 0.
pub(crate) fn ratio(part: u64, whole: u64) -> f64 {
    if whole == 0 { 0.0 } else { part as f64 / whole as f64 }
}

/// A 0..1 fraction as a percentage with one decimal (`62.5%`).
pub(crate) fn percent(fraction: f64) -> String {
    format!("{:.1}%", fraction * 100.0)
}

/// A Unix-ms time as `2026-11-30 08:25 UTC`.
pub(crate) fn format_time(ms: i64) -> String {
    match jiff::Timestamp::from_millisecond(ms) {
        Ok(ts) => ts.strftime("%Y-%m-%d %H:%M UTC").to_string(),
        Err(_) => ms.to_string(),
    }
}

/// The stretch from `first` to `last`, to the second when both fall in one minute (a window
/// labelled `09:27 to 09:27` says nothing).
pub(crate) fn window(first: i64, last: i64) -> String {
    let (from, to) = (format_time(first), format_time(last));
    if from != to || first == last {
        return format!("{from} to {to}");
    }
    let seconds = |ms: i64| {
        jiff::Timestamp::from_millisecond(ms)
            .map_or(ms.to_string(), |ts| ts.strftime("%Y-%m-%d %H:%M:%S UTC").to_string())
    };
    let (from, to) = (seconds(first), seconds(last));
    if from == to { format!("{from}, within one second") } else { format!("{from} to {to}") }
}

/// Parse a duration like `30m`, `24h`, `7d`, `1h30m` or `90s` (units s, m, h, d, w).
pub fn parse_duration(text: &str) -> Result<Duration, TelemetryError> {
    let bad = || TelemetryError::BadDuration { given: text.to_owned() };
    let mut total: u64 = 0;
    let mut digits = String::new();
    let mut any = false;
    for c in text.trim().chars() {
        if c.is_ascii_digit() {
            digits.push(c);
            continue;
        }
        let unit: u64 = match c {
            's' => 1,
            'm' => 60,
            'h' => 3600,
            'd' => 86_400,
            'w' => 7 * 86_400,
            _ => return Err(bad()),
        };
        let n: u64 = digits.parse().map_err(|_| bad())?;
        total = n.checked_mul(unit).and_then(|s| total.checked_add(s)).ok_or_else(bad)?;
        digits.clear();
        any = true;
    }
    if !digits.is_empty() || !any || total == 0 {
        return Err(bad());
    }
    Ok(Duration::from_secs(total))
}

/// One line about media: items, cut, image tokens and bytes before and after.
fn media_line(m: &MediaCounts) -> String {
    format!(
        "{} item(s), {} downscaled or left out · image tokens {} → {} · bytes {} → {}",
        thousands(m.items),
        thousands(m.cut),
        thousands(m.tokens_before),
        thousands(m.tokens_after),
        thousands(m.bytes_before),
        thousands(m.bytes_after),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::span::TokensBefore;

    fn span(tool: &str, time_ms: i64, before: u64, after: u64, status: CallStatus) -> Span {
        Span { time_ms, tokens_before: TokensBefore::Exact(before), tokens_after: after, ..Span::new(tool, status) }
    }

    #[test]
    fn durations_parse_and_bad_ones_are_refused() {
        assert_eq!(parse_duration("30m").unwrap(), Duration::from_secs(1800));
        assert_eq!(parse_duration("24h").unwrap(), Duration::from_secs(86_400));
        assert_eq!(parse_duration("7d").unwrap(), Duration::from_secs(7 * 86_400));
        assert_eq!(parse_duration("1h30m").unwrap(), Duration::from_secs(5400));
        assert_eq!(parse_duration("2w").unwrap(), Duration::from_secs(14 * 86_400));
        for bad in ["", "24", "h", "1x", "1.5h", "-1h", "0h", "99999999999999999999d"] {
            assert!(parse_duration(bad).is_err(), "{bad:?} should be refused");
        }
    }

    #[test]
    fn tools_sort_by_cost_and_shares_add_up() {
        let spans = [
            span("cheap", 1_000, 100, 90, CallStatus::Ok),
            span("dear", 2_000, 50_000, 2_000, CallStatus::Partial),
            span("dear", 3_000, 10, 40, CallStatus::Error),
            span("middle", 4_000, 700, 500, CallStatus::Ok),
        ];
        let report = Report::build(&spans, None, 5_000);
        let names: Vec<&str> = report.tools.iter().map(|t| t.tool.as_str()).collect();
        assert_eq!(names, ["dear", "middle", "cheap"]);
        let dear = &report.tools[0];
        assert_eq!((dear.calls, dear.errors, dear.tokens_before, dear.tokens_after), (2, 1, 50_010, 2_040));
        // The grown call costs back: saved is before minus after, not a sum of savings.
        assert_eq!(dear.tokens_saved, 50_010 - 2_040);
        assert!((dear.error_rate - 0.5).abs() < 1e-12);
        assert!((dear.share - 2_040.0 / 2_630.0).abs() < 1e-12);
        let shares: f64 = report.tools.iter().map(|t| t.share).sum();
        assert!((shares - 1.0).abs() < 1e-12);
        assert_eq!(dear.largest.iter().map(|c| c.tokens_before).collect::<Vec<_>>(), [50_000, 10]);
        let table = report.to_table();
        assert!(table.contains("50,010"), "{table}");
        assert!(table.lines().nth(1).unwrap().starts_with("tool"), "{table}");
        assert!(table.lines().nth(2).unwrap().starts_with("dear"), "{table}");
    }

    #[test]
    fn saved_is_before_minus_after_and_negative_where_shaping_cost_tokens() {
        let spans = [
            span("big", 1_000, 10_000, 400, CallStatus::Partial),
            span("big", 2_000, 30, 90, CallStatus::Ok),
            // Every call of this tool grew inside its envelope.
            span("tiny", 3_000, 12, 70, CallStatus::Error),
            span("tiny", 4_000, 8, 60, CallStatus::Ok),
        ];
        let report = Report::build(&spans, None, 5_000);
        assert_eq!(report.tokens_saved, 10_050 - 620);
        assert_eq!(report.tokens_saved, report.tokens_before as i64 - report.tokens_after as i64);
        let tiny = report.tools.iter().find(|t| t.tool == "tiny").unwrap();
        assert_eq!(tiny.tokens_saved, -110);
        let big = report.tools.iter().find(|t| t.tool == "big").unwrap();
        assert_eq!(big.tokens_saved, 10_030 - 490);
        assert_eq!(report.tools.iter().map(|t| t.tokens_saved).sum::<i64>(), report.tokens_saved);
        let table = report.to_table();
        let row = table.lines().find(|l| l.starts_with("tiny")).unwrap();
        assert!(row.contains("-110 (-550.0%)"), "{table}");
        let total = table.lines().find(|l| l.starts_with("total")).unwrap();
        assert!(total.contains("9,430 (93.8%)"), "{table}");
        assert!(table.contains("negative where shaping cost tokens"), "the legend says so: {table}");
        assert!(table.lines().next().unwrap().contains("(93.8% saved)"), "{table}");
        let json = serde_json::to_value(&report).unwrap();
        assert_eq!(json["tools"][1]["tokens_saved"], -110);
    }

    #[test]
    fn saved_figures_of_a_damaged_log_stay_in_range() {
        let spans = [span("a", 0, 0, u64::MAX, CallStatus::Ok), span("b", 0, u64::MAX, 0, CallStatus::Ok)];
        let report = Report::build(&spans, None, 0);
        let a = report.tools.iter().find(|t| t.tool == "a").unwrap();
        let b = report.tools.iter().find(|t| t.tool == "b").unwrap();
        assert_eq!((a.tokens_saved, b.tokens_saved), (i64::MIN, i64::MAX));
        assert_eq!(report.tokens_saved, 0);
        assert!(report.to_table().contains("n/a"), "no tokens came in to tool a");
    }

    #[test]
    fn since_filters_the_window() {
        let spans = [span("a", 1_000, 10, 5, CallStatus::Ok), span("b", 9_000, 20, 5, CallStatus::Ok)];
        let report = Report::build(&spans, Some(5_000), 10_000);
        assert_eq!(report.calls, 1);
        assert_eq!(report.tools.len(), 1);
        assert_eq!(report.tools[0].tool, "b");
        assert_eq!(report.first_ms, Some(9_000));
    }

    #[test]
    fn extreme_times_and_sizes_from_a_damaged_log_do_not_overflow() {
        let spans = [
            span("a", i64::MIN + 1, u64::MAX - 1, u64::MAX - 1, CallStatus::Ok),
            span("a", i64::MAX - 1, u64::MAX - 1, 1, CallStatus::Ok),
        ];
        let report = Report::build(&spans, None, 0);
        assert_eq!(report.tokens_before, u64::MAX);
        assert!(report.timeline.len() <= MAX_TIME_BUCKETS);
        assert_eq!(report.timeline.iter().map(|b| b.calls).sum::<u64>(), 2);
    }

    #[test]
    fn largest_keeps_the_top_three() {
        let spans: Vec<Span> = [5u64, 80, 3, 90, 80, 1]
            .iter()
            .enumerate()
            .map(|(i, &b)| span("t", i as i64, b, 1, CallStatus::Ok))
            .collect();
        let report = Report::build(&spans, None, 10);
        let largest = &report.tools[0].largest;
        assert_eq!(
            largest.iter().map(|c| (c.tokens_before, c.time_ms)).collect::<Vec<_>>(),
            [(90, 3), (80, 1), (80, 4)]
        );
    }
}
