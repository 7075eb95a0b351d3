//! Questions about a PostHog trends insight, whose results pair `data[i]` with `days[i]`:
//! when it was refreshed, the range it resolved to and its cache key, the first results
//! (label and total, event and math, the first days' counts) and the last ones (label and
//! total, the last days' counts), the whole query's time and the time zone; a breakdown
//! value's count on a given day, its total and the day it peaked; and how many results
//! and days there are and how many breakdown values, which value leads or trails, which
//! day was busiest or quietest over every value, and which value led on the first or
//! last day.

use serde_json::Value;

use super::{ask_at, field, list, number, only_extreme};
use crate::question::{Question, text};
use crate::questions_blind::{count, extreme};
use crate::record_questions::{ORDINALS, end, to_last};

/// A result's days in order: (day, count as written, count).
pub(super) fn points(x: &Value) -> Vec<(String, String, f64)> {
    let days = list(x, "days");
    let data = list(x, "data");
    days.iter().zip(data).filter_map(|(d, n)| Some((text(d), text(n), n.as_f64()?))).collect()
}

/// Whether a result is PostHog's bucket for the values past the limit or without one.
pub(super) fn is_bucket(x: &Value) -> bool {
    field(x, "breakdown_value").starts_with("$$_posthog_breakdown_")
}

/// The day a result peaked on, with its count, `None` when two days share the peak.
fn peak_day(x: &Value) -> Option<(String, String)> {
    let scored: Vec<(f64, (String, String))> = points(x).into_iter().map(|(d, n, c)| (c, (d, n))).collect();
    only_extreme(&scored, true).map(|(_, p)| p)
}

pub(super) fn posthog_questions(v: &Value) -> Vec<Option<Question>> {
    let results = list(v, "results");
    let label = |x: &Value| field(x, "label");
    let with = |x: &Value, paths: &[&str]| Some([vec![label(x)], paths.iter().map(|p| field(x, p)).collect()].concat());
    let on = |x: &Value, k: usize, from_end: bool| {
        let ps = points(x);
        let i = if from_end { ps.len().checked_sub(k + 1)? } else { k };
        let (d, n, _) = ps.get(i)?.clone();
        Some(vec![label(x), d, n])
    };
    let page = std::slice::from_ref(v);
    let mut qs = vec![
        end(page, 0, false, "When was this insight last refreshed?", |p| Some(vec![field(p, "last_refresh")])),
        end(page, 0, false, "What date range did the query resolve to?", |p| {
            Some(vec![field(p, "resolved_date_range.date_from"), field(p, "resolved_date_range.date_to")])
        }),
        end(page, 0, false, "What is the cache key of this result?", |p| Some(vec![field(p, "cache_key")])),
        end(results, 0, false, "Which series comes first, and what is its total count?", |x| with(x, &["count"])),
        end(results, 0, false, "Which event does the first series count, and with what math?", |x| {
            Some(vec![field(x, "action.id"), field(x, "action.math")])
        }),
        end(results, 0, false, "What did the first series count on the first day?", |x| on(x, 0, false)),
        end(results, 1, false, "Which series comes second, and what is its total count?", |x| with(x, &["count"])),
        end(results, 0, true, "Which series comes last, and what is its total count?", |x| with(x, &["count"])),
        end(results, 0, true, "What did the last series count on the last day?", |x| on(x, 0, true)),
        end(results, 1, true, "Which series is second to last, and what is its total count?", |x| with(x, &["count"])),
        end(results, 2, true, "Which series is third to last, and what is its total count?", |x| with(x, &["count"])),
        end(page, 0, true, "How long did the whole query take?", |p| {
            let last = list(p, "timings").last()?;
            Some(vec![field(last, "k"), field(last, "t")])
        }),
        end(page, 0, true, "Which time zone are the days in?", |p| Some(vec![field(p, "timezone")])),
    ];
    for (k, ordinal) in ORDINALS.iter().enumerate().take(5).skip(1) {
        qs.push(end(results, 0, false, &format!("What did the first series count on the {ordinal} day?"), |x| {
            on(x, k, false)
        }));
        qs.push(end(results, 0, true, &format!("What did the last series count on the {} day?", to_last(k)), |x| {
            on(x, k, true)
        }));
    }
    // Lookups: a count on a day, a total, the day a value peaked.
    let every: Vec<(String, String, String)> =
        results.iter().flat_map(|x| points(x).into_iter().map(move |(d, n, _)| (label(x), d, n))).collect();
    for f in [0.1, 0.3, 0.5, 0.7, 0.9] {
        qs.push(ask_at(
            &every,
            f,
            |(l, d, _)| Some(vec![l.clone(), d.clone()]),
            |(l, d, n)| Some((format!("How many did {l} count on {d}?"), vec![n.clone()])),
        ));
    }
    let named = |x: &&Value| Some(vec![label(x)]);
    let all: Vec<&Value> = results.iter().collect();
    for f in [0.25, 0.6, 0.85] {
        qs.push(ask_at(&all, f, named, |x| {
            Some((format!("What is the total count for {}?", label(x)), vec![field(x, "count")]))
        }));
    }
    for f in [0.4, 0.8] {
        qs.push(ask_at(&all, f, named, |x| {
            let (d, n) = peak_day(x)?;
            Some((format!("On which day did {} peak, and at what count?", label(x)), vec![d, n]))
        }));
    }
    // How many, and which stands out (within the first series' breakdown).
    let event0 = results.first().map(|x| field(x, "action.id")).unwrap_or_default();
    let first: Vec<&Value> = results.iter().filter(|x| field(x, "action.id") == event0).collect();
    qs.push(Some(count(
        "How many series did the insight return?",
        &["results", "series"],
        results.len(),
        Some("label"),
    )));
    let days = results.first().map(|x| points(x).len()).unwrap_or_default();
    qs.push(Some(count("How many days does each series cover?", &["days"], days, Some("days"))));
    let values = first.iter().filter(|x| !is_bucket(x)).count();
    qs.push(Some(count(
        &format!("How many breakdown values does {event0} show, not counting Other and None?"),
        &["breakdown values", "values"],
        values,
        Some("breakdown_value"),
    )));
    let second = results.iter().map(|x| field(x, "action.id")).find(|e| *e != event0);
    if let Some(e) = second {
        let n = results.iter().filter(|x| field(x, "action.id") == e).count();
        qs.push(Some(count(&format!("How many series are for {e}?"), &[e.as_str()], n, Some("action"))));
    }
    let totals: Vec<(f64, String)> = first.iter().filter_map(|x| Some((number(x, "count")?, label(x)))).collect();
    qs.push(extreme(
        &format!("Which breakdown of {event0} has the highest total?"),
        totals.clone(),
        true,
        Some("count"),
    ));
    qs.push(extreme(&format!("Which breakdown of {event0} has the lowest total?"), totals, false, Some("count")));
    if let Some(top) = first.first() {
        let by_day: Vec<(f64, String)> = points(top).into_iter().map(|(d, _, c)| (c, d)).collect();
        qs.push(extreme(&format!("On which day was {} highest?", label(top)), by_day, true, Some("data")));
    }
    let mut per_day: Vec<(f64, String)> = Vec::new();
    for x in &first {
        for (i, (d, _, c)) in points(x).into_iter().enumerate() {
            match per_day.get_mut(i) {
                Some(day) => day.0 += c,
                None => per_day.push((c, d)),
            }
        }
    }
    qs.push(extreme(
        &format!("Which day had the most {event0} across all breakdowns?"),
        per_day.clone(),
        true,
        Some("data"),
    ));
    qs.push(extreme(
        &format!("Which day had the fewest {event0} across all breakdowns?"),
        per_day,
        false,
        Some("data"),
    ));
    for (q, last) in [("on the first day", false), ("on the last day", true)] {
        let scored: Vec<(f64, String)> = first
            .iter()
            .filter_map(|x| {
                let ps = points(x);
                let p = if last { ps.last() } else { ps.first() }?;
                Some((p.2, label(x)))
            })
            .collect();
        qs.push(extreme(&format!("Which breakdown of {event0} had the most {q}?"), scored, true, Some("data")));
    }
    qs
}
