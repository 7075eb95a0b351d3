//! Tests of the note of records two lists down.

use serde_json::{Value, json};

use super::*;

/// A rule group holding `rules` rules, one in five of them firing.
fn group(name: &str, first: usize, rules: usize) -> Value {
    let rules: Vec<Value> = (first..first + rules)
        .map(|i| {
            json!({
                "name": format!("Alert{i}"),
                "state": if i % 5 == 0 { "firing" } else { "inactive" },
                "health": "ok",
                "evaluationTime": 0.001 * i as f64,
            })
        })
        .collect();
    json!({"name": name, "interval": 30, "rules": rules})
}

#[test]
fn rules_inside_groups_are_counted_over_every_group() {
    let mut lists = NestedLists::default();
    for g in 0..6 {
        let mut record = group(&format!("group-{g}"), g * 10, 10);
        lists.take(&mut record);
        assert_eq!(record["rules"], json!([]), "the lists are taken out");
    }
    let note = lists.note(600).expect("sixty rules in six groups are said");
    assert!(note.starts_with("60 rules inside the records; "), "{note}");
    assert!(note.contains("firing 12"), "{note}");
    assert!(note.contains("Alert59"), "the largest evaluation time is named: {note}");
}

#[test]
fn copied_and_taken_records_count_alike() {
    let (mut taken, mut copied) = (NestedLists::default(), NestedLists::default());
    for g in 0..4 {
        let mut record = group("g", g * 8, 8);
        copied.copy(&record);
        taken.take(&mut record);
    }
    assert_eq!(taken.note(600), copied.note(600));
    assert!(taken.note(600).is_some());
}

#[test]
fn a_few_tags_per_record_and_small_or_huge_lists_are_not_said() {
    // One label per record: no more objects than records.
    let mut tags = NestedLists::default();
    for i in 0..40 {
        tags.take(&mut json!({"id": i, "labels": [{"name": "bug", "color": "red"}]}));
    }
    assert_eq!(tags.note(600), None);
    // A label or two per record: more objects than records, but not groups of them.
    let mut labels = NestedLists::default();
    for i in 0..40 {
        let pick = |n: usize| json!({"name": format!("label-{}", n % 4), "color": "red"});
        let labels_of = if i % 2 == 0 { vec![pick(i), pick(i + 1)] } else { vec![pick(i)] };
        labels.take(&mut json!({"id": i, "labels": labels_of}));
    }
    assert_eq!(labels.note(600), None);
    // Fewer than twenty objects in all.
    let mut few = NestedLists::default();
    for g in 0..3 {
        few.take(&mut group("g", g * 5, 5));
    }
    assert_eq!(few.note(600), None);
    // More than the bound: not gathered, not said.
    let mut huge = NestedLists::default();
    for g in 0..3 {
        huge.take(&mut group("g", g * 8_000, 8_000));
    }
    assert_eq!(huge.note(600), None);
    // Too little room for anything.
    let mut fits = NestedLists::default();
    for g in 0..6 {
        fits.take(&mut group("g", g * 10, 10));
    }
    assert_eq!(fits.note(60), None);
}

#[test]
fn lists_of_scalars_are_not_records() {
    let mut lists = NestedLists::default();
    for i in 0..30 {
        lists.take(&mut json!({"id": i, "values": [1, 2, 3, 4, 5]}));
    }
    assert_eq!(lists.note(600), None);
}

#[test]
fn a_tree_under_one_name_is_gathered_at_every_depth() {
    // Disks holding partitions holding logical volumes, each level under `children`.
    let mut lists = NestedLists::default();
    for d in 0..8 {
        let parts: Vec<Value> = (0..2)
            .map(|p| {
                let volumes: Vec<Value> =
                    (0..3).map(|v| json!({"name": format!("vg{d}-lv{p}{v}"), "type": "lvm"})).collect();
                json!({"name": format!("sd{d}{p}"), "type": "part", "children": volumes})
            })
            .collect();
        lists.take(&mut json!({"name": format!("sd{d}"), "type": "disk", "children": parts}));
    }
    let note = lists.note(600).expect("the tree is said");
    assert!(note.starts_with("64 children inside the records; "), "{note}");
    assert!(note.contains("lvm 48, part 16"), "{note}");
}
