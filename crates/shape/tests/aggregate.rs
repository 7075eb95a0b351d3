//! Aggregation: known datasets computed independently, fan-outs, ties, stats with
//! non-numbers, recent windows over every timestamp form, spec parsing, and properties over
//! arbitrary records.

// Helpers outside `#[test]` functions unwrap too: a test should fail loudly on bad fixtures.
#![allow(clippy::unwrap_used)]

use std::collections::HashMap;

use proptest::prelude::*;
use serde_json::{Value, json};
use toolshape_shape::FieldPath;
use toolshape_shape::{
    AggregateSpec, Aggregator, GroupBy, MAX_BUCKETS, MAX_DISTINCT, RecentWindow, Window, WindowUnit, round3,
};

fn path(p: &str) -> FieldPath {
    FieldPath::parse(p).unwrap()
}

fn spec(v: Value) -> AggregateSpec {
    serde_json::from_value(v).unwrap()
}

fn run(spec: &AggregateSpec, now: Option<i64>, records: &[Value]) -> toolshape_shape::Aggregate {
    let mut agg = Aggregator::new(spec, now);
    for r in records {
        agg.add(r);
    }
    agg.finish()
}

/// A tiny deterministic generator, so the dataset is the same on every run.
struct Lcg(u64);

impl Lcg {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        self.0 >> 33
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

const NOW: i64 = 1_750_000_000; // 2025-06-15T15:06:40Z
const DAY: i64 = 86_400;

/// One generated issue and the facts about it the test computes on its own.
struct Generated {
    record: Value,
    labels: Vec<String>,
    state: Option<String>,
    comments: Option<f64>,
    created_ms: Option<i64>,
}

fn generate(n: usize) -> Vec<Generated> {
    let names = ["bug", "ui", "docs", "perf", "security", "good first issue", "wontfix"];
    let mut rng = Lcg(42);
    (0..n)
        .map(|i| {
            let label_count = rng.below(4) as usize;
            let labels: Vec<String> =
                (0..label_count).map(|_| names[(rng.below(7) * rng.below(7) % 7) as usize].to_owned()).collect();
            let state = match rng.below(10) {
                0 => None,
                1..=6 => Some("open".to_owned()),
                _ => Some("closed".to_owned()),
            };
            let (comments_json, comments) = match rng.below(20) {
                0 => (None, None),
                1 => (Some(json!("many")), None),
                2 => (Some(Value::Null), None),
                3 => (Some(json!(2.5)), Some(2.5)),
                _ => {
                    let c = rng.below(50) as i64;
                    (Some(json!(c)), Some(c as f64))
                }
            };
            let age_s = rng.below(90 * DAY as u64) as i64;
            let ts_s = NOW - age_s;
            let (created_json, created_ms) = match rng.below(10) {
                0 => (json!("yesterday"), None),
                1 => (json!(ts_s), Some(ts_s * 1000)),
                2 => (json!(ts_s * 1000 + 123), Some(ts_s * 1000 + 123)),
                3 => (Value::Null, None),
                _ => {
                    let t = jiff::Timestamp::from_second(ts_s).unwrap();
                    (json!(t.to_string()), Some(ts_s * 1000))
                }
            };
            let mut record = serde_json::Map::new();
            record.insert("number".into(), json!(i));
            record.insert("labels".into(), json!(labels.iter().map(|l| json!({"name": l})).collect::<Vec<_>>()));
            if let Some(s) = &state {
                record.insert("state".into(), json!(s));
            }
            if let Some(c) = comments_json {
                record.insert("comments".into(), c);
            }
            record.insert("created_at".into(), created_json);
            Generated { record: Value::Object(record), labels, state, comments, created_ms }
        })
        .collect()
}

fn ranked(counts: HashMap<String, u64>, top: usize) -> (u64, Vec<(String, u64)>) {
    let distinct = counts.len() as u64;
    let mut all: Vec<(String, u64)> = counts.into_iter().collect();
    all.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    all.truncate(top);
    (distinct, all)
}

#[test]
fn generated_dataset_matches_an_independent_computation() {
    let data = generate(5_000);
    let s = spec(json!({
        "group_by": [{"field": "labels[].name", "top": 4}, "state"],
        "stats": ["comments"],
        "recent": {"field": "created_at", "within": "30d"}
    }));
    let records: Vec<Value> = data.iter().map(|g| g.record.clone()).collect();
    let agg = run(&s, Some(NOW), &records);

    assert_eq!(agg.count, 5_000);

    // Labels: every element counts; a record without labels counts once as (none).
    let mut label_counts: HashMap<String, u64> = HashMap::new();
    for g in &data {
        if g.labels.is_empty() {
            *label_counts.entry("(none)".into()).or_default() += 1;
        }
        for l in &g.labels {
            *label_counts.entry(l.clone()).or_default() += 1;
        }
    }
    let (distinct, top) = ranked(label_counts, 4);
    assert_eq!(agg.groups[0].field, "labels[].name");
    assert_eq!(agg.groups[0].distinct, distinct);
    assert_eq!(agg.groups[0].top, top);
    assert_eq!(agg.groups[0].other, 0);

    let mut state_counts: HashMap<String, u64> = HashMap::new();
    for g in &data {
        *state_counts.entry(g.state.clone().unwrap_or_else(|| "(none)".into())).or_default() += 1;
    }
    let (distinct, top) = ranked(state_counts, 5);
    assert_eq!(agg.groups[1].distinct, distinct);
    assert_eq!(agg.groups[1].top, top);

    let nums: Vec<f64> = data.iter().filter_map(|g| g.comments).collect();
    let st = &agg.stats[0];
    assert_eq!(st.count, nums.len() as u64);
    assert_eq!(st.skipped, (data.len() - nums.len()) as u64);
    assert_eq!(st.min, Some(nums.iter().cloned().fold(f64::INFINITY, f64::min)));
    assert_eq!(st.max, Some(nums.iter().cloned().fold(f64::NEG_INFINITY, f64::max)));
    let sum: f64 = nums.iter().sum();
    assert_eq!(st.sum, Some(sum));
    assert_eq!(st.mean.map(round3), Some(round3(sum / nums.len() as f64)));

    let floor = (NOW - 30 * DAY) * 1000;
    let parsed: Vec<i64> = data.iter().filter_map(|g| g.created_ms).collect();
    let inside = parsed.iter().filter(|&&ms| ms >= floor).count() as u64;
    let r = agg.recent.as_ref().unwrap();
    assert_eq!(r.count, inside);
    assert_eq!(r.unknown, (data.len() - parsed.len()) as u64);
    assert_eq!(r.share, round3(inside as f64 / parsed.len() as f64));
    assert!(r.until.is_none());
    assert!(!r.approximate);

    // The same data measured from the latest timestamp instead of a given now.
    let latest = *parsed.iter().max().unwrap();
    let inside_latest = parsed.iter().filter(|&&ms| ms >= latest - 30 * DAY * 1000).count() as u64;
    let agg2 = run(&s, None, &records);
    let r2 = agg2.recent.as_ref().unwrap();
    assert_eq!(r2.count, inside_latest);
    assert_eq!(r2.until.as_deref(), Some(jiff::Timestamp::from_millisecond(latest).unwrap().to_string().as_str()));
    assert!(!r2.approximate);
}

#[test]
fn fan_out_counts_every_element() {
    let s = spec(json!({"group_by": ["labels[].name"]}));
    let records = [
        json!({"labels": [{"name": "bug"}, {"name": "ui"}]}),
        json!({"labels": [{"name": "bug"}, {"other": 1}]}),
        json!({"labels": []}),
        json!({"title": "no labels key"}),
        json!({"labels": [{"name": "bug"}, {"name": null}, {"name": 7}, {"name": true}]}),
    ];
    let agg = run(&s, None, &records);
    let g = &agg.groups[0];
    // (none): the element without a name, the empty list, the missing key, the null name.
    assert_eq!(
        g.top,
        vec![
            ("(none)".to_owned(), 4),
            ("bug".to_owned(), 3),
            ("7".to_owned(), 1),
            ("true".to_owned(), 1),
            ("ui".to_owned(), 1)
        ]
    );
    assert_eq!(g.distinct, 5);
    assert_eq!(agg.count, 5);
}

#[test]
fn a_path_ending_on_an_array_counts_its_elements() {
    let s = spec(json!({"group_by": ["tags"]}));
    let agg = run(&s, None, &[json!({"tags": ["a", "b"]}), json!({"tags": ["a"]}), json!({"tags": "c"})]);
    assert_eq!(agg.groups[0].top, vec![("a".to_owned(), 2), ("b".to_owned(), 1), ("c".to_owned(), 1)]);
}

#[test]
fn top_k_ties_break_by_value_ascending() {
    let s = spec(json!({"group_by": [{"field": "k", "top": 3}]}));
    let mut records = Vec::new();
    for (v, n) in [("delta", 2), ("alpha", 2), ("charlie", 2), ("bravo", 2), ("echo", 5), ("zulu", 1)] {
        for _ in 0..n {
            records.push(json!({ "k": v }));
        }
    }
    // Insertion order must not matter: reverse it and expect the same answer.
    let a = run(&s, None, &records);
    records.reverse();
    let b = run(&s, None, &records);
    let expected = vec![("echo".to_owned(), 5), ("alpha".to_owned(), 2), ("bravo".to_owned(), 2)];
    assert_eq!(a.groups[0].top, expected);
    assert_eq!(b.groups[0].top, expected);
    assert_eq!(a.groups[0].distinct, 6);
}

#[test]
fn top_zero_reports_distinct_only() {
    let s = spec(json!({"group_by": [{"field": "k", "top": 0}]}));
    let agg = run(&s, None, &[json!({"k": 1}), json!({"k": 2}), json!({"k": 2})]);
    assert!(agg.groups[0].top.is_empty());
    assert_eq!(agg.groups[0].distinct, 2);
    assert_eq!(agg.phrase("rows"), "3 rows; k: 2 distinct");
}

#[test]
fn distinct_values_are_capped_and_the_rest_counted_as_other() {
    let s = spec(json!({"group_by": [{"field": "id", "top": 2}]}));
    let mut agg = Aggregator::new(&s, None);
    for i in 0..(MAX_DISTINCT + 10) {
        agg.add(&json!({ "id": i }));
    }
    agg.add(&json!({"id": 0}));
    let a = agg.finish();
    let g = &a.groups[0];
    assert_eq!(g.distinct, MAX_DISTINCT as u64);
    assert_eq!(g.other, 10);
    assert_eq!(g.top[0], ("0".to_owned(), 2));
    assert!(a.phrase("rows").contains("(of over 100,000 values; 10 more as (other))"), "{}", a.phrase("rows"));
    assert!(serde_json::to_string(&a).unwrap().contains("\"other\":10"));
}

#[test]
fn long_and_structured_values_are_keyed_compactly() {
    let s = spec(json!({"group_by": ["v"]}));
    let long = "é".repeat(1_000);
    let agg = run(&s, None, &[json!({"v": long}), json!({"v": {"a": [1, 2]}}), json!({"v": ""})]);
    let keys: Vec<&str> = agg.groups[0].top.iter().map(|(k, _)| k.as_str()).collect();
    assert!(keys.contains(&"{\"a\":[1,2]}"));
    assert!(keys.contains(&""));
    let cut = keys.iter().find(|k| k.starts_with('é')).unwrap();
    assert!(cut.len() <= 256 + '…'.len_utf8() && cut.ends_with('…'));
    assert!(agg.phrase("rows").contains("\"\" 1"));
}

#[test]
fn stats_skip_non_numbers_and_count_them() {
    let s = spec(json!({"stats": ["n", "tags[].size"]}));
    let records = [
        json!({"n": 3, "tags": [{"size": 1}, {"size": "2"}]}),
        json!({"n": "42", "tags": [{"size": 10.5}]}),
        json!({"n": null}),
        json!({"n": true}),
        json!({"n": -1.5}),
        json!({}),
    ];
    let agg = run(&s, None, &records);
    let n = &agg.stats[0];
    assert_eq!((n.count, n.skipped), (2, 4));
    assert_eq!((n.min, n.max, n.sum, n.mean), (Some(-1.5), Some(3.0), Some(1.5), Some(0.75)));
    let t = &agg.stats[1];
    // Elements: 1, "2", 10.5; records without tags each count one skipped value.
    assert_eq!((t.count, t.skipped), (2, 5));
    assert_eq!(t.max, Some(10.5));
    assert_eq!(
        serde_json::to_string(&agg.stats[0]).unwrap(),
        r#"{"field":"n","count":2,"skipped":4,"min":-1.5,"max":3,"mean":0.75,"sum":1.5}"#
    );
}

#[test]
fn stats_without_numbers_say_so() {
    let s = spec(json!({"stats": ["n"]}));
    let agg = run(&s, None, &[json!({"n": "x"}), json!({})]);
    assert_eq!(serde_json::to_string(&agg.stats[0]).unwrap(), r#"{"field":"n","count":0,"skipped":2}"#);
    assert_eq!(agg.phrase("rows"), "2 rows; n: no numbers");
}

#[test]
fn overflowing_sums_never_produce_non_finite_numbers() {
    let s = spec(json!({"stats": ["n"]}));
    let agg = run(&s, None, &[json!({"n": 1.7e308}), json!({"n": 1.7e308}), json!({"n": -1e308})]);
    let st = &agg.stats[0];
    assert_eq!(st.sum, None);
    assert!(st.mean.unwrap().is_finite());
    let text = serde_json::to_string(&agg).unwrap();
    assert!(!text.contains("inf") && !text.contains("NaN") && !text.contains("null"), "{text}");
    let phrase = agg.phrase("rows");
    assert!(!phrase.contains("inf") && !phrase.contains("NaN"), "{phrase}");
}

#[test]
fn recent_window_reads_every_timestamp_form() {
    let s = spec(json!({"recent": {"field": "t", "within": "24h"}}));
    let now = 1_700_000_000; // 2023-11-14T22:13:20Z
    let records = [
        json!({"t": "2023-11-14T20:00:00Z"}),      // in
        json!({"t": "2023-11-15T03:00:00+08:00"}), // 2023-11-14T19:00Z: in
        json!({"t": "2023-11-13T22:13:20Z"}),      // exactly 24 h before: in
        json!({"t": "2023-11-13T22:13:19Z"}),      // one second more: out
        json!({"t": now - 3_600}),                 // seconds: in
        json!({"t": (now - 3_600) * 1_000}),       // milliseconds: in
        json!({"t": (now - 3_600) * 1_000_000}),   // microseconds: in
        json!({"t": (now - 2 * 86_400) * 1_000}),  // milliseconds: out
        json!({"t": 1_699_999_999.5}),             // fractional seconds: in
        json!({"t": "1699999000"}),                // digits in a string: in
        json!({"t": "2023-11-14 21:00:00"}),       // no offset, taken as UTC: in
        json!({"t": "2023-11-01"}),                // a bare date: out
        json!({"t": "next tuesday"}),              // unknown
        json!({"t": true}),                        // unknown
        json!({"t": null}),                        // unknown
        json!({}),                                 // unknown
        json!({"t": 1e300}),                       // unknown: beyond year 9999
    ];
    let agg = run(&s, Some(now), &records);
    let r = agg.recent.unwrap();
    assert_eq!((r.count, r.parsed, r.unknown), (9, 12, 5));
    assert_eq!(
        serde_json::to_string(&r).unwrap(),
        r#"{"field":"t","within":"24h","count":9,"share":0.75,"unknown":5}"#
    );
}

#[test]
fn recent_window_without_now_is_measured_from_the_latest_timestamp() {
    let s = spec(json!({"recent": {"field": "updated_at", "within": "7d"}}));
    let records = [
        json!({"updated_at": "2020-01-10T00:00:00Z"}),
        json!({"updated_at": "2020-01-04T00:00:00Z"}),
        json!({"updated_at": "2020-01-03T00:00:00Z"}), // exactly 7 days before the latest: in
        json!({"updated_at": "2020-01-02T23:59:59Z"}),
        json!({"updated_at": "2019-06-01T00:00:00Z"}),
        json!({"updated_at": "garbage"}),
    ];
    let agg = run(&s, None, &records);
    let r = agg.recent.as_ref().unwrap();
    assert_eq!((r.count, r.unknown), (3, 1));
    assert_eq!(r.until.as_deref(), Some("2020-01-10T00:00:00Z"));
    assert_eq!(
        agg.phrase("issues"),
        "6 issues, 60% updated within 7 days of the latest (2020-01-10) (1 without a readable date)"
    );
}

#[test]
fn latest_mode_stays_bounded_and_close_over_many_distinct_times() {
    let s = spec(json!({"recent": {"field": "t", "within": "1h"}}));
    let mut agg = Aggregator::new(&s, None);
    let mut rng = Lcg(7);
    let mut all = Vec::new();
    for _ in 0..(MAX_BUCKETS * 3) {
        let ms = 1_000_000_000_000 + rng.below(7_200_000) as i64;
        all.push(ms);
        agg.add(&json!({ "t": ms }));
    }
    let latest = *all.iter().max().unwrap();
    let exact = all.iter().filter(|&&m| m >= latest - 3_600_000).count() as u64;
    let r = agg.finish().recent.unwrap();
    // Only the bucket at the window's edge is estimated; buckets here are a few ms wide.
    let diff = r.count.abs_diff(exact);
    assert!(diff <= 50, "{} vs {exact}", r.count);
}

#[test]
fn window_parses_and_refuses_clearly() {
    for (text, secs) in
        [("30d", 30 * 86_400), ("24h", 86_400), ("90m", 5_400), ("2w", 1_209_600), ("45s", 45), (" 1d ", 86_400)]
    {
        assert_eq!(Window::parse(text).unwrap().seconds(), secs, "{text}");
    }
    assert_eq!(Window::parse("30d").unwrap().to_string(), "30d");
    assert_eq!(Window::new(1, WindowUnit::Days).unwrap().words(), "day");
    assert_eq!(Window::parse("30d").unwrap().words(), "30 days");
    for (bad, why) in [
        ("", "must start with a number"),
        ("d", "must start with a number"),
        ("-5d", "must start with a number"),
        ("30", "unit is missing"),
        ("30x", "unit must be one of s, m, h, d, w"),
        ("1.5h", "unit must be one of"),
        ("30D", "unit must be one of"),
        ("0d", "longer than zero"),
        ("99999999999d", "too large"),
        ("40000w", "at most 100 years"),
    ] {
        let e = Window::parse(bad).unwrap_err();
        let msg = e.to_string();
        assert!(msg.contains(why), "{bad}: {msg}");
        assert!(msg.contains("like `30d`"), "{msg}");
    }
    let e = serde_json::from_value::<AggregateSpec>(json!({"recent": {"field": "t", "within": "3 days"}})).unwrap_err();
    assert!(e.to_string().contains("invalid window `3 days`"), "{e}");
}

#[test]
fn spec_accepts_shorthand_and_refuses_unknowns() {
    let s =
        spec(json!({"only": true, "group_by": ["state", {"field": "user.login", "top": 2}], "stats": ["comments"]}));
    assert!(s.only);
    assert_eq!(s.group_by, vec![GroupBy::new(path("state")), GroupBy { field: path("user.login"), top: 2 }]);
    let back: AggregateSpec = serde_json::from_str(&serde_json::to_string(&s).unwrap()).unwrap();
    assert_eq!(back, s);
    let r = spec(json!({"recent": {"field": "t", "within": "2w"}}));
    assert_eq!(r.recent, Some(RecentWindow { field: path("t"), within: Window::parse("2w").unwrap() }));

    for (bad, why) in [
        (json!({"group": ["x"]}), "unknown field `group`"),
        (json!({"group_by": [{"field": "x", "limit": 3}]}), "unknown field `limit`"),
        (json!({"group_by": [{"field": "x", "top": 5000}]}), "at most 1000"),
        (json!({"group_by": ["a..b"]}), "invalid field path"),
        (json!({"group_by": [3]}), "a field path like"),
        (json!({"recent": {"field": "t"}}), "missing field `within`"),
    ] {
        let e = serde_json::from_value::<AggregateSpec>(bad.clone()).unwrap_err().to_string();
        assert!(e.contains(why), "{bad}: {e}");
    }
}

#[test]
fn serialises_compactly_with_a_stable_order_and_reads_as_one_line() {
    let s = spec(json!({
        "group_by": [{"field": "labels[].name", "top": 2}],
        "stats": ["comments"],
        "recent": {"field": "created_at", "within": "30d"}
    }));
    let now = 1_700_000_000;
    let recent = jiff::Timestamp::from_second(now - 86_400).unwrap().to_string();
    let old = jiff::Timestamp::from_second(now - 90 * 86_400).unwrap().to_string();
    let records = [
        json!({"labels": [{"name": "bug"}, {"name": "ui"}], "comments": 0, "created_at": recent}),
        json!({"labels": [{"name": "bug"}], "comments": 41, "created_at": recent}),
        json!({"labels": [{"name": "docs"}], "comments": 1, "created_at": old}),
        json!({"labels": [{"name": "bug"}, {"name": "docs"}], "comments": 1.5, "created_at": recent}),
    ];
    let agg = run(&s, Some(now), &records);
    assert_eq!(
        serde_json::to_string(&agg).unwrap(),
        r#"{"count":4,"groups":[{"field":"labels[].name","distinct":3,"top":[["bug",3],["docs",2]]}],"stats":[{"field":"comments","count":4,"min":0,"max":41,"mean":10.9,"sum":43.5}],"recent":{"field":"created_at","within":"30d","count":3,"share":0.75}}"#
    );
    assert_eq!(
        agg.phrase("issues"),
        "4 issues, 75% created in the last 30 days; top labels: bug 3, docs 2 (3 distinct); comments: min 0, mean 10.9, max 41"
    );
    // An aggregate of nothing is still well-formed.
    let empty = run(&AggregateSpec { only: false, group_by: vec![], stats: vec![], recent: None }, None, &[]);
    assert_eq!(serde_json::to_string(&empty).unwrap(), r#"{"count":0}"#);
    assert_eq!(empty.phrase("issues"), "0 issues");
}

#[test]
fn phrase_formats_large_numbers_with_separators() {
    let s = spec(json!({"group_by": ["k"], "stats": ["n"]}));
    let records: Vec<Value> = (0..1_412).map(|i| json!({"k": "bug", "n": i * 1000})).collect();
    let agg = run(&s, None, &records);
    assert_eq!(agg.phrase("issues"), "1,412 issues; top k: bug 1,412; n: min 0, mean 705,500, max 1,411,000");
}

fn arb_json() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::from),
        any::<i64>().prop_map(Value::from),
        any::<u64>().prop_map(Value::from),
        any::<f64>().prop_map(|f| serde_json::Number::from_f64(f).map_or(Value::Null, Value::Number)),
        ".{0,12}".prop_map(Value::from),
        "[a-c]{1,2}".prop_map(Value::from),
    ];
    leaf.prop_recursive(4, 32, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
            prop::collection::btree_map("[a-e]|labels|name|t", inner, 0..6)
                .prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
}

fn scalar() -> impl Strategy<Value = Value> {
    prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::from),
        (-5i64..5).prop_map(Value::from),
        "[a-d]{0,2}".prop_map(Value::from),
        (-1e3f64..1e3).prop_map(Value::from),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn never_panics_and_counts_every_record(records in prop::collection::vec(arb_json(), 0..40)) {
        let s = spec(json!({
            "group_by": ["a", "labels[].name", "b[0].c", "$"],
            "stats": ["a", "labels[].name", "t"],
            "recent": {"field": "t", "within": "1h"}
        }));
        for now in [None, Some(1_700_000_000), Some(i64::MIN), Some(i64::MAX)] {
            let agg = run(&s, now, &records);
            prop_assert_eq!(agg.count, records.len() as u64);
            let text = serde_json::to_string(&agg).unwrap();
            prop_assert!(!text.contains("NaN") && !text.contains("inf"));
            let _ = agg.phrase("records");
            let r = agg.recent.as_ref().unwrap();
            prop_assert!(r.share >= 0.0 && r.share <= 1.0);
        }
    }

    #[test]
    fn scalar_group_counts_sum_to_the_records(values in prop::collection::vec(prop::option::of(scalar()), 0..60)) {
        let records: Vec<Value> = values
            .iter()
            .map(|v| match v { Some(v) => json!({"k": v}), None => json!({"other": 1}) })
            .collect();
        let s = spec(json!({"group_by": [{"field": "k", "top": 1000}], "stats": ["k"]}));
        let agg = run(&s, None, &records);
        let g = &agg.groups[0];
        let total: u64 = g.top.iter().map(|(_, n)| n).sum::<u64>() + g.other;
        prop_assert_eq!(total, records.len() as u64);
        prop_assert_eq!(g.distinct as usize, g.top.len());
        // Stats: every record is either a number or skipped.
        prop_assert_eq!(agg.stats[0].count + agg.stats[0].skipped, records.len() as u64);
        // Deterministic order: count descending, then value ascending.
        for w in g.top.windows(2) {
            prop_assert!(w[0].1 > w[1].1 || (w[0].1 == w[1].1 && w[0].0 < w[1].0));
        }
    }

    #[test]
    fn fan_out_group_counts_sum_to_the_elements(lists in prop::collection::vec(prop::collection::vec(scalar(), 0..5), 0..40)) {
        let records: Vec<Value> = lists.iter().map(|l| json!({"tags": l.iter().map(|v| json!({"n": v})).collect::<Vec<_>>()})).collect();
        let s = spec(json!({"group_by": [{"field": "tags[].n", "top": 1000}]}));
        let agg = run(&s, None, &records);
        let total: u64 = agg.groups[0].top.iter().map(|(_, n)| n).sum();
        // Each element counts once; a record with no elements counts once as (none).
        let expected: usize = lists.iter().map(|l| l.len().max(1)).sum();
        prop_assert_eq!(total, expected as u64);
    }
}
