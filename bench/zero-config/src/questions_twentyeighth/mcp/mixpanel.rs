//! Questions about a Mixpanel segmentation: the first and the last days of the series, the
//! segments listed first and last with their counts on the first and the last days, and
//! how many segments there are; how many events a segment had on a day; and how many days
//! and segments the breakdown covers, on how many days a small segment had no events and
//! a large one passed a mark, and which segment led on a day or over the whole range,
//! which had the fewest, which day was busiest or quietest in all, and on which day the
//! largest segment peaked.

use serde_json::Value;

use super::{field, list};
use crate::question::{Kind, Question};
use crate::questions_blind::{count, extreme, together};
use crate::record_questions::{end, lookup_by};

/// One count of the breakdown: the segment, the day and the number of events.
pub(super) struct Cell {
    pub(super) segment: String,
    pub(super) day: String,
    pub(super) events: i64,
}

/// The segments in the order the result lists them, each with its counts in the order of
/// its days.
pub(super) fn segments(v: &Value) -> Vec<(String, Vec<(String, i64)>)> {
    let Some(values) = v["data"]["values"].as_object() else { return Vec::new() };
    values
        .iter()
        .map(|(name, days)| {
            let counts = days
                .as_object()
                .map(|m| m.iter().map(|(d, n)| (d.clone(), n.as_i64().unwrap_or(0))).collect())
                .unwrap_or_default();
            (name.clone(), counts)
        })
        .collect()
}

/// The total of each segment over the range.
pub(super) fn totals(segments: &[(String, Vec<(String, i64)>)]) -> Vec<(i64, String)> {
    segments.iter().map(|(name, counts)| (counts.iter().map(|c| c.1).sum(), name.clone())).collect()
}

pub(super) fn mixpanel_questions(v: &Value) -> Vec<Option<Question>> {
    let series: Vec<String> = list(v, "data.series").iter().filter_map(Value::as_str).map(str::to_owned).collect();
    let segments = segments(v);
    let cells: Vec<Cell> = segments
        .iter()
        .flat_map(|(s, counts)| counts.iter().map(|(d, n)| Cell { segment: s.clone(), day: d.clone(), events: *n }))
        .collect();
    let events_on = |seg: &(String, Vec<(String, i64)>), day: Option<&String>| {
        let day = day?;
        let n = seg.1.iter().find(|(d, _)| d == day)?.1;
        Some(vec![seg.0.clone(), day.clone(), n.to_string()])
    };
    let first = series.first();
    let last = series.last();
    let back = |k: usize| series.len().checked_sub(k + 1).and_then(|i| series.get(i));
    let day = |k: usize| Some(vec![series.get(k)?.clone()]);
    let mut qs = vec![
        end(&series, 0, false, "What is the first day of the series?", |d| Some(vec![d.clone()])),
        end(&series, 1, false, "What is the second day of the series?", |d| Some(vec![d.clone()])),
        end(&[()], 0, false, "What are the first three days of the series?", |_| {
            Some([day(0)?, day(1)?, day(2)?].concat())
        }),
        end(
            &segments,
            0,
            false,
            "Which segment is listed first, and how many events did it have on the first day?",
            |s| events_on(s, first),
        ),
        end(&segments, 0, false, "How many events did the first segment listed have on the second day?", |s| {
            events_on(s, series.get(1))
        }),
        end(&segments, 0, false, "How many events did the first segment listed have on the third day?", |s| {
            events_on(s, series.get(2))
        }),
        end(&segments, 0, false, "How many events did the first segment listed have on the last day?", |s| {
            events_on(s, last)
        }),
        end(
            &segments,
            1,
            false,
            "Which segment is listed second, and how many events did it have on the first day?",
            |s| events_on(s, first),
        ),
        end(
            &segments,
            2,
            false,
            "Which segment is listed third, and how many events did it have on the first day?",
            |s| events_on(s, first),
        ),
        end(
            &segments,
            3,
            false,
            "Which segment is listed fourth, and how many events did it have on the first day?",
            |s| events_on(s, first),
        ),
        end(&series, 0, true, "What is the last day of the series?", |d| Some(vec![d.clone()])),
        end(&series, 1, true, "What is the second to last day of the series?", |d| Some(vec![d.clone()])),
        end(
            &segments,
            0,
            true,
            "Which segment is listed last, and how many events did it have on the last day?",
            |s| events_on(s, last),
        ),
        end(&segments, 0, true, "How many events did the last segment listed have on the first day?", |s| {
            events_on(s, first)
        }),
        end(&segments, 0, true, "How many events did the last segment listed have on the second to last day?", |s| {
            events_on(s, back(1))
        }),
        end(&segments, 0, true, "How many events did the last segment listed have on the third to last day?", |s| {
            events_on(s, back(2))
        }),
        end(
            &segments,
            1,
            true,
            "Which segment is listed second to last, and how many events did it have on the last day?",
            |s| events_on(s, last),
        ),
        end(
            &segments,
            2,
            true,
            "Which segment is listed third to last, and how many events did it have on the last day?",
            |s| events_on(s, last),
        ),
        end(
            &segments,
            3,
            true,
            "Which segment is listed fourth to last, and how many events did it have on the last day?",
            |s| events_on(s, last),
        ),
    ];
    for f in [0.03, 0.13, 0.24, 0.35, 0.46, 0.57, 0.68, 0.79, 0.88, 0.97] {
        qs.push(lookup_by(
            &cells,
            f,
            "How many events did {key0} have on {key1}?",
            |c| Some(vec![c.segment.clone(), c.day.clone()]),
            |c| Some(vec![c.events.to_string()]),
        ));
    }
    // How many, and which is the largest.
    qs.push(Some(count(
        "How many segments does the breakdown have?",
        &["segments", "legend_size"],
        segments.len(),
        Some("legend_size"),
    )));
    qs.push(Some(count("How many days does the series cover?", &["days", "dates"], series.len(), Some("series"))));
    let zero_days = |s: &(String, Vec<(String, i64)>)| s.1.iter().filter(|c| c.1 == 0).count();
    // The segment with the most days without events that still had some.
    let sparse = segments
        .iter()
        .filter(|s| (1..s.1.len()).contains(&zero_days(s)))
        .max_by_key(|s| (zero_days(s), std::cmp::Reverse(s.0.clone())));
    if let Some(s) = sparse {
        qs.push(Some(count(
            &format!("On how many days did {} have no events?", s.0),
            &[&s.0],
            zero_days(s),
            Some(&s.0),
        )));
    }
    let totals = totals(&segments);
    let top = totals.iter().max_by(|a, b| a.0.cmp(&b.0).then(b.1.cmp(&a.1))).map(|t| t.1.clone());
    if let Some(seg) = segments.iter().find(|s| Some(&s.0) == top.as_ref()) {
        let mut sorted: Vec<i64> = seg.1.iter().map(|c| c.1).collect();
        sorted.sort_unstable();
        // A round mark just under the segment's median day, so about half the days pass it.
        let median = sorted.get(sorted.len() / 2).copied().unwrap_or(0);
        let step = 10i64.pow((median.max(1) as f64).log10().floor() as u32).div_euclid(10).max(1);
        let mark = median / step * step;
        let n = seg.1.iter().filter(|c| c.1 > mark).count();
        qs.push(Some(count(
            &format!("On how many days did {} have more than {mark} events?", seg.0),
            &[&seg.0],
            n,
            Some(&seg.0),
        )));
        let peak: Vec<(i64, String)> = seg.1.iter().map(|(d, n)| (*n, d.clone())).collect();
        qs.push(extreme(&format!("On which day did {} have the most events?", seg.0), peak, true, Some(&seg.0)));
    }
    for k in [0, series.len() / 2, series.len().saturating_sub(1)] {
        let Some(d) = series.get(k) else { continue };
        let on: Vec<(i64, String)> =
            cells.iter().filter(|c| &c.day == d).map(|c| (c.events, c.segment.clone())).collect();
        qs.push(extreme(&format!("Which segment had the most events on {d}?"), on, true, Some(d)));
    }
    qs.push(extreme("Which segment had the most events over the whole range?", totals.clone(), true, None));
    qs.push(extreme("Which segment had the fewest events over the whole range?", totals, false, None));
    let by_day: Vec<(i64, String)> =
        series.iter().map(|d| (cells.iter().filter(|c| &c.day == d).map(|c| c.events).sum(), d.clone())).collect();
    qs.push(extreme("Which day had the most events across all segments?", by_day.clone(), true, None));
    qs.push(extreme("Which day had the fewest events across all segments?", by_day, false, None));
    // The breakdown's size, as the result states it.
    let legend = field(v, "legend_size");
    if !legend.is_empty() {
        qs.push(Some(together(Kind::Tail, "What legend size does the result report?".to_owned(), None, &[&legend])));
    }
    qs
}
