//! Questions about a Google Ads search stream of ad groups by day: the first and the last
//! rows (campaign, ad group, date, impressions, clicks, cost, conversions) and the
//! stream's request id; an ad group's clicks and cost, impressions or conversions on a
//! date, and an ad group's name and campaign by its id; and how many ad groups are
//! paused, how many campaigns are search campaigns, how many rows had no conversions or
//! fall on the last day, how many ad groups the largest campaign has, and which ad group
//! converted most and had the best click-through rate, which campaign spent most and got
//! the fewest clicks, and which day brought the most clicks.

use std::collections::BTreeMap;

use serde_json::Value;

use super::{field, list, number};
use crate::question::Question;
use crate::questions_blind::{count, extreme};
use crate::record_questions::{end, lookup_by, lookup_one as lookup};

/// Every result row of every batch, in order.
pub(super) fn rows(v: &Value) -> Vec<&Value> {
    list(v, "").iter().flat_map(|b| list(b, "results")).collect()
}

/// The sum of the metric at `path` of the rows, grouped by the name at `by`.
pub(super) fn totals(rows: &[&Value], by: &str, path: &str) -> Vec<(f64, String)> {
    let mut sums: BTreeMap<String, f64> = BTreeMap::new();
    for r in rows {
        *sums.entry(field(r, by)).or_default() += number(r, path).unwrap_or(0.0);
    }
    sums.into_iter().map(|(k, s)| (s, k)).collect()
}

pub(super) fn google_ads_questions(v: &Value) -> Vec<Option<Question>> {
    let rows = rows(v);
    let names = |r: &Value| vec![field(r, "campaign.name"), field(r, "adGroup.name"), field(r, "segments.date")];
    let with = |r: &Value, paths: &[&str]| Some([names(r), paths.iter().map(|p| field(r, p)).collect()].concat());
    let clicks_cost = |r: &&Value| with(r, &["metrics.clicks", "metrics.costMicros"]);
    let impressions = |r: &&Value| with(r, &["metrics.impressions"]);
    let conversions = |r: &&Value| with(r, &["metrics.conversions"]);
    let batches = list(v, "");
    let mut qs = vec![
        end(&rows, 0, false, "Which campaign, ad group and date does the first row report?", |r| Some(names(r))),
        end(&rows, 0, false, "How many clicks did the first row get, and what did they cost?", clicks_cost),
        end(&rows, 0, false, "How many impressions does the first row have?", impressions),
        end(&rows, 0, false, "How many conversions does the first row have?", conversions),
        end(&rows, 0, false, "What is the id of the first row's ad group, and its status?", |r| {
            with(r, &["adGroup.id", "adGroup.status"])
        }),
        end(&rows, 1, false, "How many clicks did the second row get, and what did they cost?", clicks_cost),
        end(&rows, 2, false, "How many impressions does the third row have?", impressions),
        end(&rows, 3, false, "How many clicks did the fourth row get, and what did they cost?", clicks_cost),
        end(&rows, 4, false, "How many conversions does the fifth row have?", conversions),
        end(&rows, 0, false, "Which channel type is the first row's campaign?", |r| {
            with(r, &["campaign.advertisingChannelType"])
        }),
        end(&rows, 0, true, "Which campaign, ad group and date does the last row report?", |r| Some(names(r))),
        end(&rows, 0, true, "How many clicks did the last row get, and what did they cost?", clicks_cost),
        end(&rows, 0, true, "How many impressions does the last row have?", impressions),
        end(&rows, 0, true, "How many conversions does the last row have?", conversions),
        end(&rows, 1, true, "How many clicks did the second to last row get, and what did they cost?", clicks_cost),
        end(&rows, 2, true, "How many impressions does the third to last row have?", impressions),
        end(&rows, 3, true, "How many clicks did the fourth to last row get, and what did they cost?", clicks_cost),
        end(&rows, 4, true, "How many conversions does the fifth to last row have?", conversions),
        end(batches, 0, true, "What is the request id of the stream?", |b| Some(vec![field(b, "requestId")])),
    ];
    let key = |r: &&Value| Some(vec![field(r, "adGroup.name"), field(r, "segments.date")]);
    for f in [0.2, 0.45, 0.7, 0.9] {
        qs.push(lookup_by(
            &rows,
            f,
            "How many clicks did ad group {key0} get on {key1}, and what did they cost?",
            key,
            |r| Some(vec![field(r, "metrics.clicks"), field(r, "metrics.costMicros")]),
        ));
    }
    qs.push(lookup_by(&rows, 0.35, "How many impressions did ad group {key0} get on {key1}?", key, |r| {
        Some(vec![field(r, "metrics.impressions")])
    }));
    for f in [0.6, 0.85] {
        qs.push(lookup_by(&rows, f, "How many conversions did ad group {key0} get on {key1}?", key, |r| {
            Some(vec![field(r, "metrics.conversions")])
        }));
    }
    qs.push(lookup_by(&rows, 0.1, "What was the click-through rate of ad group {key0} on {key1}?", key, |r| {
        Some(vec![field(r, "metrics.ctr")])
    }));
    // One row per ad group, for questions about the ad group itself.
    let mut seen = Vec::new();
    let groups: Vec<&Value> = rows
        .iter()
        .copied()
        .filter(|r| {
            let id = field(r, "adGroup.id");
            let new = !seen.contains(&id);
            seen.push(id);
            new
        })
        .collect();
    for f in [0.3, 0.8] {
        qs.push(lookup(
            &groups,
            f,
            "Which ad group has id {key}, and which campaign is it in?",
            |r| field(r, "adGroup.id"),
            |r| Some(vec![field(r, "adGroup.name"), field(r, "campaign.name")]),
        ));
    }
    // How many, and which is the largest.
    let n = groups.iter().filter(|r| r["adGroup"]["status"] == "PAUSED" || r["campaign"]["status"] == "PAUSED").count();
    qs.push(Some(count(
        "How many ad groups are paused, or in a paused campaign?",
        &["PAUSED", "paused"],
        n,
        Some("status"),
    )));
    let search = groups
        .iter()
        .filter(|r| r["campaign"]["advertisingChannelType"] == "SEARCH")
        .map(|r| field(r, "campaign.id"))
        .collect::<std::collections::BTreeSet<_>>()
        .len();
    qs.push(Some(count(
        "How many search campaigns are in the report?",
        &["SEARCH", "search"],
        search,
        Some("advertisingChannelType"),
    )));
    let n = rows.iter().filter(|r| number(r, "metrics.conversions") == Some(0.0)).count();
    qs.push(Some(count(
        "How many rows had no conversions?",
        &["no conversions", "0 conversions"],
        n,
        Some("conversions"),
    )));
    if let Some(group) = rows.first().map(|r| field(r, "adGroup.name")) {
        let n = rows
            .iter()
            .filter(|r| field(r, "adGroup.name") == group && number(r, "metrics.conversions").unwrap_or(0.0) > 0.0)
            .count();
        qs.push(Some(count(
            &format!("On how many days did ad group {group} get at least one conversion?"),
            &[&group],
            n,
            Some("conversions"),
        )));
    }
    if let Some(last_day) = rows.last().map(|r| field(r, "segments.date")) {
        let n = rows.iter().filter(|r| field(r, "segments.date") == last_day).count();
        qs.push(Some(count(&format!("How many rows are there for {last_day}?"), &[&last_day], n, Some("date"))));
    }
    let per_campaign = totals(&rows, "campaign.name", "none");
    let group_counts: Vec<(usize, String)> = per_campaign
        .iter()
        .map(|(_, name)| (groups.iter().filter(|r| field(r, "campaign.name") == *name).count(), name.clone()))
        .collect();
    if let Some((n, name)) = group_counts.iter().max_by(|a, b| a.0.cmp(&b.0).then(b.1.cmp(&a.1))) {
        qs.push(Some(count(&format!("How many ad groups does {name} have?"), &[name], *n, Some("adGroup"))));
    }
    qs.push(extreme(
        "Which ad group had the most conversions over the period?",
        totals(&rows, "adGroup.name", "metrics.conversions"),
        true,
        Some("conversions"),
    ));
    qs.push(extreme(
        "Which ad group had the fewest impressions over the period?",
        totals(&rows, "adGroup.name", "metrics.impressions"),
        false,
        Some("impressions"),
    ));
    let clicks = totals(&rows, "adGroup.name", "metrics.clicks");
    let shown = totals(&rows, "adGroup.name", "metrics.impressions");
    let ctr: Vec<(f64, String)> =
        clicks.iter().zip(&shown).map(|((c, name), (i, _))| (c / i.max(1.0), name.clone())).collect();
    qs.push(extreme("Which ad group had the highest click-through rate over the period?", ctr, true, Some("ctr")));
    qs.push(extreme(
        "Which campaign spent the most over the period?",
        totals(&rows, "campaign.name", "metrics.costMicros"),
        true,
        Some("costMicros"),
    ));
    qs.push(extreme(
        "Which campaign got the fewest clicks over the period?",
        totals(&rows, "campaign.name", "metrics.clicks"),
        false,
        Some("clicks"),
    ));
    qs.push(extreme(
        "On which day did the account get the most clicks?",
        totals(&rows, "segments.date", "metrics.clicks"),
        true,
        Some("clicks"),
    ));
    qs
}
