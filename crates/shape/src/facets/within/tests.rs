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

proptest::proptest! {
    /// For any records, each rarer value's clause names the first record holding its
    /// latest and its earliest time, and no value most records hold gets one.
    #[test]
    fn each_rarer_state_names_its_own_extremes(
        rows in proptest::collection::vec((0usize..3, 0u32..40), 8..60),
    ) {
        let states = ["merged", "open", "declined"];
        let recs: Vec<Value> = rows
            .iter()
            .enumerate()
            .map(|(i, (s, t))| json!({
                "id": format!("pr_{i:03}"),
                "state": states[*s],
                "created": format!("2025-11-{:02}T{:02}:00:00Z", 1 + t / 2, 8 + t % 2),
            }))
            .collect();
        let p = phrase(&recs, true);
        for state in states {
            let held: Vec<(&str, &str)> = recs
                .iter()
                .filter(|r| r["state"] == state)
                .map(|r| (r["created"].as_str().unwrap(), r["id"].as_str().unwrap()))
                .collect();
            let clause = format!("created where state is {state} (");
            let distinct = held.iter().any(|h| h.0 != held[0].0);
            let said = held.len() >= 2 && held.len() * 2 < recs.len() && distinct;
            // Three values at most, all counted: `state` is a field of few values whenever
            // at least two of them occur.
            let values = states.iter().filter(|s| recs.iter().any(|r| r["state"] == **s)).count();
            if values < 2 {
                proptest::prop_assert!(!p.contains(" where "), "{}", p);
                continue;
            }
            proptest::prop_assert_eq!(p.contains(&clause), said, "{}: {}", state, p);
            if said {
                let latest = held.iter().max_by(|a, b| a.0.cmp(b.0).then(b.1.cmp(a.1))).unwrap();
                let earliest = held.iter().min_by(|a, b| a.0.cmp(b.0).then(a.1.cmp(b.1))).unwrap();
                let expected = format!(
                    "{clause}{} records): latest {} (id {}), earliest {} (id {})",
                    held.len(), latest.0, latest.1, earliest.0, earliest.1
                );
                proptest::prop_assert!(p.contains(&expected), "{} not in {}", expected, p);
            }
        }
    }
}
