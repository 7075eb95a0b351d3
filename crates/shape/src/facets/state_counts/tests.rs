//! Tests of value counts within a state, on hand-made records.

use serde_json::json;

use super::*;

#[test]
fn a_field_is_counted_within_each_rare_state_and_not_within_the_common_one() {
    let mut counts = StateCounts::new(0, 1);
    let rows = [
        ("checkout", "error"),
        ("checkout", "error"),
        ("checkout", "error"),
        ("cart", "error"),
        ("cart", "error"),
        ("cart", "info"),
        ("cart", "info"),
        ("cart", "info"),
        ("search", "info"),
        ("search", "info"),
        ("search", "info"),
        ("search", "info"),
    ];
    for (i, (service, status)) in rows.iter().enumerate() {
        counts.add(Some(&json!(status)), Some(&json!(service)), i as u64 + 1);
    }
    let clauses = counts.clauses("service", "status", rows.len() as u64, 6);
    assert_eq!(clauses.len(), 1, "{clauses:?}");
    assert!(clauses[0].starts_with("service where status is error (5 records)"), "{}", clauses[0]);
    assert!(clauses[0].contains("checkout 3"), "{}", clauses[0]);
    assert!(clauses[0].contains("cart 2"), "{}", clauses[0]);
    assert!(!clauses[0].contains("search"), "{}", clauses[0]);
    // The errors are the rare state: 5 of 12 records.
    assert_eq!(counts.rarity(rows.len() as u64), Some(5.0 / 12.0));
}

#[test]
fn a_state_whose_uncommon_values_are_rarer_scores_as_rarer() {
    // A status where one record in ten failed, and an event split six to four.
    let (mut by_status, mut by_event) = (StateCounts::new(0, 1), StateCounts::new(0, 2));
    for i in 0..20u64 {
        let status = if i % 10 == 0 { "failure" } else { "success" };
        let event = if i % 10 < 6 { "push" } else { "pull_request" };
        by_status.add(Some(&json!(status)), Some(&json!("CI")), i + 1);
        by_event.add(Some(&json!(event)), Some(&json!("CI")), i + 1);
    }
    let (status, event) = (by_status.rarity(20), by_event.rarity(20));
    assert_eq!(status, Some(0.1));
    assert_eq!(event, Some(0.4));
}

#[test]
fn a_field_of_many_values_is_not_a_state() {
    let mut counts = StateCounts::new(0, 1);
    for i in 0..20u64 {
        counts.add(Some(&json!(format!("state-{i}"))), Some(&json!("a")), i + 1);
    }
    assert!(counts.clauses("service", "status", 20, 6).is_empty());
}

#[test]
fn a_state_one_record_holds_is_a_lookup_not_a_count() {
    let mut counts = StateCounts::new(0, 1);
    let states = ["failed", "ok", "ok", "ok", "ok", "ok"];
    for (i, s) in states.iter().enumerate() {
        counts.add(Some(&json!(s)), Some(&json!(format!("job-{}", i % 2))), i as u64 + 1);
    }
    assert!(counts.clauses("job", "status", 6, 6).is_empty());
}
