//! The questions asked of the thirty-first part's first half: results of MCP servers and of
//! the services behind them. What a user of each tool asks of its result: a series' value
//! at a given time, its peak, its low and its latest point, how many series and points
//! there are and how many buckets came back null, which host or pod ran hottest on
//! average or at its peak and when the fleet's total peaked (a Datadog metrics query); a
//! breakdown value's count on a given day and its total, the day it peaked, how many
//! breakdown values and days there are, which value leads or trails and which day was
//! busiest (a PostHog trends insight); a column's type, default, enum labels or check by
//! table and name, where a foreign key points, a table's rows and comment, how many
//! tables and columns there are, how many tables skip RLS and how many foreign keys point
//! at a table, which table is largest, widest or most referenced (a Supabase table
//! list); an event's time, release, user, URL and environment by its id, how many events
//! a release or staging has, how many users were hit, and which release, user, browser
//! or host saw the most events (a Sentry issue's events). Records are named from the
//! middle and the end of each result as well as its start, and every answer is computed
//! from the data.

mod datadog;
mod posthog;
mod sentry;
mod supabase;

#[cfg(test)]
mod tests;

use serde_json::Value;

use crate::question::{Kind, Question};
use crate::questions_blind::together;
use crate::record_questions::{field, list, number};

/// Every question about one of this half's JSON results; `None` for other shapes.
pub(super) fn json_questions(name: &str, v: &Value) -> Option<Vec<Question>> {
    let qs = match name {
        "datadog_metrics_query" => datadog::datadog_questions(v),
        "posthog_trends_query" => posthog::posthog_questions(v),
        "supabase_list_tables" => supabase::supabase_questions(v),
        "sentry_issue_events" => sentry::sentry_questions(v),
        _ => return None,
    };
    Some(qs.into_iter().flatten().collect())
}

/// Every question about one of this half's text results; `None` for other shapes.
pub(super) fn text_questions(name: &str, t: &str) -> Option<Vec<Question>> {
    // This half's shapes are all JSON.
    let _ = (name, t);
    None
}

/// A lookup of the item about `f` (0..1) of the way down `items`, or the next after it,
/// whose key (what `key` gives) names no other item and that `ask` can ask about. `ask`
/// writes the question in the user's own words (a time as they would say it, not as the
/// result stores it) and gives the strings that answer it; the key's strings answer it
/// too, and the first of them is what a model searches for.
pub(super) fn ask_at<T>(
    items: &[T],
    f: f64,
    key: impl Fn(&T) -> Option<Vec<String>>,
    ask: impl Fn(&T) -> Option<(String, Vec<String>)>,
) -> Option<Question> {
    let n = items.len();
    let start = ((n as f64 * f) as usize).min(n.saturating_sub(1));
    (start..n).chain(0..start).find_map(|i| {
        let k = key(&items[i]).filter(|k| !k.is_empty() && k.iter().all(|s| !s.is_empty()))?;
        if items.iter().filter(|x| key(x).as_ref() == Some(&k)).count() != 1 {
            return None;
        }
        let (text, answer) = ask(&items[i])?;
        let must: Vec<String> = k.iter().cloned().chain(answer).collect();
        if must.iter().any(String::is_empty) {
            return None;
        }
        let must: Vec<&str> = must.iter().map(String::as_str).collect();
        Some(together(Kind::Lookup, text, Some(&k[0]), &must))
    })
}

/// The largest (or smallest) of `scored`, with its holder, when no other shares it.
pub(super) fn only_extreme<T: Clone>(scored: &[(f64, T)], max: bool) -> Option<(f64, T)> {
    let best = scored.iter().map(|s| s.0).reduce(if max { f64::max } else { f64::min })?;
    match scored.iter().filter(|s| s.0 == best).collect::<Vec<_>>().as_slice() {
        [one] => Some((*one).clone()),
        _ => None,
    }
}
