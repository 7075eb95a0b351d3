//! Extremes within a state, checked against the records' own extremes worked out here.

use serde_json::{Value, json};

use crate::compact::Compactor;
use crate::facets::Facets;

/// Thirty pull requests: merged, open and declined, each created on its own day.
fn pulls(states: &[&str]) -> Vec<Value> {
    (0..30)
        .map(|i| {
            json!({
                "id": format!("pr_{:03}", 900 + i),
                "state": states[(i * 7) % states.len()],
                "created": format!("2025-11-{:02}T08:00:00Z", 1 + (i * 11) % 30),
                "comments": (i * 13) % 17,
            })
        })
        .collect()
}

fn phrase(recs: &[Value], with_states: bool) -> String {
    let c = Compactor::learn(recs);
    let mut f = if with_states { Facets::with_states(&c) } else { Facets::new(&c) };
    recs.iter().for_each(|r| f.add(r));
    f.phrase(100_000).unwrap_or_default()
}

/// The latest and the earliest `created` of the records in `state`, with their ids.
fn extremes(recs: &[Value], state: &str) -> ((String, String), (String, String)) {
    let mut held: Vec<(String, String)> = recs
        .iter()
        .filter(|r| r["state"] == state)
        .map(|r| (r["created"].as_str().unwrap().to_owned(), r["id"].as_str().unwrap().to_owned()))
        .collect();
    held.sort();
    (held.last().unwrap().clone(), held[0].clone())
}

#[test]
fn the_oldest_open_one_is_named_among_merged_ones() {
    let recs = pulls(&["MERGED", "MERGED", "MERGED", "OPEN", "MERGED", "DECLINED"]);
    let open = recs.iter().filter(|r| r["state"] == "OPEN").count();
    let ((latest, newest), (earliest, oldest)) = extremes(&recs, "OPEN");
    let p = phrase(&recs, true);
    assert!(
        p.contains(&format!(
            "created where state is OPEN ({open} records): latest {latest} (id {newest}), earliest {earliest} (id {oldest})"
        )),
        "{p}"
    );
    // The most common value is the whole result's extremes already.
    assert!(!p.contains("where state is MERGED"), "{p}");
}

#[test]
fn a_field_of_many_values_is_no_state() {
    let teams = ["api", "web", "ios", "android", "data", "infra", "docs", "qa"];
    let recs = pulls(&teams);
    let p = phrase(&recs, true);
    assert!(!p.contains(" where "), "{p}");
}

#[test]
fn a_text_s_map_keeps_its_room_for_other_parts() {
    let recs = pulls(&["MERGED", "MERGED", "MERGED", "OPEN", "MERGED", "DECLINED"]);
    let p = phrase(&recs, false);
    assert!(p.contains("created: latest"), "{p}");
    assert!(!p.contains(" where "), "{p}");
}
