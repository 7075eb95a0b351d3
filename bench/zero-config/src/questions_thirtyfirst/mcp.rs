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

use crate::question::Question;
use crate::record_questions::{ask_at, field, list, number};

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

/// The largest (or smallest) of `scored`, with its holder, when no other shares it.
pub(super) fn only_extreme<T: Clone>(scored: &[(f64, T)], max: bool) -> Option<(f64, T)> {
    let best = scored.iter().map(|s| s.0).reduce(if max { f64::max } else { f64::min })?;
    match scored.iter().filter(|s| s.0 == best).collect::<Vec<_>>().as_slice() {
        [one] => Some((*one).clone()),
        _ => None,
    }
}
