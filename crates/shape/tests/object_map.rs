//! An object too large for one read says what it does not show: each member left for
//! `next`, with how much it holds, and a series (a list of plain values) its first and
//! last value, so "how many paths" or "the first hour" is answered by the first read.
#![allow(clippy::unwrap_used)]

use serde_json::{Map, Value, json};
use toolshape_shape::{OffsetContinuation, ShapeContext, ShapePlan, Shaper, Status};
use toolshape_tokens::Tokenizer;

fn first_read(input: &Value, budget: usize) -> (Status, String) {
    let (status, summary, _) = first_read_with_data(input, budget);
    (status, summary)
}

fn first_read_with_data(input: &Value, budget: usize) -> (Status, String, String) {
    let shaper = Shaper::new(ShapePlan { budget_tokens: budget, ..ShapePlan::default() }).unwrap();
    let next = OffsetContinuation { tool: "result_read".into(), base: Map::new() };
    let ctx = ShapeContext {
        tool: "get_spec",
        tokenizer: Tokenizer::default(),
        nonce: "18446744073709551615",
        now_unix: None,
        resume: None,
        continuation: &next,
    };
    let s = shaper.shape(input.to_string().as_bytes(), &ctx).unwrap();
    let data = serde_json::to_string(&s.envelope.data).unwrap();
    (s.envelope.status, s.envelope.summary, data)
}

#[test]
fn members_left_for_next_are_listed_with_their_size() {
    let paths: Map<String, Value> = (0..57)
        .map(|i| {
            (
                format!("/v1/things/{i}"),
                json!({"get": {"operationId": format!("getThing{i}"), "summary": "x ".repeat(40)}}),
            )
        })
        .collect();
    let spec = json!({"openapi": "3.0.3", "info": {"title": "T"}, "paths": paths, "tags": ["a", "b", "c"]});
    let (status, summary, data) = first_read_with_data(&spec, 400);
    assert_eq!(status, Status::Partial);
    assert!(summary.contains("not shown: the rest of paths (57 members)"), "{summary}");
    // `paths` is read in parts; the document's end, `tags`, is shown with its start.
    assert!(data.contains(r#""tags":["a","b","c"]"#), "{data}");
}

#[test]
fn a_series_left_for_next_gives_its_first_and_last_value() {
    let series = |f: fn(u32) -> f64| -> Vec<f64> { (0..168).map(f).collect() };
    let forecast = json!({
        "latitude": 52.5,
        "hourly": {
            "temperature_2m": series(|h| f64::from(h % 24) / 2.0 + 0.25),
            "rain": series(|h| f64::from(h % 5) / 10.0 + 0.05),
            "wind": series(|h| f64::from(h % 7) + 10.75),
        }
    });
    let (status, summary) = first_read(&forecast, 300);
    assert_eq!(status, Status::Partial);
    assert!(
        summary.contains(
            "hourly (3 members: temperature_2m 168 items: 0.25 … 11.75, rain 168 items: 0.05 … 0.25, wind 168 items: 10.75 … 16.75)"
        ),
        "{summary}"
    );
}

#[test]
fn a_member_shown_cut_still_says_its_records() {
    // An inventory: `_meta.hostvars` comes first and is too large for the page, so it is
    // shown cut; the groups follow.
    let hosts: Map<String, Value> = (0..120)
        .map(|i| {
            let dc = if i % 4 == 0 { "ams3" } else { "fra1" };
            (format!("host-{i:03}.example.net"), json!({"datacenter": dc, "notes": "n ".repeat(60)}))
        })
        .collect();
    let mut inventory = Map::new();
    inventory.insert("_meta".into(), json!({"hostvars": hosts}));
    // Groups of hosts and groups of groups, as many of each: not a map of records.
    for g in 0..6 {
        inventory.insert(format!("group{g}"), json!({"hosts": [format!("host-{g:03}.example.net")]}));
        inventory.insert(format!("parent{g}"), json!({"children": [format!("group{g}")]}));
    }
    let (status, summary) = first_read(&Value::Object(inventory), 1_500);
    assert_eq!(status, Status::Partial);
    assert!(summary.contains("_meta.hostvars: 120 records"), "{summary}");
    assert!(summary.contains("fra1 90, ams3 30"), "{summary}");
}
