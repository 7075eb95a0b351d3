//! Questions about a Search Console `searchanalytics.query` by query, page, country and
//! device: the first rows (the search, page, clicks, impressions, CTR, position) and
//! the last rows and aggregation type; a row's clicks, impressions or position by its
//! search, page, country and device; and how many rows come from a country or device,
//! which row has the most impressions or the best position, and which search, page or
//! country gets the most clicks in total.

use std::collections::BTreeMap;

use serde_json::Value;

use super::{end, list};
use crate::question::{Kind, Question, text};
use crate::questions_blind::{count, extreme, most_frequent, together};
use crate::record_questions::lookup_by;

/// A row: its four keys and its metrics as the response writes them.
pub(super) struct Row {
    pub(super) query: String,
    pub(super) page: String,
    pub(super) country: String,
    pub(super) device: String,
    pub(super) clicks: i64,
    pub(super) impressions: i64,
    pub(super) ctr: String,
    pub(super) position: String,
}

impl Row {
    fn position(&self) -> f64 {
        self.position.parse().unwrap_or(f64::NAN)
    }
}

pub(super) fn rows(v: &Value) -> Vec<Row> {
    list(v, "rows")
        .iter()
        .map(|r| {
            let k = |i: usize| r["keys"].get(i).map(text).unwrap_or_default();
            Row {
                query: k(0),
                page: k(1),
                country: k(2),
                device: k(3),
                clicks: r["clicks"].as_i64().unwrap_or_default(),
                impressions: r["impressions"].as_i64().unwrap_or_default(),
                ctr: text(&r["ctr"]),
                position: text(&r["position"]),
            }
        })
        .collect()
}

fn query_page(r: &Row) -> Option<Vec<String>> {
    Some(vec![r.query.clone(), r.page.clone()])
}

/// A row named by all four of its keys.
fn keys(r: &Row) -> Option<Vec<String>> {
    Some(vec![r.query.clone(), r.page.clone(), r.country.clone(), r.device.clone()])
}

/// A row named by its search, country and device (its page left out).
fn query_country_device(r: &Row) -> Option<Vec<String>> {
    Some(vec![r.query.clone(), r.country.clone(), r.device.clone()])
}

pub(super) fn search_console_questions(v: &Value) -> Vec<Option<Question>> {
    let all = rows(v);
    let clicks = |r: &Row| Some(vec![r.clicks.to_string()]);
    let mut qs = vec![
        end(&all, 0, false, "Which search and page get the most clicks in a row, and how many?", |r| {
            Some(vec![r.query.clone(), r.page.clone(), r.clicks.to_string()])
        }),
        end(&all, 0, false, "Which country and device is the first row?", |r| {
            Some(vec![r.query.clone(), r.country.clone(), r.device.clone()])
        }),
        end(&all, 0, false, "How many impressions does the first row have?", |r| Some(vec![r.impressions.to_string()])),
        end(&all, 0, false, "What is the CTR of the first row?", |r| Some(vec![r.ctr.clone()])),
        end(&all, 0, false, "What is the average position of the first row?", |r| {
            Some(vec![r.query.clone(), r.position.clone()])
        }),
        end(&all, 1, false, "Which search is in the second row, and how many clicks did it get?", |r| {
            Some(vec![r.query.clone(), r.clicks.to_string()])
        }),
        end(&all, 1, false, "Which page is in the second row?", query_page),
        end(&all, 2, false, "Which search is in the third row, and from which country?", |r| {
            Some(vec![r.query.clone(), r.country.clone()])
        }),
        end(&all, 3, false, "Which search is in the fourth row?", |r| Some(vec![r.query.clone()])),
        end(&all, 4, false, "How many impressions does the fifth row have?", |r| {
            Some(vec![r.query.clone(), r.impressions.to_string()])
        }),
        end(&all, 0, true, "Which search and page are in the last row?", query_page),
        end(&all, 0, true, "How many clicks and impressions does the last row have?", |r| {
            Some(vec![r.query.clone(), r.clicks.to_string(), r.impressions.to_string()])
        }),
        end(&all, 0, true, "Which country and device is the last row?", |r| {
            Some(vec![r.query.clone(), r.country.clone(), r.device.clone()])
        }),
        end(&all, 0, true, "What is the average position of the last row?", |r| Some(vec![r.position.clone()])),
        end(&all, 1, true, "Which search is in the second to last row, and on which page?", query_page),
        end(&all, 1, true, "How many impressions does the second to last row have?", |r| {
            Some(vec![r.query.clone(), r.impressions.to_string()])
        }),
        end(&all, 2, true, "Which search is in the third to last row?", |r| Some(vec![r.query.clone()])),
        end(&all, 3, true, "What is the CTR of the fourth to last row?", |r| {
            Some(vec![r.query.clone(), r.ctr.clone()])
        }),
        v["responseAggregationType"].as_str().map(|t| {
            together(Kind::Tail, "How did the API aggregate the results (responseAggregationType)?".into(), None, &[t])
        }),
    ];
    for at in [0.1, 0.4, 0.7] {
        qs.push(lookup_by(
            &all,
            at,
            "How many clicks did \"{key0}\" get on {key1} from {key3} users in {key2}?",
            keys,
            clicks,
        ));
    }
    for at in [0.3, 0.6, 0.9] {
        qs.push(lookup_by(
            &all,
            at,
            "How many impressions did \"{key0}\" get from {key2} users in {key1}?",
            query_country_device,
            |r| Some(vec![r.impressions.to_string()]),
        ));
    }
    for at in [0.2, 0.5, 0.8] {
        qs.push(lookup_by(
            &all,
            at,
            "What is the average position of \"{key0}\" on {key1} for {key3} users in {key2}?",
            keys,
            |r| Some(vec![r.position.clone()]),
        ));
    }
    qs.push(lookup_by(
        &all,
        0.95,
        "How many clicks did \"{key0}\" get from {key2} users in {key1}?",
        query_country_device,
        clicks,
    ));
    // How many, and which holds the most.
    let countries = most_frequent(all.iter().map(|r| r.country.as_str()));
    let mut by_count: Vec<&(usize, String)> = countries.iter().collect();
    by_count.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
    for (n, c) in by_count.iter().take(4) {
        qs.push(Some(count(&format!("How many rows are from {c}?"), &[c], *n, Some("keys"))));
    }
    for device in ["MOBILE", "DESKTOP", "TABLET"] {
        let n = all.iter().filter(|r| r.device == device).count();
        qs.push(Some(count(&format!("How many rows are {device}?"), &[device], n, Some("keys"))));
    }
    let row_id = |r: &Row| r.query.clone();
    let impressions: Vec<(i64, String)> = all.iter().map(|r| (r.impressions, row_id(r))).collect();
    qs.push(extreme("Which row has the most impressions? Name its search.", impressions, true, Some("impressions")));
    let seen: Vec<&Row> = all.iter().filter(|r| r.impressions >= 100).collect();
    let positions = seen.iter().map(|r| (r.position(), row_id(r))).collect();
    qs.push(extreme(
        "Among rows with at least 100 impressions, which search has the best (lowest) average position?",
        positions,
        false,
        Some("position"),
    ));
    let worst = seen.iter().map(|r| (r.position(), row_id(r))).collect();
    qs.push(extreme(
        "Among rows with at least 100 impressions, which search ranks worst (highest average position)?",
        worst,
        true,
        Some("position"),
    ));
    let total = |key: &dyn Fn(&Row) -> &str, metric: &dyn Fn(&Row) -> i64| -> Vec<(i64, String)> {
        let mut sums: BTreeMap<&str, i64> = BTreeMap::new();
        for r in &all {
            *sums.entry(key(r)).or_default() += metric(r);
        }
        sums.into_iter().map(|(k, n)| (n, k.to_owned())).collect()
    };
    qs.push(extreme(
        "Which search gets the most clicks in total, over all pages, countries and devices?",
        total(&|r| &r.query, &|r| r.clicks),
        true,
        Some("clicks"),
    ));
    qs.push(extreme(
        "Which search gets the most impressions in total?",
        total(&|r| &r.query, &|r| r.impressions),
        true,
        Some("impressions"),
    ));
    qs.push(extreme(
        "Which page gets the most clicks in total?",
        total(&|r| &r.page, &|r| r.clicks),
        true,
        Some("clicks"),
    ));
    qs.push(extreme(
        "Which country gets the most clicks in total?",
        total(&|r| &r.country, &|r| r.clicks),
        true,
        Some("clicks"),
    ));
    qs.push(extreme(
        "Which country gets the fewest clicks in total?",
        total(&|r| &r.country, &|r| r.clicks),
        false,
        Some("clicks"),
    ));
    qs
}
