//! Which values a field's counts list: the commonest first, and none of those seen once
//! where some values are left out anyway.

use serde_json::{Value, json};

use super::*;

/// The facets phrase of `recs` within `room` characters.
fn phrase_of(recs: &[Value], room: usize) -> Option<String> {
    let c = Compactor::learn(recs);
    let mut f = Facets::new(&c);
    recs.iter().for_each(|r| f.add(r));
    f.phrase(room)
}

#[test]
fn values_seen_once_are_not_listed_where_more_are_left_out() {
    // Forty records on `main`, one on each of forty branches: which branches would be
    // listed is chance, so only `main` is, and the room goes to the other fields.
    let recs: Vec<Value> = (0..80)
        .map(|i| {
            let branch = if i % 2 == 0 { "main".to_owned() } else { format!("fix/branch-{i:02}") };
            let event = ["push", "pull_request"][i % 2];
            json!({"id": format!("r{i}"), "branch": branch, "event": event})
        })
        .collect();
    let p = phrase_of(&recs, 10_000).unwrap();
    assert!(p.contains("branch: main 40 (+40 more values)"), "{p}");
    // Where the few values left would cost about what a note does, all are listed.
    let few: Vec<Value> = (0..12)
        .map(|i| {
            let kind = ["a", "a", "a", "b", "c", "d"][i % 6];
            json!({"id": i, "kind": kind})
        })
        .collect();
    let p = phrase_of(&few, 10_000).unwrap();
    assert!(p.contains("kind, most first: a 6, b 2, c 2, d 2"), "{p}");
}
