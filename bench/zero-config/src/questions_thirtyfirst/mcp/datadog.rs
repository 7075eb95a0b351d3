//! Questions about a Datadog metrics query, whose series hold `[timestamp_ms, value]`
//! pairs: the query and its window, the first series (its group, metric, rollup, span,
//! unit and first points) and the second, the last series (its group, span, scope, peak
//! and latest points) and the one before it; a group's value at a given time, its peak,
//! its low and its latest value; and how many series, groups, points and null buckets
//! there are, which group peaked highest, ran hottest on average or dipped lowest, which
//! series is shortest, and when the total across groups peaked.

use serde_json::Value;
use toolshape_fixtures::time::rfc3339;

use super::{ask_at, field, list, number, only_extreme};
use crate::question::{Question, text};
use crate::questions_blind::{count, extreme};
use crate::record_questions::{ORDINALS, end, to_last};

/// A series' points in order: (timestamp as written, value as written, value), the
/// value `None` for a null bucket.
pub(super) fn points(s: &Value) -> Vec<(String, String, Option<f64>)> {
    list(s, "pointlist").iter().map(|p| (text(&p[0]), text(&p[1]), p[1].as_f64())).collect()
}

/// The group a series is for (`host:ip-10-…`).
pub(super) fn group(s: &Value) -> String {
    field(s, "tag_set[0]")
}

/// A timestamp as written (`1767221800000.0`) as a user says it (`2025-12-31T22:56:40Z`).
fn when(ms: &str) -> String {
    ms.parse::<f64>().map(|m| rfc3339((m / 1_000.0) as i64)).unwrap_or_default()
}

/// The point of a series holding its largest (or smallest) value, `None` when two share
/// it or the series has no value.
pub(super) fn extreme_point(s: &Value, max: bool) -> Option<(String, String)> {
    let scored: Vec<(f64, (String, String))> =
        points(s).into_iter().filter_map(|(t, v, x)| Some((x?, (t, v)))).collect();
    only_extreme(&scored, max).map(|(_, p)| p)
}

/// The mean of a series' values, nulls left out.
fn mean(s: &Value) -> Option<f64> {
    let values: Vec<f64> = points(s).into_iter().filter_map(|p| p.2).collect();
    (!values.is_empty()).then(|| values.iter().sum::<f64>() / values.len() as f64)
}

pub(super) fn datadog_questions(v: &Value) -> Vec<Option<Question>> {
    let series = list(v, "series");
    let two = series.iter().any(|s| s["query_index"] == 1);
    let grouped_by = field(v, "group_by[0]");
    let (one, many) = match grouped_by.as_str() {
        "host" => ("host", "hosts"),
        "pod_name" => ("pod", "pods"),
        _ => ("endpoint", "endpoints"),
    };
    let metric = |s: &Value| field(s, "metric");
    // With two queries a group has a series of each, so a series is named by both.
    let name = |s: &Value| if two { format!("{} on {}", metric(s), group(s)) } else { group(s) };
    let id = |s: &Value, more: &[&str]| {
        Some([vec![group(s), metric(s)], more.iter().map(|p| field(s, p)).collect()].concat())
    };
    let at = |s: &Value, k: usize, from_end: bool| {
        let ps = points(s);
        let i = if from_end { ps.len().checked_sub(k + 1)? } else { k };
        let (t, value, x) = ps.get(i)?.clone();
        x?;
        Some(vec![group(s), t, value])
    };
    let page = std::slice::from_ref(v);
    let mut qs = vec![
        end(page, 0, false, "Which query was run, and over what window (from_date to to_date)?", |p| {
            Some(vec![field(p, "query"), field(p, "from_date"), field(p, "to_date")])
        }),
        end(series, 0, false, &format!("Which {one} is the first series for, and which metric is it?"), |s| id(s, &[])),
        end(
            series,
            0,
            false,
            "What rollup interval does the first series use, and how many points does it have?",
            |s| id(s, &["interval", "length"]),
        ),
        end(series, 0, false, "When does the first series start and end?", |s| id(s, &["start", "end"])),
        end(series, 0, false, "In what unit is the first series reported?", |s| id(s, &["unit[0].plural"])),
        end(series, 0, false, "What is the first data point of the first series?", |s| at(s, 0, false)),
        end(series, 1, false, &format!("Which {one} is the second series for, and what is its first value?"), |s| {
            at(s, 0, false)
        }),
        end(series, 0, true, &format!("Which {one} is the last series for, and which metric is it?"), |s| id(s, &[])),
        end(series, 0, true, "What is the latest data point of the last series?", |s| at(s, 0, true)),
        end(series, 0, true, "When does the last series start and end, and how many points does it have?", |s| {
            id(s, &["start", "end", "length"])
        }),
        end(series, 0, true, "What is the scope of the last series?", |s| id(s, &["scope"])),
        end(series, 0, true, "When did the last series peak, and at what value?", |s| {
            let (t, value) = extreme_point(s, true)?;
            Some(vec![group(s), t, value])
        }),
        end(
            series,
            1,
            true,
            &format!("Which {one} is the second to last series for, and what is its latest value?"),
            |s| at(s, 0, true),
        ),
    ];
    for (k, ordinal) in ORDINALS.iter().enumerate().take(5).skip(1) {
        qs.push(end(series, 0, false, &format!("What is the {ordinal} data point of the first series?"), |s| {
            at(s, k, false)
        }));
        qs.push(end(series, 0, true, &format!("What is the {} data point of the last series?", to_last(k)), |s| {
            at(s, k, true)
        }));
    }
    // Lookups: a value at a time, and a series' peak, low and latest value.
    let every: Vec<(&Value, String, String)> = series
        .iter()
        .flat_map(|s| points(s).into_iter().filter(|p| p.2.is_some()).map(move |(t, x, _)| (s, t, x)))
        .collect();
    for f in [0.15, 0.35, 0.55, 0.75, 0.95] {
        qs.push(ask_at(
            &every,
            f,
            |(s, t, _)| Some(vec![group(s), metric(s), t.clone()]),
            |(s, t, x)| Some((format!("What was {} on {} at {}?", metric(s), group(s), when(t)), vec![x.clone()])),
        ));
    }
    let by_series = |s: &&Value| Some(vec![group(s), metric(s)]);
    for f in [0.2, 0.5, 0.8] {
        qs.push(ask_at(&series.iter().collect::<Vec<_>>(), f, by_series, |s| {
            let (t, x) = extreme_point(s, true)?;
            Some((format!("When did {} peak, and at what value?", name(s)), vec![t, x]))
        }));
    }
    for f in [0.4, 0.9] {
        qs.push(ask_at(&series.iter().collect::<Vec<_>>(), f, by_series, |s| {
            let (t, x) = extreme_point(s, false)?;
            Some((format!("What was the lowest value of {}, and when?", name(s)), vec![t, x]))
        }));
    }
    qs.push(ask_at(&series.iter().collect::<Vec<_>>(), 0.65, by_series, |s| {
        let (t, x, _) = points(s).into_iter().rev().find(|p| p.2.is_some())?;
        Some((format!("What is the latest value of {}?", name(s)), vec![t, x]))
    }));
    // How many, and which stands out (among the first query's series).
    qs.push(Some(count("How many series did the query return?", &["series"], series.len(), Some("series"))));
    let first: Vec<&Value> = series.iter().filter(|s| s["query_index"] == 0).collect();
    let metric0 = first.first().map(|s| metric(s)).unwrap_or_default();
    qs.push(Some(count(
        &format!("How many {many} report {metric0}?"),
        &[many, grouped_by.as_str()],
        first.len(),
        Some("tag_set"),
    )));
    for s in [series.first(), series.get(series.len() / 2), series.last()].into_iter().flatten() {
        qs.push(Some(count(
            &format!("How many points does {} have?", name(s)),
            &["points", "length"],
            points(s).len(),
            Some("length"),
        )));
    }
    let nulls = |s: &Value| points(s).iter().filter(|p| p.2.is_none()).count();
    if let Some(s) = series.iter().max_by_key(|s| nulls(s)).filter(|s| nulls(s) > 0) {
        qs.push(Some(count(
            &format!("How many null buckets does {} have?", name(s)),
            &["null", "nulls"],
            nulls(s),
            Some("pointlist"),
        )));
    }
    let scored = |f: &dyn Fn(&Value) -> Option<f64>| -> Vec<(f64, String)> {
        first.iter().filter_map(|s| Some((f(s)?, group(s)))).collect()
    };
    let peak = |s: &Value| points(s).iter().filter_map(|p| p.2).reduce(f64::max);
    let low = |s: &Value| points(s).iter().filter_map(|p| p.2).reduce(f64::min);
    qs.push(extreme(
        &format!("Which {one} had the highest {metric0} at its peak?"),
        scored(&peak),
        true,
        Some("pointlist"),
    ));
    qs.push(extreme(
        &format!("Which {one} had the highest average {metric0}?"),
        scored(&mean),
        true,
        Some("pointlist"),
    ));
    qs.push(extreme(
        &format!("Which {one} had the lowest average {metric0}?"),
        scored(&mean),
        false,
        Some("pointlist"),
    ));
    qs.push(extreme(&format!("Which {one} dipped to the lowest {metric0}?"), scored(&low), false, Some("pointlist")));
    let lengths: Vec<(f64, String)> = first.iter().filter_map(|s| Some((number(s, "length")?, group(s)))).collect();
    qs.push(extreme(&format!("Which {one}'s series has the fewest points?"), lengths, false, Some("length")));
    let mut totals: Vec<(String, f64)> = Vec::new();
    for s in &first {
        for (t, _, x) in points(s) {
            let Some(x) = x else { continue };
            match totals.iter_mut().find(|(u, _)| *u == t) {
                Some(total) => total.1 += x,
                None => totals.push((t, x)),
            }
        }
    }
    let totals: Vec<(f64, String)> = totals.into_iter().map(|(t, x)| (x, t)).collect();
    qs.push(extreme(
        &format!("At what time was {metric0} summed over all {many} highest?"),
        totals,
        true,
        Some("pointlist"),
    ));
    qs
}
