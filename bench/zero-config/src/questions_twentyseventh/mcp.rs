//! The questions asked of the twenty-seventh part's first half: results of MCP servers and
//! of the services behind them. What a user of each tool asks of its result: a log's
//! service, host and message by its id, the error behind a trace, how many errors a
//! service wrote and which request was slowest (a Datadog log search); a product's vendor
//! and price, a SKU's price and stock, how many products are drafts and which is the most
//! expensive (a Shopify product page); a case's status, owner and account, how many open
//! cases are high priority and which open case is oldest (a Salesforce SOQL query); an ad
//! group's clicks and cost on a date, which ad group converted most and which campaign
//! spent most (a Google Ads search stream). Records are named from the middle and the end
//! of each result as well as its start, and every answer is computed from the data.

mod datadog;
mod google_ads;
mod salesforce;
mod shopify;

#[cfg(test)]
mod tests;

use serde_json::Value;

use crate::question::Question;
use crate::record_questions::{field, list, number};

/// A timestamp (`2025-12-30T14:22:05.000+0000`, `2025-12-30T14:22:05Z`, with or without
/// milliseconds, in UTC) as seconds since 1970-01-01.
fn seconds(t: &str) -> Option<i64> {
    let (date, time) = t.split_once('T')?;
    let mut d = date.split('-').map(str::parse::<i64>);
    let (y, m, day) = (d.next()?.ok()?, d.next()?.ok()?, d.next()?.ok()?);
    let clock = time.get(..8)?;
    let mut h = clock.split(':').map(str::parse::<i64>);
    let (hh, mm, ss) = (h.next()?.ok()?, h.next()?.ok()?, h.next()?.ok()?);
    // Days by the civil calendar, counted from March so a leap day ends a year.
    let (y, m) = if m <= 2 { (y - 1, m + 9) } else { (y, m - 3) };
    let days = y * 365 + y / 4 - y / 100 + y / 400 + (153 * m + 2) / 5 + day - 1 - 719_468;
    Some(days * 86_400 + hh * 3_600 + mm * 60 + ss)
}

/// Every question about one of this half's JSON results; `None` for other shapes.
pub(super) fn json_questions(name: &str, v: &Value) -> Option<Vec<Question>> {
    let qs = match name {
        "datadog_logs_search" => datadog::datadog_questions(v),
        "shopify_products_graphql" => shopify::shopify_questions(v),
        "salesforce_soql_cases" => salesforce::salesforce_questions(v),
        "google_ads_search_stream" => google_ads::google_ads_questions(v),
        _ => return None,
    };
    Some(qs.into_iter().flatten().collect())
}

/// Every question about one of this half's text results; `None` for other shapes.
pub(super) fn text_questions(name: &str, _t: &str) -> Option<Vec<Question>> {
    // This half's shapes are all JSON.
    let _ = name;
    None
}
