//! Spans between two times of a record: how long a run took, a build lasted, a ticket
//! stayed open. Records often hold when something started and when it ended but not how
//! long it took, and "which run took the longest" needs that difference in every record.
//!
//! Found from the values, never from the fields' names: two time fields form a span when,
//! in the sample, the second is never before the first and is after it in at least half
//! the records, the difference is not the same everywhere, and no third time field lies
//! between them in every record (so a chain `queued ≤ started ≤ ended` gives its steps,
//! not `queued → ended`). The spans with the longest differences come first.

use serde_json::Value;

use super::{Compactor, Holds};
use crate::aggregate::timestamp_millis;

/// Time fields looked at, at most (their pairs are compared over the sample).
const MAX_TIMES: usize = 8;
/// Spans kept, at most.
const MAX_SPANS: usize = 3;

/// Two time columns of the compact view: `end − start` is the span.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Span {
    pub(crate) start: usize,
    pub(crate) end: usize,
}

/// The spans of a result's records, judged on the sample.
pub(crate) fn between_times(c: &Compactor, sample: &[Value]) -> Vec<Span> {
    let times: Vec<usize> = c
        .columns
        .iter()
        .enumerate()
        .filter(|(_, col)| col.holds == Holds::Times)
        .map(|(i, _)| i)
        .take(MAX_TIMES)
        .collect();
    if times.len() < 2 {
        return Vec::new();
    }
    let values: Vec<Vec<Option<i64>>> = sample
        .iter()
        .map(|r| times.iter().map(|&i| c.value(i, r).as_ref().and_then(timestamp_millis)).collect())
        .collect();
    let n = times.len();
    // ordered[a][b]: the least and the longest difference, when b follows a.
    let ordered: Vec<Vec<Option<(i64, i64)>>> =
        (0..n).map(|a| (0..n).map(|b| if a == b { None } else { follows(&values, a, b) }).collect()).collect();
    let mut spans: Vec<(i64, Span)> = Vec::new();
    for a in 0..n {
        for b in 0..n {
            // A difference that is the same in every record (a fixed interval) says nothing
            // a record does not, but it still orders the fields.
            let Some((_, longest)) = ordered[a][b].filter(|(least, most)| most > least) else { continue };
            let between = (0..n).any(|m| m != a && m != b && ordered[a][m].is_some() && ordered[m][b].is_some());
            if !between {
                spans.push((longest, Span { start: times[a], end: times[b] }));
            }
        }
    }
    spans.sort_by(|x, y| y.0.cmp(&x.0).then(x.1.start.cmp(&y.1.start)));
    spans.into_iter().take(MAX_SPANS).map(|(_, s)| s).collect()
}

/// Whether field `b` follows field `a` in the sample's records: the least and the longest
/// difference when it does.
fn follows(values: &[Vec<Option<i64>>], a: usize, b: usize) -> Option<(i64, i64)> {
    let (mut both, mut after) = (0usize, 0usize);
    let (mut least, mut most) = (i64::MAX, i64::MIN);
    for r in values {
        let (Some(x), Some(y)) = (r[a], r[b]) else { continue };
        let d = y - x;
        if d < 0 {
            return None;
        }
        both += 1;
        after += usize::from(d > 0);
        least = least.min(d);
        most = most.max(d);
    }
    (both >= 3 && after * 2 >= both).then_some((least, most))
}

/// A span in words: `850 ms`, `42 s`, `4 min 12 s`, `3 h 5 min`, `2 d 4 h`.
pub(crate) fn duration_text(ms: i64) -> String {
    let ms = ms.max(0);
    let s = ms / 1000;
    match s {
        0 => format!("{ms} ms"),
        1..60 => format!("{s} s"),
        60..3600 => format!("{} min {} s", s / 60, s % 60),
        3600..86_400 => format!("{} h {} min", s / 3600, s % 3600 / 60),
        _ => format!("{} d {} h", s / 86_400, s % 86_400 / 3600),
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn runs() -> Vec<Value> {
        (0..12)
            .map(|i| {
                let state = ["ok", "failed"][i % 2];
                json!({
                    "id": format!("run-{i}"),
                    "queued_at": format!("2025-12-31T10:{:02}:00Z", i * 2),
                    "started_at": format!("2025-12-31T10:{:02}:{:02}Z", i * 2, i * 5),
                    "ended_at": format!("2025-12-31T11:{:02}:{:02}Z", i * 3 + 1, i * 4),
                    "state": state,
                })
            })
            .collect()
    }

    #[test]
    fn a_chain_of_times_gives_its_steps_longest_first() {
        let sample = runs();
        let c = Compactor::learn(&sample);
        let name = |i: usize| c.columns[i].name.clone();
        let spans: Vec<(String, String)> =
            between_times(&c, &sample).into_iter().map(|s| (name(s.start), name(s.end))).collect();
        assert_eq!(
            spans,
            vec![("started_at".to_owned(), "ended_at".to_owned()), ("queued_at".to_owned(), "started_at".to_owned())]
        );
    }

    #[test]
    fn times_in_no_order_or_always_equal_make_no_span() {
        let sample: Vec<Value> = (0..10)
            .map(|i| {
                json!({
                    "id": i,
                    "a": format!("2025-12-{:02}T00:00:00Z", 1 + (i * 7) % 20),
                    "b": format!("2025-12-{:02}T00:00:00Z", 1 + (i * 3) % 20),
                    "c": format!("2025-12-{:02}T00:00:00Z", 1 + (i * 3) % 20),
                })
            })
            .collect();
        let c = Compactor::learn(&sample);
        assert!(between_times(&c, &sample).is_empty());
    }

    #[test]
    fn durations_read_as_words() {
        assert_eq!(duration_text(850), "850 ms");
        assert_eq!(duration_text(42_000), "42 s");
        assert_eq!(duration_text(252_000), "4 min 12 s");
        assert_eq!(duration_text(11_100_000), "3 h 5 min");
        assert_eq!(duration_text(187_200_000), "2 d 4 h");
    }
}
