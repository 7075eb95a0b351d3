//! Lists whose places hold different kinds of words become a field per place; lists whose
//! places share their words stay lists.

use serde_json::{Value, json};

use super::*;

/// Search analytics rows: `keys` holds a query, a page, a country and a device.
fn rows(n: usize) -> Vec<Value> {
    let queries = ["tent", "hiking boots", "rain jacket", "headlamp", "down jacket", "stove"];
    let countries = ["usa", "gbr", "can", "aus", "deu"];
    let devices = ["MOBILE", "DESKTOP", "TABLET"];
    (0..n)
        .map(|i| {
            let q = queries[i % queries.len()];
            let page = ["https://shop.example/", "https://shop.example/pages/returns", "https://shop.example/blogs/layering-guide", "https://shop.example/collections/tents"][i * 7 % 4];
            json!({"keys": [q, page, countries[i % 5], devices[i % 3]], "clicks": 1000 - i * 7, "impressions": 3000 - i * 5})
        })
        .collect()
}

#[test]
fn places_of_different_words_become_fields() {
    let recs = rows(60);
    let c = Compactor::learn(&recs);
    let names: Vec<&str> = c.columns.iter().map(|c| c.name.as_str()).collect();
    for place in ["keys[0]", "keys[2]", "keys[3]"] {
        assert!(names.contains(&place), "{names:?}");
    }
    // The page, a link among a few, is judged as any field of links is: left out, and said so.
    assert!(names.contains(&"keys[1]") || c.dropped.iter().any(|d| d == "keys[1]"), "{names:?} {:?}", c.dropped);
    assert!(!names.contains(&"keys"), "{names:?}");
    let device = c.columns.iter().find(|c| c.name == "keys[3]").expect("the device's place");
    assert_eq!(device.holds, Holds::Categories, "devices repeat: counted");
    assert_eq!(device.projection(), "keys[3]");
    let shown = c.apply(&recs[4]);
    assert_eq!((&shown["keys[2]"], &shown["keys[3]"]), (&json!("deu"), &json!("DESKTOP")), "{shown}");
}

#[test]
fn a_list_whose_places_share_their_words_stays_a_list() {
    let labels = ["bug", "ui", "docs", "perf"];
    let recs: Vec<Value> = (0..40)
        .map(|i| json!({"number": i, "labels": [labels[i % 4], labels[(i + 1) % 4]], "comments": i % 7}))
        .collect();
    let c = Compactor::learn(&recs);
    let names: Vec<&str> = c.columns.iter().map(|c| c.name.as_str()).collect();
    assert!(names.contains(&"labels") && !names.contains(&"labels[0]"), "{names:?}");
    // Lists of numbers keep their places' extremes instead ([`tuples::places`]).
    let points: Vec<Value> =
        (0..40).map(|i| json!({"id": i, "coordinates": [i as f64 * 0.5, 10.0 - i as f64]})).collect();
    let c = Compactor::learn(&points);
    assert!(c.columns.iter().any(|c| c.name == "coordinates"), "{:?}", c.columns);
}
